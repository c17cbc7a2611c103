/**
 * The reference server attacked in the ways a security review found it could be: each test performs one attack with
 * plain HTTP and is named after it. Most run against a dev-mode server (the mode `npm start` uses, where the
 * stand-ins exist); the ones about what must not exist at all run against a production-mode server.
 */
import assert from 'node:assert/strict';
import fs, { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cachedEventOrigins } from '../catalog/events.js';
import { DEV_SECRET_HEADER } from './exposure.js';
import { MAX_LOGS_PER_CHANNEL, prune } from '../storage/maintenance.js';
import type { RunningServer } from './server.js';
import { captureLog, Harness, ok, request, startTestServer, type Answer } from '../testing/harness.js';

const h = new Harness();
/** A production-mode server (no CHANNEL_DEV): what a channel runs as shipped. */
let prod: RunningServer;
const prodTmp = mkdtempSync(join(tmpdir(), 'channel-prod-test-'));

before(async () => {
  await h.start();
  prod = await startTestServer({ port: 0, dataDir: join(prodTmp, 'data') });
});
after(async () => {
  await prod.stop();
  await h.stop();
  rmSync(prodTmp, { recursive: true, force: true });
});

const FAN = { email: 'fan@example.com', password: 'fan-pass-1' };
const DAY_MS = 86400_000;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request with full control of the Host header and of the local address it leaves from (127.0.0.x: Linux routes
 * all of 127/8 to loopback), which fetch() allows neither of.
 */
function raw(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.from,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A JSON POST to the API from a given local address (for limits that count per address), signed in with `token`. */
const postFrom = (from: string, path: string, body: Record<string, unknown>, token?: string) =>
  raw(h.server.port, `/api/${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Host: `localhost:${h.server.port}`,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ api_key: h.key, ...body }),
    from,
  });

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const apiPost = (path: string, body: Record<string, unknown>, token?: string) =>
  h.post(`/api/${path}`, { api_key: h.key, ...body }, token ? auth(token) : {});
const apiGet = (path: string, token?: string) =>
  h.call(`/api/${path}?api_key=${h.key}`, { headers: token ? auth(token) : {} });

async function signIn(account: { email: string; password: string }): Promise<string> {
  const res = await apiPost('v2/auth/login', account);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.data.token);
}

let serial = 0;
/** Registers a fresh account with a password; answers its email and token. */
async function register(
  password = 'attacker-pass-1',
  email = `sec${++serial}-${Date.now()}@example.com`,
): Promise<{ email: string; token: string }> {
  const res = await apiPost('v2/auth/register', {
    first_name: 'Sam',
    last_name: 'Test',
    email,
    password,
    password_confirmation: password,
    terms: true,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { email, token: String(res.body.data.token) };
}

/** The social stand-in's authorize request for the demo's Google client, back to `redirect` (a started one's `query`). */
const authorize = (redirect: string, email: string, query: Record<string, string> = {}) =>
  new URLSearchParams({
    client_id: 'demo-google-client',
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'openid email profile',
    state: 'some-state',
    nonce: 'some-nonce',
    code_challenge: 'c'.repeat(43),
    code_challenge_method: 'S256',
    ...query,
    action: 'continue',
    email,
    email_verified: '1',
    first_name: 'Vic',
    last_name: 'Tim',
  }).toString();

const googleCallback = () => `${h.base}/auth/login/google/callback`;

/** A sign-in with the Google stand-in as `email`, as its owner would make it: started, then its code and state. */
async function socialCode(email: string): Promise<{ code: string; state: string }> {
  const started = await apiPost('v2/auth/social/google/start', { redirect_uri: googleCallback() });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const query = Object.fromEntries(new URL(String(started.body.data.url)).searchParams);
  const back = await fetch(`${h.base}/__social/google/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: authorize(googleCallback(), email, query),
    redirect: 'manual',
  });
  assert.equal(back.status, 303);
  const code = new URL(back.headers.get('location')!).searchParams.get('code');
  ok(code, 'a code');
  return { code, state: query.state! };
}

