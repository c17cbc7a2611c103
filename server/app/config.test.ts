/**
 * The configuration (config.ts): one schema over the environment, read once at start. A bad value stops a real
 * start with one line naming the variable and exit code 1; docs/server.md's table lists the same variables, in the
 * same order, with the same defaults.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, readConfig, VARIABLES } from './config.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The refusal readConfig throws for this environment (and arguments). */
function refusal(env: Record<string, string>, argv: string[] = []): ConfigError {
  try {
    readConfig(env, argv);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail(`${JSON.stringify(env)} was accepted`);
}

describe('configuration', () => {
  test("docs/server.md's table lists every variable of the schema, in its order, with its default", () => {
    const doc = readFileSync(join(ROOT, 'docs', 'server.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Settings'), doc.indexOf('\n## ', doc.indexOf('## Settings') + 1));
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2]!.trim()]);
    assert.deepEqual(
      rows,
      Object.entries(VARIABLES).map(([name, v]) => [name, v.shown]),
    );
  });

  test('values are read with their types; unset and empty mean the default', () => {
    const {
      server: options,
      drainMs,
      logLevel,
    } = readConfig(
      {
        PORT: ' 9090 ',
        CHANNEL_DEV: 'true',
        ALLOWED_HOSTS: 'tv.example:443, ,cdn.example:443',
        DATABASE_URL: 'postgres://channel:secret@db.internal:5432/channel',
        HOST_PORT: '',
        TRUST_PROXY: '2',
      },
      [],
    );
    assert.equal(options.port, 9090);
    assert.equal(options.mode, 'dev');
    assert.deepEqual(options.allowedHosts, ['tv.example:443', 'cdn.example:443']);
    assert.equal(options.hostPort, undefined);
    assert.equal(options.trustProxy, 2);
    assert.deepEqual([drainMs, logLevel, options.metricsPort], [20_000, 'warn', 9464]);
    const defaults = readConfig({}, []).server;
    assert.deepEqual([defaults.mode, defaults.port, defaults.databaseUrl], ['production', 8080, undefined]);
    assert.equal(readConfig({}, ['--dev']).server.mode, 'dev');
    assert.equal(readConfig({ CHANNEL_DEV: '0' }, []).server.mode, 'production');
    assert.equal(readConfig({ LOG_LEVEL: 'debug', DRAIN_SECONDS: '3' }, []).drainMs, 3000);
  });

  test('a bad value is refused naming its variable, and a database URL is never repeated', () => {
    assert.equal(refusal({ PORT: 'abc' }).message, 'PORT: must be a whole number from 0 to 65535');
    assert.equal(refusal({ PORT: '70000' }).message, 'PORT: must be at most 65535');
    assert.equal(refusal({ RATE_LIMIT_MAX: '-5' }).variable, 'RATE_LIMIT_MAX');
    assert.equal(refusal({ CLIP_CONCURRENCY: '3' }).message, 'CLIP_CONCURRENCY: must be at most 2');
    assert.match(refusal({ CHANNEL_DEV: 'yes' }).message, /^CHANNEL_DEV: must be 1/);
    assert.match(refusal({ PUBLIC_URL: 'tv.example.com' }).message, /^PUBLIC_URL: must be an http/);
    const url = refusal({ DATABASE_URL: 'mysql://channel:hunter2@db/channel' });
    assert.equal(url.message, 'DATABASE_URL: must be a postgres://user:password@host:port/database URL');
    assert.doesNotMatch(url.message, /hunter2/);
    assert.equal(refusal({ DATABASE_URL: 'postgres//broken' }).variable, 'DATABASE_URL');
    assert.match(refusal({ LOG_LEVEL: 'loud' }).message, /^LOG_LEVEL: /);
    assert.match(refusal({}, ['--production']).message, /^arguments: unknown --production/);
  });

  test('Stripe: the key and webhook secret go together; another API origin only with a test key on loopback; never repeated', () => {
    const key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
    const secret = 'whsec_0123456789abcdef';
    assert.equal(readConfig({}, []).server.stripe, undefined, 'none: production answers the card calls 503');
    assert.deepEqual(readConfig({ STRIPE_SECRET_KEY: key, STRIPE_WEBHOOK_SECRET: secret }, []).server.stripe, {
      secretKey: key,
      webhookSecret: secret,
      apiUrl: undefined,
    });
    const double = { STRIPE_SECRET_KEY: key, STRIPE_WEBHOOK_SECRET: secret, STRIPE_API_URL: 'http://127.0.0.1:12111' };
    assert.equal(readConfig(double, []).server.stripe?.apiUrl, 'http://127.0.0.1:12111');
    assert.equal(
      readConfig({ ...double, STRIPE_API_URL: 'http://[::1]:12111/' }, []).server.stripe?.apiUrl,
      'http://[::1]:12111/',
    );
    const refusals: Array<[Record<string, string>, string]> = [
      [
        { STRIPE_SECRET_KEY: key },
        'STRIPE_WEBHOOK_SECRET: must be set with STRIPE_SECRET_KEY: verified webhooks decide access',
      ],
      [{ STRIPE_WEBHOOK_SECRET: secret }, 'STRIPE_SECRET_KEY: must be set with STRIPE_WEBHOOK_SECRET'],
      [
        { STRIPE_SECRET_KEY: 'pk_test_123', STRIPE_WEBHOOK_SECRET: secret },
        'STRIPE_SECRET_KEY: must be a Stripe secret key (sk_live_… or sk_test_…)',
      ],
      [
        { STRIPE_SECRET_KEY: key, STRIPE_WEBHOOK_SECRET: 'hunter2' },
        "STRIPE_WEBHOOK_SECRET: must be a webhook endpoint's signing secret (whsec_…)",
      ],
      [
        { ...double, STRIPE_SECRET_KEY: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' },
        'STRIPE_API_URL: is for a test double only: STRIPE_SECRET_KEY must be a test key (sk_test_…)',
      ],
      [
        { ...double, STRIPE_API_URL: 'http://stripe-mock.internal:12111' },
        'STRIPE_API_URL: is for a test double only: it must be a loopback address (127.0.0.1, [::1], localhost)',
      ],
      [
        { ...double, STRIPE_API_URL: 'http://127.0.0.1:12111/v1' },
        'STRIPE_API_URL: must be an origin (http://127.0.0.1:PORT), with no path',
      ],
    ];
    // Alone, for the channels' own (test) keys.
    const alone = readConfig({ STRIPE_API_URL: 'http://127.0.0.1:12111' }, []).server;
    assert.deepEqual([alone.stripe, alone.stripeApiUrl], [undefined, 'http://127.0.0.1:12111']);
    assert.match(
      refusal({ STRIPE_API_URL: 'http://10.0.0.5:12111' }).message,
      /^STRIPE_API_URL: is for a test double only/,
    );
    for (const [env, message] of refusals) {
      const refused = refusal(env);
      assert.equal(refused.message, message);
      assert.doesNotMatch(refused.message, /4eC39|0123456789abcdef|hunter2/, 'a secret is never repeated');
    }
  });

  test('mail: SMTP_URL needs MAIL_FROM, and a bad SMTP_URL is refused without repeating its password', () => {
    const smtp = readConfig(
      { SMTP_URL: 'smtps://mailer:hunter2@smtp.example:465', MAIL_FROM: 'no-reply@tv.example' },
      [],
    ).server;
    assert.deepEqual([smtp.smtpUrl, smtp.mailFrom], ['smtps://mailer:hunter2@smtp.example:465', 'no-reply@tv.example']);
    assert.equal(
      refusal({ SMTP_URL: 'smtp://mailer:hunter2@smtp.example:587' }).message,
      'MAIL_FROM: is needed with SMTP_URL (the sender of every email)',
    );
    const bad = refusal({ SMTP_URL: 'https://mailer:hunter2@smtp.example', MAIL_FROM: 'no-reply@tv.example' });
    assert.equal(bad.variable, 'SMTP_URL');
    assert.doesNotMatch(bad.message, /hunter2/);
    assert.equal(refusal({ MAIL_FROM: 'Channel <no-reply@tv.example>' }).variable, 'MAIL_FROM');
  });

  test('social sign-in: the server’s secret for the channels without their own; the URLs are the provider’s own, or on loopback (tests)', () => {
    const none = readConfig({}, []).server;
    assert.deepEqual(
      [none.google?.clientSecret, none.facebook?.appSecret],
      [undefined, undefined],
      'no server-wide secret: only the channels with their own sign in',
    );
    assert.equal(none.google?.issuer, 'https://accounts.google.com');
    const both = readConfig({ GOOGLE_CLIENT_SECRET: 'g-secret', FACEBOOK_APP_SECRET: 'fb-secret' }, []).server;
    assert.deepEqual(both.google, { clientSecret: 'g-secret', issuer: 'https://accounts.google.com' });
    assert.deepEqual(both.facebook, {
      appSecret: 'fb-secret',
      graphUrl: 'https://graph.facebook.com/v21.0',
      authorizeUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
    });
    const tests = readConfig(
      {
        GOOGLE_CLIENT_SECRET: 'g-secret',
        GOOGLE_ISSUER_URL: 'http://127.0.0.1:4567',
        FACEBOOK_APP_SECRET: 'fb-secret',
        FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/v22.0',
        FACEBOOK_AUTHORIZE_URL: 'http://localhost:4568/v21.0/dialog/oauth',
      },
      [],
    ).server;
    assert.equal(tests.google?.issuer, 'http://127.0.0.1:4567');
    assert.equal(tests.facebook?.graphUrl, 'https://graph.facebook.com/v22.0');
    for (const [name, value] of [
      ['GOOGLE_ISSUER_URL', 'https://accounts.evil.example'],
      ['GOOGLE_ISSUER_URL', 'http://accounts.google.com'],
      ['FACEBOOK_GRAPH_URL', 'https://graph.facebook.com.evil.example/v21.0'],
      ['FACEBOOK_AUTHORIZE_URL', 'http://10.0.0.5/dialog/oauth'],
    ] as const)
      assert.match(refusal({ [name]: value }).message, new RegExp(`^${name}: must be an https URL on `), value);
  });

  test('live ingest: an rtmp:// URL with its application, with INGEST_HLS_DIR and the operator listener', () => {
    const ingest = { INGEST_RTMP_URL: 'rtmp://ingest.example.com/live', INGEST_HLS_DIR: 'hls', OPERATOR_PORT: '8082' };
    assert.deepEqual(readConfig({ ...ingest, INGEST_GRACE_SECONDS: '15' }, []).server.ingest, {
      rtmpUrl: 'rtmp://ingest.example.com/live',
      hlsDir: join(process.cwd(), 'hls'),
      graceSeconds: 15,
    });
    assert.equal(readConfig({}, []).server.ingest, undefined);
    for (const url of [
      'http://ingest.example.com/live',
      'rtmp://ingest.example.com',
      'rtmp://ingest.example.com/live/key/x',
      'rtmp://ingest.example.com/ingest',
    ])
      assert.match(
        refusal({ ...ingest, INGEST_RTMP_URL: url }).message,
        /^INGEST_RTMP_URL: must be an rtmp:\/\/host\[:port\]\/live URL/,
      );
    assert.match(
      refusal({ ...ingest, INGEST_HLS_DIR: '' }).message,
      /^INGEST_HLS_DIR: must be set with INGEST_RTMP_URL/,
    );
    assert.match(
      refusal({ ...ingest, INGEST_RTMP_URL: '' }).message,
      /^INGEST_RTMP_URL: must be set with INGEST_HLS_DIR/,
    );
    assert.match(refusal({ ...ingest, OPERATOR_PORT: '' }).message, /^OPERATOR_PORT: must be set with INGEST_RTMP_URL/);
    assert.match(refusal({ ...ingest, INGEST_GRACE_SECONDS: '-1' }).message, /^INGEST_GRACE_SECONDS: must be a whole/);
    assert.match(
      refusal({ ...ingest, INGEST_GRACE_SECONDS: '2' }).message,
      /^INGEST_GRACE_SECONDS: must be at least 5/,
    );
  });

  test('a real start with a bad value (PORT=abc, a bad SMTP_URL or Google issuer, a live Stripe key sent elsewhere...) stops at once: one line naming it, exit code 1', () => {
    // Through main.ts as the tests start it, and through the package's command (server/bin) as an operator does.
    const main = ['--import', 'tsx', 'server/main.ts'];
    const command = ['server/bin/channel-server.mjs'];
    for (const [env, variable, args] of [
      [{ PORT: 'abc' }, 'PORT', main],
      [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL', main],
      [{ CHANNEL_DEV: 'maybe' }, 'CHANNEL_DEV', command],
      [{ PORT: '99999' }, 'PORT', command],
      // A live key sent to another API origin: refused before anything starts, the key never repeated.
      [
        {
          STRIPE_SECRET_KEY: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
          STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
          STRIPE_API_URL: 'http://127.0.0.1:12111',
        },
        'STRIPE_API_URL',
        main,
      ],
      // Mail and social sign-in: a password in SMTP_URL is never repeated.
      [{ SMTP_URL: 'https://mailer:hunter2@smtp.example', MAIL_FROM: 'no-reply@tv.example' }, 'SMTP_URL', command],
      [{ SMTP_URL: 'smtps://mailer:hunter2@smtp.example:465' }, 'MAIL_FROM', main],
      [
        { GOOGLE_CLIENT_SECRET: 'g-secret', GOOGLE_ISSUER_URL: 'https://accounts.evil.example' },
        'GOOGLE_ISSUER_URL',
        command,
      ],
      [{ FACEBOOK_APP_SECRET: 'fb-secret', FACEBOOK_GRAPH_URL: 'http://10.0.0.5/v21.0' }, 'FACEBOOK_GRAPH_URL', main],
    ] as const) {
      const run = spawnSync(process.execPath, args, {
        cwd: ROOT,
        env: { PATH: process.env.PATH, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(run.status, 1, run.stderr);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0]!, new RegExp(`^\\[channel-server\\] ${variable}: `));
      assert.equal(run.stdout, '');
      assert.doesNotMatch(
        run.stderr,
        /4eC39|0123456789abcdef|hunter2|g-secret|fb-secret/,
        'a secret is never repeated',
      );
    }
  });
});