/** Redeems a stand-in code with the channel's API; answers the new token. */
async function redeem(code: { code: string; state: string }): Promise<string> {
  const res = await apiPost('v2/auth/social/google', { ...code, redirect_uri: googleCallback() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.data.token);
}

/** Signs in through the Google stand-in as `email` (as its owner would) and answers the new token. */
const socialSignIn = async (email: string) => redeem(await socialCode(email));

describe('critical: the dev endpoints', () => {
  test('without dev mode, the outbox, dev endpoints, stand-ins and demo pages do not exist (404)', async () => {
    const at = (path: string, init: RequestInit = {}) => request(`${prod.origin}${path}`, init);
    const textPost = (body: unknown): RequestInit => ({
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify(body),
    });
    const probes: Array<[string, RequestInit?]> = [
      ['/__dev/outbox?to=fan@example.com'],
      ['/__dev/settings?channel_key=demo'],
      ['/__dev/settings?channel_key=demo', textPost({ gtag_url: 'https://evil.example/x.js' })],
      ['/__dev/orders?channel_key=demo'],
      ['/__dev/logs'],
      ['/__dev/faults'],
      ['/__dev/events?channel_key=demo'],
      ['/__dev/gtag'],
      ['/__dev/analytics?channel_key=demo'],
      ['/gtag-stand-in/collect', textPost({ command: 'event' })],
      ['/outbox.html'],
      ['/analytics.html'],
      ['/analytics-dev.js'],
      ['/dev-secret.js'],
      ['/outbox.js'],
      ['/stripe-test-double.js'],
      ['/gtag-stand-in.js'],
      ['/index.html'],
      ['/__social/google/authorize?client_id=demo-google-client'],
      [
        '/__stripe/v1/payment_methods',
        { method: 'POST', headers: { Authorization: 'Bearer pk_test_demo' }, body: 'type=card' },
      ],
      ['/', textPost({ events: [] })], // the Mux beacon collector
    ];
    for (const [path, init] of probes) {
      const res = await at(path, init);
      assert.equal(res.status, 404, `${init?.method ?? 'GET'} ${path}`);
    }
    assert.equal(prod.hostPort, 0, 'no CMS host listener');
    // No Stripe key: card payments answer 503 (nothing half done), and so does the webhook endpoint.
    const key = String(
      (
        await at('/api/get_api_key', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ channel_key: 'demo' }),
        })
      ).body.data.api_key,
    );
    for (const [method, path] of [
      ['POST', 'stripe/buy'],
      ['POST', 'stripe/subscription/start_trial'],
      ['POST', 'stripe/setup-intent'],
      ['GET', 'stripe/list-cards'],
      ['GET', 'stripe/customer-portal'],
    ] as const) {
      const res =
        method === 'GET'
          ? await at(`/api/${path}?api_key=${key}`)
          : await at(`/api/${path}`, {
              method,
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ api_key: key }),
            });
      assert.deepEqual([res.status, res.body.message], [503, 'Card payments are not set up on this server.'], path);
    }
    const hook = await at('/stripe/webhooks/demo', {
      method: 'POST',
      headers: { 'Stripe-Signature': 't=1,v1=0' },
      body: '{}',
    });
    assert.deepEqual([hook.status, hook.body.message], [503, 'Card payments are not set up on this server.']);
    // The channel itself still works, without stand-ins in its settings.
    const settings = (await at('/api/settings?channel_key=demo')).body.data;
    assert.equal(settings.name, 'Demo Sports Network');
    ok(
      !JSON.stringify(settings).includes('stand-in') && !JSON.stringify(settings).includes('__social'),
      JSON.stringify(settings),
    );
    // Placeholder pictures draw words from their names: production draws only the ones its fixtures name.
    assert.equal((await at('/media/art/Send-your-password-to-evil-example.svg')).status, 404, 'art of any name');
    assert.equal((await at('/media/logos/Call-support-now.svg')).status, 404, 'a logo of no school');
    const art = await fetch(`${prod.origin}/media/art/slide-championship.svg`);
    assert.equal(art.status, 200, "a fixture's picture");
    ok((await art.text()).includes('<svg'), 'an SVG');
    assert.equal((await fetch(`${h.base}/media/art/any-name.svg`)).status, 200, 'dev mode draws any name');
    assert.equal((await at('/account.html')).status, 404, 'only the account routes open the account page');
    assert.equal(
      (await at('/password-reset?channel_key=demo')).status,
      200,
      'the account routes of emailed links stay',
    );
  });

  test('reading the outbox for a reset link without the dev secret is refused, and never readable from other origins', async () => {
    assert.equal((await apiPost('auth/password-reset-request', { email: FAN.email })).status, 200);
    const outbox = `${h.base}/__dev/outbox?to=${encodeURIComponent(FAN.email)}`;
    const attempts: Array<Record<string, string>> = [
      {},
      { [DEV_SECRET_HEADER]: 'f'.repeat(48) },
      { Origin: 'https://evil.example' },
    ];
    for (const headers of attempts) {
      const res = await request(outbox, { headers });
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      ok(!JSON.stringify(res.body).includes('token='), 'no reset link in a refusal');
    }
    const allowed = await h.call(`/__dev/outbox?to=${encodeURIComponent(FAN.email)}`);
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), null, 'no CORS even with the secret');
    ok(allowed.body.data[0].links[0].includes('token='));
  });

  test('rewriting channel settings with a text/plain POST, as any web page could, is refused', async () => {
    const res = await request(`${h.base}/__dev/settings?channel_key=demo`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
      body: JSON.stringify({ gtag_url: 'https://evil.example/x.js' }),
    });
    assert.equal(res.status, 403);
    const settings = (await h.keyless('settings')).body.data;
    assert.equal(settings.gtag_url, `${h.base}/gtag-stand-in.js?id=G-DEMO0000`);
  });

  test('even with the dev secret, settings cannot point the tag-manager script or the site anywhere', async () => {
    const change = (body: unknown) =>
      h.call('/__dev/settings?channel_key=demo', {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify(body),
      });
    try {
      for (const bad of [
        { gtag_url: 'https://evil.example/gtag.js' },
        { gtag_url: 'http://www.googletagmanager.com/gtag/js?id=G-1' },
        { gtag_url: 'javascript:alert(1)' },
        { site_url: 'javascript:alert(1)' },
        { site_url: 'data:text/html,<script>alert(1)</script>' },
        { social: { google: { client_id: 'x', authorize_url: 'javascript:alert(1)' } } },
        { logo: '//evil.example/logo.svg' },
        { mux: { env_key: 'k', beacon_domain: 'evil.example/steal?x=' } },
      ]) {
        const res = await change(bad);
        assert.equal(res.status, 422, JSON.stringify(bad));
      }
      assert.equal(
        (await h.keyless('settings')).body.data.gtag_url,
        `${h.base}/gtag-stand-in.js?id=G-DEMO0000`,
        'nothing was stored',
      );
      const good = await change({
        gtag_url: 'https://www.googletagmanager.com/gtag/js?id=G-DEMO0000',
        site_url: 'https://tv.example.com/',
      });
      assert.equal(good.status, 200, JSON.stringify(good.body));
    } finally {
      await h.call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
    }
  });

  test('a cross-origin preflight to the dev endpoints gets no CORS answer', async () => {
    const res = await fetch(`${h.base}/__dev/outbox`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': DEV_SECRET_HEADER,
      },
    });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal(res.headers.get('access-control-allow-headers'), null);
  });

  test('the server cannot be reached from the network unless HOST says so (it listens on 127.0.0.1)', async () => {
    assert.equal(h.server.address, '127.0.0.1');
    assert.equal(prod.address, '127.0.0.1');
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal)
      .map((a) => a!.address);
    for (const address of external) {
      await assert.rejects(
        new Promise((resolve, reject) =>
          httpRequest({ host: address, port: h.server.port, path: '/keys/demo.json' }, resolve)
            .on('error', reject)
            .end(),
        ),
        /ECONNREFUSED/,
        address,
      );
    }
  });

  test('the dev secret is new at each start and kept only in DATA_DIR/dev-secret, readable by its owner alone', async () => {
    const file = join(h.server.dataDir, 'dev-secret');
    assert.equal(readFileSync(file, 'utf8').trim(), h.server.devSecret);
    assert.match(h.server.devSecret ?? '', /^[0-9a-f]{48}$/);
    assert.equal(statSync(file).mode & 0o077, 0, 'no group or other permissions');
    assert.equal(prod.devSecret, undefined);
    ok(!fs.existsSync(join(prod.dataDir, 'dev-secret')), 'production writes no secret');
    const again = await startTestServer({ mode: 'dev', port: 0, dataDir: join(prodTmp, 'data-again') });
    try {
      ok(again.devSecret && again.devSecret !== h.server.devSecret, 'another start, another secret');
    } finally {
      await again.stop();
    }
  });
});

describe('critical: the social sign-in stand-in', () => {
  test('without dev mode there is no stand-in to sign anyone in as anyone', async () => {
    const res = await fetch(`${prod.origin}/__social/google/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: authorize(`${prod.origin}/auth/login/google/callback`, 'viewer@demo-sports.example'),
      redirect: 'manual',
    });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('location'), null);
    const settings = (await request(`${prod.origin}/api/settings?channel_key=demo`)).body.data;
    assert.deepEqual(settings.social, {}, 'no provider is offered that nothing could complete');
  });

  test("a code cannot be sent to another host's callback (no open redirect)", async () => {
    for (const redirect of [
      'http://evil.example/auth/login/google/callback',
      `http://localhost:9/auth/login/google/callback`,
      `${h.base}/elsewhere/auth/login/google/callback`,
    ]) {
      const res = await fetch(`${h.base}/__social/google/authorize`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: authorize(redirect, 'viewer@demo-sports.example'),
        redirect: 'manual',
      });
      assert.equal(res.status, 400, redirect);
      assert.equal(res.headers.get('location'), null, redirect);
    }
    // The configured site's callbacks still work: this server's, and in dev mode the demo's CMS host.
    for (const site of [h.base, h.server.hostOrigin]) {
      const res = await fetch(`${h.base}/__social/google/authorize`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: authorize(`${site}/auth/login/google/callback`, 'social.fan@example.com'),
        redirect: 'manual',
      });
      assert.equal(res.status, 303, site);
    }
  });

  test('the stand-in page says plainly that it is a test stand-in', async () => {
    const query = new URLSearchParams({
      client_id: 'demo-google-client',
      redirect_uri: `${h.base}/auth/login/google/callback`,
      response_type: 'code',
      state: 'some-state',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    });
    const page = await fetch(`${h.base}/__social/google/authorize?${query}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    ok(html.includes('Not Google') && html.includes('anyone can sign in here as any email address'), html);
    ok(html.includes('Dev mode test stand-in'), html);
  });
});

describe('high: the Host header', () => {
  test('a forged Host header is refused before anything is sent (no reset email linking to evil.example)', async () => {
    const before = (await h.call(`/__dev/outbox?to=${encodeURIComponent(FAN.email)}`)).body.data.length;
    const res = await raw(h.server.port, '/api/auth/password-reset-request', {
      method: 'POST',
      headers: { Host: 'evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: h.key, email: FAN.email }),
    });
    assert.equal(res.status, 400);
    const emails = (await h.call(`/__dev/outbox?to=${encodeURIComponent(FAN.email)}`)).body.data;
    assert.equal(emails.length, before, 'no email was sent');
    ok(!JSON.stringify(emails).includes('evil.example'));
  });

  test("emailed links use the public origin even when the request came by another of the server's names", async () => {
    const res = await raw(h.server.port, '/api/auth/password-reset-request', {
      method: 'POST',
      headers: { Host: `127.0.0.1:${h.server.port}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: h.key, email: FAN.email }),
    });
    assert.equal(res.status, 200, res.body);
    const [email] = (await h.call(`/__dev/outbox?to=${encodeURIComponent(FAN.email)}`)).body.data;
    assert.equal(new URL(email.links[0]).origin, h.base);
  });

  test('a Host header cannot be written into the event JSON, nor multiply its cache', async () => {
    const path = `/api/events/${h.id('free-live')}?api_key=${h.key}`;
    const evil = await raw(h.server.port, path, { headers: { Host: 'evil.example"},"x":"' } });
    assert.equal(evil.status, 400);
    ok(!evil.body.includes('evil.example'));
    for (const host of [`127.0.0.1:${h.server.port}`, `[::1]:${h.server.port}`, `LOCALHOST:${h.server.port}`]) {
      const res = await raw(h.server.port, path, { headers: { Host: host } });
      assert.equal(res.status, 200, host);
      const event = JSON.parse(res.body).data;
      ok(event.image.startsWith(`${h.base}/`), event.image);
    }
    assert.deepEqual(cachedEventOrigins(h.server.db), [h.base], 'one cached copy of the events');
  });
});

describe('medium: accounts', () => {
  test("pre-registering a victim's email does not survive their social sign-in", async () => {
    const victim = `victim-${Date.now()}@example.com`;
    const attacker = await register('attacker-pass-1', victim);
    assert.equal((await apiGet('profile', attacker.token)).status, 200);
    const owner = await socialSignIn(victim);
    assert.equal((await apiGet('profile', attacker.token)).status, 401, "the attacker's session ended");
    assert.equal(
      (await apiPost('v2/auth/login', { email: victim, password: 'attacker-pass-1' })).status,
      422,
      "the attacker's password is gone",
    );
    const profile = (await apiGet('profile', owner)).body.data;
    assert.deepEqual([profile.email_verified, profile.has_password], [true, false]);
  });

  test('a password change in flight when the owner signs in socially does not keep a pre-registered account', async () => {
    const victim = `victim-race-${Date.now()}@example.com`;
    const attacker = await register('attacker-pass-1', victim);
    const code = await socialCode(victim);
    // The attacker's change hashes two passwords; the owner's sign-in lands meanwhile.
    const change = apiPost(
      'profile',
      {
        _method: 'patch',
        password: 'attacker-pass-2',
        password_confirmation: 'attacker-pass-2',
        current_password: 'attacker-pass-1',
      },
      attacker.token,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    const owner = await redeem(code);
    assert.equal((await change).status, 401, 'the change found its session gone');
    assert.equal((await apiPost('v2/auth/login', { email: victim, password: 'attacker-pass-2' })).status, 422);
    assert.equal((await apiGet('profile', owner)).status, 200, "the owner's session stands");
  });

  test('a TV code linked by whoever pre-registered the account gets no token once the owner takes it over', async () => {
    const victim = `victim-tv-${Date.now()}@example.com`;
    const attacker = await register('attacker-pass-1', victim);
    const tvKey = await h.apiKey('demo');
    const device = await h.post('/api/auth/device-code', { api_key: tvKey });
    assert.equal(device.status, 200, JSON.stringify(device.body));
    const code = String(device.body.data.code);
    assert.equal((await apiPost('auth/add_session', { code }, attacker.token)).status, 200);
    await socialSignIn(victim);
    const polled = await h.call(`/api/auth/device-code/${code}?api_key=${tvKey}`);
    ok(!polled.body?.data?.token, `no token for the TV: ${JSON.stringify(polled.body)}`);
  });

  test('a password change also ends uncollected TV codes; a reset too', async () => {
    const { email, token } = await register('owner-pass-1');
    const link = async () => {
      const tvKey = await h.apiKey('demo');
      const code = String((await h.post('/api/auth/device-code', { api_key: tvKey })).body.data.code);
      assert.equal((await apiPost('auth/add_session', { code }, token)).status, 200);
      return () => h.call(`/api/auth/device-code/${code}?api_key=${tvKey}`);
    };
    const poll = await link();
    const res = await apiPost(
      'profile',
      {
        _method: 'patch',
        password: 'owner-pass-2',
        password_confirmation: 'owner-pass-2',
        current_password: 'owner-pass-1',
      },
      token,
    );
    assert.equal(res.status, 200);
    ok(!(await poll()).body?.data?.token, 'no token after the password change');
    const poll2 = await link();
    await apiPost('auth/password-reset-request', { email });
    const [mail] = (await h.call(`/__dev/outbox?to=${encodeURIComponent(email)}`)).body.data;
    const reset = new URL(mail.links[0]).searchParams.get('token');
    assert.equal(
      (
        await apiPost('auth/password-reset', {
          email,
          token: reset,
          password: 'owner-pass-3',
          password_confirmation: 'owner-pass-3',
        })
      ).status,
      200,
    );
    ok(!(await poll2()).body?.data?.token, 'no token after the reset');
  });

  test('one account keeps at most 20 sessions: signing in once more ends the oldest', async () => {
    const { email, token: first } = await register('owner-pass-1');
    for (let i = 0; i < 20; i++) await signIn({ email, password: 'owner-pass-1' });
    assert.equal((await apiGet('profile', first)).status, 401);
  });

  test('one address cannot create accounts without end', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) {
      const res = await postFrom('127.0.3.1', 'v2/auth/register', {
        first_name: 'Bo',
        last_name: 'T',
        email: `bulk-${i}-${Date.now()}@example.com`,
        password: 'bulk-pass-1',
        password_confirmation: 'bulk-pass-1',
        terms: true,
      });
      statuses.push(res.status);
      if (i === 50)
        assert.equal(
          JSON.parse(res.body).errors.email[0],
          'Too many accounts were created from this address. Please try again later.',
        );
    }
    assert.deepEqual([statuses.slice(0, 50).every((s) => s === 200), statuses[50]], [true, 422]);
  });

  test('a stolen token alone cannot change the password: the current one is required', async () => {
    const { token } = await register('owner-pass-1');
    const change = (extra: Record<string, unknown>) =>
      apiPost(
        'profile',
        { _method: 'patch', password: 'taken-over-1', password_confirmation: 'taken-over-1', ...extra },
        token,
      );
    const missing = await change({});
    assert.equal(missing.status, 422);
    ok(
      missing.body.errors.current_password?.includes('The current password field is required.'),
      JSON.stringify(missing.body),
    );
    const wrong = await change({ current_password: 'guess-1234' });
    assert.equal(wrong.status, 422);
    ok(wrong.body.errors.current_password?.includes('The current password is incorrect.'), JSON.stringify(wrong.body));
    assert.equal((await change({ current_password: 'owner-pass-1' })).status, 200);
  });

  test('a password change ends every other session of the account', async () => {
    const { email, token } = await register('owner-pass-1');
    const other = await signIn({ email, password: 'owner-pass-1' });
    const res = await apiPost(
      'profile',
      {
        _method: 'patch',
        password: 'owner-pass-2',
        password_confirmation: 'owner-pass-2',
        current_password: 'owner-pass-1',
      },
      token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await apiGet('profile', other)).status, 401, 'the other session ended');
    assert.equal((await apiGet('profile', token)).status, 200, 'this one stays');
  });

  test('a token unused for 30 days stops working; one in use lives on', async () => {
    const { email, token: idle } = await register('owner-pass-1');
    const used = await signIn({ email, password: 'owner-pass-1' });
    const saved = h.nowMs;
    try {
      h.nowMs += 20 * DAY_MS;
      assert.equal((await apiGet('profile', used)).status, 200);
      h.nowMs += 15 * DAY_MS;
      assert.equal((await apiGet('profile', idle)).status, 401, 'unused for 35 days');
      assert.equal((await apiGet('profile', used)).status, 200, 'used 15 days ago');
    } finally {
      h.nowMs = saved;
    }
  });

  test('logout ends the token on the server, not only in the browser', async () => {
    const { token } = await register();
    assert.equal((await apiPost('auth/logout', {}, token)).status, 200);
    assert.equal((await apiGet('profile', token)).status, 401);
  });

  test('an account with a temporary password can only read its profile, change the password and log out', async () => {
    const temp = { email: 'temp@example.com', password: 'temp-pass-1' };
    const token = await signIn(temp);
    for (const [method, path] of [
      ['GET', 'orders'],
      ['GET', 'transactions'],
      ['GET', 'favorites'],
      ['POST', 'favorite'],
      ['GET', 'stripe/list-cards'],
      ['POST', 'auth/add_session'],
      ['POST', 'auth/delete-account'],
    ] as const) {
      const res =
        method === 'GET'
          ? await apiGet(path, token)
          : await apiPost(path, { favoritable_type: 'participant', favoritable_id: 1, code: 'ABCDEF' }, token);
      assert.equal(res.status, 403, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.message, 'Choose a new password first: you signed in with a temporary password.');
    }
    assert.equal((await apiGet('profile', token)).status, 200);
    assert.equal((await apiGet('user/access', token)).status, 200);
    const paid = (await apiGet(`events/${h.id('paid-live')}`, token)).body.data;
    assert.equal(paid.has_access, false, 'no rights until the password is replaced');
    try {
      const changed = await apiPost(
        'profile',
        {
          _method: 'patch',
          password: 'temp-pass-2',
          password_confirmation: 'temp-pass-2',
          current_password: temp.password,
        },
        token,
      );
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal((await apiGet('orders', token)).status, 200, 'unlocked once the password is replaced');
      await apiPost(
        'profile',
        {
          _method: 'patch',
          password: temp.password,
          password_confirmation: temp.password,
          current_password: 'temp-pass-2',
        },
        token,
      );
    } finally {
      await h.server.db.run('UPDATE users SET temporary_password = 1 WHERE email = ?', [temp.email]);
    }
    assert.equal((await apiPost('auth/logout', {}, token)).status, 200);
  });

  test('password reset and account deletion links do not tell who has an account', async () => {
    const body = { token: 'a'.repeat(64), password: 'new-pass-99', password_confirmation: 'new-pass-99' };
    const known = await h.post('/api/auth/password-reset', { channel_key: 'demo', ...body, email: FAN.email });
    const unknown = await h.post('/api/auth/password-reset', {
      channel_key: 'demo',
      ...body,
      email: 'nobody-here@example.com',
    });
    assert.deepEqual([unknown.status, unknown.body], [known.status, known.body]);
    const keyless = (email: string) =>
      h.post('/api/delete-account-confirm', { channel_key: 'demo', email, token: 'a'.repeat(64) });
    const knownDelete = await keyless(FAN.email);
    const unknownDelete = await keyless('nobody-here@example.com');
    assert.deepEqual([unknownDelete.status, unknownDelete.body], [knownDelete.status, knownDelete.body]);
  });
});

describe('medium: flooding inboxes, guessing device codes', () => {
  /** The emails to an address, newest first (the dev outbox). */
  const mails = async (to: string): Promise<Array<{ subject: string; links: string[] }>> =>
    (await h.call(`/__dev/outbox?to=${encodeURIComponent(to)}`)).body.data;
  /** The reset emails to an address, newest first. */
  const resets = async (to: string) => (await mails(to)).filter((mail) => /^Reset your /.test(mail.subject));
  const tokenOf = (link: string) => new URL(link).searchParams.get('token');
  const newPassword = { password: 'taken-back-1', password_confirmation: 'taken-back-1' };

  test("100 reset requests for one email at once send 3 emails, all answered alike, and the owner's link still works", async () => {
    const { email } = await register('owner-pass-1');
    const ask = (address: string) =>
      postFrom('127.0.4.1', 'auth/password-reset-request', { email: address }).then((res) => ({
        status: res.status,
        body: JSON.parse(res.body) as unknown,
      }));
    const first = await ask(email);
    assert.equal(first.status, 200);
    const owners = tokenOf((await resets(email))[0]!.links[0]!);
    const flood = await Promise.all(Array.from({ length: 99 }, () => ask(email)));
    // Sent, held or unknown: one answer, so the form tells nobody who has an account or how often it was asked.
    for (const answer of [...flood, await ask('nobody-flooded@example.com')]) assert.deepEqual(answer, first);
    assert.equal((await resets(email)).length, 3, 'three links, not a hundred');
    const reset = await apiPost('auth/password-reset', { email, token: owners, ...newPassword });
    assert.equal(reset.status, 200, `the first link still resets: ${JSON.stringify(reset.body)}`);
    await signIn({ email, password: newPassword.password });
    assert.equal(
      (
        await apiPost('auth/password-reset', {
          email,
          token: tokenOf((await resets(email))[1]!.links[0]!),
          ...newPassword,
        })
      ).status,
      422,
      'using one link spent the others',
    );
  });

  test('one address gets at most 20 emails an hour, across any number of email addresses', async () => {
    const { email } = await register('owner-pass-1');
    const ask = (from: string, address: string) => postFrom(from, 'auth/password-reset-request', { email: address });
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await ask('127.0.4.2', `nobody-${i}@example.com`));
    const held = await ask('127.0.4.2', email);
    for (const answer of answers) assert.deepEqual([answer.status, answer.body], [held.status, held.body]);
    assert.equal((await resets(email)).length, 0, 'the 21st request from that address sent nothing');
    assert.equal((await ask('127.0.4.3', email)).status, 200);
    assert.equal((await resets(email)).length, 1, 'another address still can');
  });

  test('verification resends stop after 3 an hour, with a clear message; every link sent still verifies', async () => {
    const { email, token } = await register('owner-pass-1');
    for (let i = 0; i < 3; i++) assert.equal((await apiPost('auth/email-verify/resend', {}, token)).status, 200);
    const held = await apiPost('auth/email-verify/resend', {}, token);
    assert.equal(held.status, 422);
    assert.match(
      held.body.message,
      /^We sent a link to .+ a short while ago, and it still works: .+ ask again in \d+ minutes?\.$/,
    );
    const sent = await mails(email);
    assert.equal(sent.length, 4, 'the registration email and three resends');
    const first = Object.fromEntries(new URL(sent.at(-1)!.links[0]!).searchParams);
    assert.equal((await apiPost('auth/email-verify', first)).status, 200, 'the first link still verifies');
  });

  test('account deletion requests stop after 3 an hour; the first link still deletes the account', async () => {
    const { email, token } = await register('owner-pass-1');
    for (let i = 0; i < 3; i++) assert.equal((await apiPost('auth/delete-account', {}, token)).status, 200);
    const held = await apiPost('auth/delete-account', {}, token);
    assert.equal(held.status, 422);
    assert.match(held.body.message, /a short while ago, and it still works/);
    const sent = await mails(email);
    assert.equal(sent.length, 4, 'the verification email and three deletion links');
    const first = tokenOf(sent[2]!.links[0]!);
    const done = await h.post('/api/delete-account-confirm', { channel_key: 'demo', email, token: first });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal((await h.server.db.get('SELECT count(*) AS n FROM users WHERE email = ?', [email]))!.n, 0);
  });

  test('wrong device codes are held per account (10) and per address (30), with a 422 the client shows', async () => {
    const newCode = async () => String((await h.post('/api/auth/device-code', { api_key: h.key })).body.data.code);
    const link = (from: string, code: string, token: string) => postFrom(from, 'auth/add_session', { code }, token);
    const message = /^Too many wrong codes\. Please try again in 10 minutes\.$/;
    const guesser = await register('owner-pass-1');
    for (let i = 0; i < 10; i++) assert.equal((await link('127.0.4.4', 'ZZZZZ2', guesser.token)).status, 422);
    const code = await newCode();
    const heldAccount = await link('127.0.4.5', code, guesser.token);
    assert.equal(heldAccount.status, 422);
    assert.match(JSON.parse(heldAccount.body).errors.code[0], message);
    const pending = await h.call(`/api/auth/device-code/${code}?api_key=${h.key}`);
    assert.equal(pending.body.data.status, 'pending', 'a held account links nothing, even with the right code');

    const others = [await register('owner-pass-1'), await register('owner-pass-1'), await register('owner-pass-1')];
    for (const other of others)
      for (let i = 0; i < 10; i++) assert.equal((await link('127.0.4.6', 'ZZZZZ2', other.token)).status, 422);
    const fresh = await register('owner-pass-1');
    const heldAddress = await link('127.0.4.6', code, fresh.token);
    assert.equal(heldAddress.status, 422);
    assert.match(JSON.parse(heldAddress.body).errors.code[0], message);
    assert.equal((await link('127.0.4.7', code, fresh.token)).status, 200, 'from another address it links');
  });
});

describe('medium: exhausting memory and disk', () => {
  test('analytics bodies are capped in size', async () => {
    const big = {
      profile: 'demo-analytics-profile',
      session_uuid: 's'.repeat(32),
      event: 'visit_page',
      title: 'x'.repeat(100 * 1024),
    };
    assert.equal((await h.post('/datalake/event/', big)).status, 413);
    assert.equal((await h.post('/datalake/event/', { ...big, title: 'x' })).status, 200);
  });

  test('client log entries are capped in size, and in number per channel (logs.test.ts: quotas, no eviction)', async () => {
    const entry = {
      date: new Date().toISOString(),
      status: 500,
      service: 'api',
      channel: 'demo',
      message: 'boom',
      url: '/x',
      channel_key: 'demo',
    };
    assert.equal((await h.post('/api/logs', { ...entry, request_data: 'x'.repeat(1000 * 1024) })).status, 413);
    const db = h.server.db;
    const channelId = Number((await db.get("SELECT id FROM channels WHERE channel_key = 'demo'"))!.id);
    const held = Number((await db.get('SELECT count(*) AS n FROM logs WHERE channel_id = ?', [channelId]))!.n);
    await db.run(
      `INSERT INTO logs (channel_id, received_at, ip, entry_json)
       SELECT ?, ?, '127.0.0.1', '{}' FROM generate_series(1, ?::int)`,
      [channelId, Math.floor(h.nowMs / 1000), MAX_LOGS_PER_CHANNEL - held],
    );
    // Full: refused, and nothing stored or evicted.
    assert.equal((await h.post('/api/logs', { ...entry, request_data: null })).status, 429);
    assert.equal(
      Number((await db.get('SELECT count(*) AS n FROM logs WHERE channel_id = ?', [channelId]))!.n),
      MAX_LOGS_PER_CHANNEL,
    );
  });

  test('the data directory is private: 0700, its files 0600, whatever the umask the server started under', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'channel-umask-'));
    const umask = process.umask(0o000); // the loosest: every file would be world-writable
    let server: RunningServer | undefined;
    try {
      server = await startTestServer({ mode: 'dev', port: 0, dataDir: join(dir, 'data') });
      // Something written while it runs, too: a log entry, an api key.
      assert.equal(
        (
          await request(`${server.origin}/api/get_api_key`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ channel_key: 'demo' }),
          })
        ).status,
        200,
      );
      await server.stop();
      server = undefined;
      const loose: string[] = [];
      const walk = (path: string) => {
        const stat = fs.lstatSync(path);
        const mode = stat.mode & 0o777;
        if (stat.isDirectory()) {
          if (mode !== 0o700) loose.push(`${path} ${mode.toString(8)}`);
          for (const name of fs.readdirSync(path)) walk(join(path, name));
        } else if (mode !== 0o600) loose.push(`${path} ${mode.toString(8)}`);
      };
      walk(join(dir, 'data'));
      assert.deepEqual(loose, [], 'every folder 0700 and every file 0600');
    } finally {
      await server?.stop();
      process.umask(umask);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('one address cannot fill the api key table', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 102; i++)
      statuses.push((await postFrom('127.0.0.31', 'get_api_key', { channel_key: 'demo' })).status);
    assert.deepEqual(statuses.slice(0, 100), Array(100).fill(200));
    assert.deepEqual(statuses.slice(100), [429, 429]);
    // Another address still gets its key.
    assert.equal((await postFrom('127.0.0.32', 'get_api_key', { channel_key: 'demo' })).status, 200);
  });

  test('api keys nobody uses are forgotten; keys in use are kept', async () => {
    // Keys last used a month ago, issued before this process started (it caches the keys it issues: routes.ts).
    const [idle, used] = ['a'.repeat(48), 'b'.repeat(48)];
    const db = h.server.db;
    const now = Math.floor(h.nowMs / 1000);
    for (const key of [idle, used])
      await db.run(
        'INSERT INTO api_keys (api_key, channel_id, created_at, last_used_at) SELECT ?, id, ?::bigint, ?::bigint FROM channels WHERE channel_key = ?',
        [key, now - 40 * 86400, now - 31 * 86400, 'demo'],
      );
    // Using a key marks it used.
    assert.equal((await h.call(`/api/geo?api_key=${used}`)).status, 200);
    await prune(db, now);
    assert.equal((await h.call(`/api/geo?api_key=${idle}`)).status, 403, 'the idle key is gone');
    assert.equal((await h.call(`/api/geo?api_key=${used}`)).status, 200);
  });
});

describe('medium: password hashing', () => {
  test('40 failed sign-ins in flight do not hold up an unrelated request', async () => {
    const finished: string[] = [];
    const logins = Array.from({ length: 40 }, (_, i) =>
      postFrom('127.0.0.41', 'v2/auth/login', { email: `nobody-${i}@example.com`, password: 'wrong-password' }).then(
        (res) => {
          assert.equal(res.status, 422);
          finished.push('login');
        },
      ),
    );
    const geo = raw(h.server.port, `/api/geo?api_key=${h.key}`, {
      headers: { Host: `localhost:${h.server.port}` },
      from: '127.0.0.42',
    }).then((res) => {
      assert.equal(res.status, 200);
      finished.push('geo');
    });
    await Promise.all([...logins, geo]);
    const before = finished.indexOf('geo');
    ok(before < 20, `geo answered after ${before} of the 40 sign-ins: hashing held up the event loop`);
  });
});

describe('medium: password hashing, in bursts', () => {
  test('guesses sent all at once are throttled like guesses sent one by one', async () => {
    const { email } = await register('right-pass-1');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postFrom('127.0.2.1', 'v2/auth/login', { email, password: `guess-${i}` }).then((res) => JSON.parse(res.body)),
      ),
    );
    const checked = answers.filter((body) => body.message === 'Invalid email or password. Please try again.').length;
    ok(checked <= 5, `${checked} of 30 simultaneous guesses were checked; the limit is 5 a minute per address`);
  });

  test('a flood of failed sign-ins does not hold up the files the pages load', async () => {
    const finished: string[] = [];
    const logins = Array.from({ length: 100 }, (_, i) =>
      postFrom(`127.0.4.${1 + (i % 50)}`, 'v2/auth/login', {
        email: `flood-${i}@example.com`,
        password: 'wrong-password',
      }).then(() => {
        finished.push('login');
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const page = raw(h.server.port, '/demo.css', {
      headers: { Host: `localhost:${h.server.port}` },
      from: '127.0.4.99',
    }).then((res) => {
      assert.equal(res.status, 200);
      finished.push('css');
    });
    await Promise.all([...logins, page]);
    const before = finished.indexOf('css');
    ok(before < 50, `the stylesheet came after ${before} of the 100 sign-ins: hashing filled the thread pool`);
  });
});

describe('low', () => {
  test("guessing one account's password from many addresses locks the account, with a clear message", async () => {
    const { email } = await register('right-pass-1');
    for (let address = 0; address < 5; address++) {
      for (let i = 0; i < 4; i++) {
        const res = await postFrom(`127.0.1.${address + 1}`, 'v2/auth/login', {
          email,
          password: `guess-${address}-${i}`,
        });
        assert.equal(JSON.parse(res.body).message, 'Invalid email or password. Please try again.');
      }
    }
    const locked = await postFrom('127.0.1.9', 'v2/auth/login', { email, password: 'right-pass-1' });
    assert.equal(locked.status, 422);
    assert.equal(
      JSON.parse(locked.body).errors.email[0],
      'This account is locked after too many failed sign-ins. Please try again in 15 minutes.',
    );
  });

  test('a leaked stream URL plays for nobody else', async () => {
    const event = await h.event('free-live', 'viewer');
    const url = new URL(Harness.mediaUrl(event, 'live')!);
    const host = { Host: `localhost:${h.server.port}` };
    assert.equal(
      (await raw(h.server.port, url.pathname, { headers: host, from: '127.0.0.1' })).status,
      200,
      'the viewer plays it',
    );
    const leaked = await raw(h.server.port, url.pathname, { headers: host, from: '127.0.0.2' });
    assert.equal(leaked.status, 403, 'anyone else is refused');
    const segment = url.pathname.replace('master.m3u8', '360p/0.ts');
    assert.equal((await raw(h.server.port, segment, { headers: host, from: '127.0.0.2' })).status, 403);
  });

  test('a malformed percent escape in a path answers 400, not 500', async () => {
    for (const path of [
      `/api/events/%E0%A4%A?api_key=${h.key}`,
      '/keys/%E0%A4%A.json',
      '/storage/settings/%zz.json',
      `/api/pages/%C0?channel_key=demo`,
    ]) {
      const res: Answer = await h.call(path);
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
    }
    // Request targets no URL parser accepts.
    for (const target of ['//[/x', 'http://[::1/x', 'http://a:b:c/x']) {
      const res = await raw(h.server.port, target, { headers: { Host: `localhost:${h.server.port}` } });
      assert.equal(res.status, 400, target);
    }
  });

  test('a NUL byte or an id beyond the safe integers answers 422 naming the field, and stores nothing', async () => {
    const big = '99999999999999999999';
    const email = `nul-${Date.now()}@example.com`;
    const cases: Array<[what: string, answer: Promise<Answer>, field: string]> = [
      ['events?sport=%00', h.call(`/api/events?api_key=${h.key}&sport=%00`), 'sport'],
      ['custom-forms/%00', h.call(`/api/custom-forms/%00?api_key=${h.key}`), 'path'],
      ['apply_coupon?code=%00', h.call(`/api/apply_coupon?api_key=${h.key}&code=%00`), 'code'],
      [
        'a name with \\u0000',
        apiPost('v2/auth/register', {
          first_name: 'Nia\u0000',
          last_name: 'Null',
          email,
          password: 'nul-pass-1',
          password_confirmation: 'nul-pass-1',
          terms: true,
        }),
        'first_name',
      ],
      [
        'a nested value with \\u0000',
        apiPost('custom-forms/contact', { values: { name: 'A\u0000b', email: 'a@b.co', message: 'Hello there.' } }),
        'values.name',
      ],
      [
        'a form body with %00',
        h.call('/api/v2/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `api_key=${h.key}&email=a%00b%40example.com&password=x`,
        }),
        'email',
      ],
      ['events/{id} too large', h.call(`/api/events/${big}?api_key=${h.key}`), 'id'],
      ['packages/{id} too large', h.call(`/api/packages/${big}?channel_key=demo`), 'id'],
      [
        'events?participant_id too large',
        h.call(`/api/events?api_key=${h.key}&participant_id=${big}`),
        'participant_id',
      ],
      [
        'a body id too large',
        apiPost('favorite', { favoritable_id: 1e20, favoritable_type: 'participant' }),
        'favoritable_id',
      ],
    ];
    for (const [what, answer, field] of cases) {
      const res = await answer;
      assert.equal(res.status, 422, `${what}: ${JSON.stringify(res.body)}`);
      ok(res.body.errors?.[field]?.[0] === res.body.message, `${what} names ${field}: ${JSON.stringify(res.body)}`);
      assert.match(
        res.body.message,
        /may not contain a NUL character|is too large: ids and whole numbers go up to 9007199254740991/,
      );
    }
    assert.equal((await h.server.db.get('SELECT count(*) AS n FROM users WHERE email = ?', [email]))!.n, 0);
  });

  test('a statement that fails is logged by its code and message, never with the email and password hash it bound', async () => {
    const email = `logged-${Date.now()}@example.com`;
    // A constraint the registration's INSERT breaks: the database refuses the row it was given.
    await h.server.db.run("ALTER TABLE users ADD CONSTRAINT refuse_logged CHECK (email NOT LIKE 'logged-%') NOT VALID");
    const { lines: logged, restore } = captureLog();
    let status = 0;
    try {
      const res = await apiPost('v2/auth/register', {
        first_name: 'Lo',
        last_name: 'Gged',
        email,
        password: 'logged-pass-1',
        password_confirmation: 'logged-pass-1',
        terms: true,
      });
      status = res.status;
    } finally {
      restore();
      await h.server.db.run('ALTER TABLE users DROP CONSTRAINT refuse_logged');
    }
    assert.equal(status, 500);
    const text = logged.join('\n');
    ok(text.includes('23514') && text.includes('refuse_logged'), `the code and message are logged: ${text}`);
    ok(!text.includes(email) && !text.includes('scrypt$'), `no bound value is logged: ${text}`);
    const line = logged
      .map((l) => JSON.parse(l) as { level: number; reqId?: string; err?: { stack?: string } })
      .find((l) => l.level === 50);
    ok(line?.reqId && line.err?.stack, `the error is logged with its request id and stack: ${text}`);
  });

  test('answers that carry a token or a secret are never kept by a cache (no-store)', async () => {
    const noStore = (res: Answer, what: string) => assert.equal(res.headers.get('cache-control'), 'no-store', what);
    noStore(await h.post('/api/get_api_key', { channel_key: 'demo' }), 'get_api_key');
    noStore(await apiPost('v2/auth/login', FAN), 'login');
    const email = `store-${Date.now()}@example.com`;
    const password = { password: 'store-pass-1', password_confirmation: 'store-pass-1' };
    noStore(
      await apiPost('v2/auth/register', { first_name: 'N', last_name: 'S', email, terms: true, ...password }),
      'register',
    );
    noStore(
      await apiPost('v2/auth/social/google', { ...(await socialCode(email)), redirect_uri: googleCallback() }),
      'social',
    );
    const tvKey = await h.apiKey('demo');
    const device = await h.post('/api/auth/device-code', { api_key: tvKey });
    noStore(device, 'device-code');
    const code = String(device.body.data.code);
    assert.equal((await apiPost('auth/add_session', { code }, await signIn(FAN))).status, 200);
    const linked = await h.call(`/api/auth/device-code/${code}?api_key=${tvKey}`);
    ok(linked.body.data.token, 'the TV gets its token');
    noStore(linked, 'device-code status');
    noStore(await h.call('/__dev/outbox'), 'the outbox (its links carry tokens)');
  });

  test('settings that break the contract every client parses them with are refused', async () => {
    const res = await h.call('/__dev/settings?channel_key=demo', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ language: 5 }),
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal((await h.keyless('settings')).status, 200, 'settings still answer');
  });

  test('dev mode refuses to listen beyond loopback unless told twice', async () => {
    await assert.rejects(
      startTestServer({ mode: 'dev', host: '0.0.0.0', port: 0, dataDir: join(prodTmp, 'data-net') }),
      /CHANNEL_DEV_ON_NETWORK/,
    );
  });
});
