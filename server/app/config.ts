/**
 * The server's configuration: every environment variable it reads, with its type, default and meaning, parsed once
 * at start by one zod schema (`readConfig`, from main.ts). A bad value stops the start with one line naming the
 * variable (`ConfigError`; main.ts prints it and exits 1) instead of being read as a default or failing later with
 * a stack trace. docs/server.md's table lists the same variables in the same order with the same defaults (a test
 * holds them together: app/config.test.ts).
 */
import { resolve } from 'node:path';
import * as z from 'zod';
import { isLoopback } from './exposure.js';
import type { ServerOptions } from './server.js';
import { FACEBOOK_AUTHORIZE_URL, FACEBOOK_GRAPH_URL } from '../identity/facebook.js';
import { GOOGLE_ISSUER } from '../identity/google.js';

/** A start refused by its configuration: the variable and what is wrong with its value. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

/** An unset variable and an empty one mean the same: the default. */
const unset = (raw: string | undefined) => raw === undefined || raw.trim() === '';

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['1', 'true', '0', 'false'].includes(v), 'must be 1 (or true) to turn it on, 0 (or false) or unset')
  .transform((v) => v === '1' || v === 'true');

const text = z.string().trim().min(1);

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** An http(s) origin, perhaps with a base path (where the server is reached). */
const httpUrl = z
  .string()
  .trim()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http:// or https:// URL');

/**
 * postgres://user:password@host:port/database (or a socket's `postgres:///database?host=/run/postgresql`). The value
 * is never repeated in the message: it holds a password.
 */
const databaseUrl = z
  .string()
  .trim()
  .refine(
    (v) => URL.canParse(v) && /^postgres(ql)?:$/.test(new URL(v).protocol),
    'must be a postgres://user:password@host:port/database URL',
  );

/**
 * A Stripe key or secret of a kind (`sk_`, `whsec_`), or a restricted key (`rk_`) for a secret key. The value is never
 * repeated in the message: it is a secret.
 */
const stripeSecret = (prefixes: readonly string[], shape: string) =>
  z
    .string()
    .trim()
    .refine((v) => prefixes.some((prefix) => v.startsWith(prefix)) && /^[\w]+$/.test(v), `must be ${shape}`);

/** Where the Stripe SDK sends its calls instead of api.stripe.com: an http(s) origin, nothing after it. */
const apiOrigin = httpUrl.refine((v) => {
  const url = new URL(v);
  return (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash && !url.username;
}, 'must be an origin (http://127.0.0.1:PORT), with no path');

/**
 * smtp://user:password@host:port (STARTTLS when offered) or smtps://... (TLS from the start). The value is never
 * repeated in the message: it holds a password.
 */
const smtpUrl = z
  .string()
  .trim()
  .refine(
    (v) => URL.canParse(v) && /^smtps?:$/.test(new URL(v).protocol) && new URL(v).hostname !== '',
    'must be an smtp://user:password@host:port or smtps://user:password@host:port URL',
  );

/** A bare email address (the sender's; the channel's name is its display name). */
const address = z
  .string()
  .trim()
  .regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, 'must be an email address, such as no-reply@tv.example.com');

/**
 * An https URL on one of a provider's own origins, or (tests) any http(s) URL on loopback: a secret is never sent
 * anywhere else.
 */
const providerUrl = (origins: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        if (!URL.canParse(v)) return false;
        const url = new URL(v);
        const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
        return origins.includes(url.origin) || (loopback && /^https?:$/.test(url.protocol));
      },
      `must be an https URL on ${origins.join(' or ')}, or on loopback (tests)`,
    );

/** One variable: how its text is read, its default as the docs show it, and what it means. */
interface Variable<T> {
  schema: z.ZodType<T, string>;
  /** The default, as docs/server.md's table writes it. */
  shown: string;
  meaning: string;
}

const variable = <T>(schema: z.ZodType<T, string>, shown: string, meaning: string): Variable<T> => ({
  schema,
  shown,
  meaning,
});

/** Every variable, in docs/server.md's order. */
export const VARIABLES = {
  CHANNEL_DEV: variable(flag, 'off', 'dev mode (also the --dev flag): the demo and the test stand-ins'),
  HOST: variable(text, '`127.0.0.1`', 'the interface to listen on'),
  TRUST_PROXY: variable(integer(0, 100), '0', 'how many proxies of your own stand in front'),
  PUBLIC_URL: variable(httpUrl, '`http://localhost:PORT`', 'the origin clients reach the server at'),
  ALLOWED_HOSTS: variable(list, 'none', 'more Host values to answer (comma-separated name:port)'),
  SCRIPT_ORIGINS: variable(list, 'none', 'more https origins a script URL in settings may name'),
  PORT: variable(integer(0, 65535), '8080', 'the API port'),
  HOST_PORT: variable(integer(0, 65535), 'PORT + 1', "dev mode: the CMS host's port"),
  DATA_DIR: variable(text, '`.data`', "the server's own files"),
  DATABASE_URL: variable(databaseUrl, 'none', 'a PostgreSQL server instead of the embedded one'),
  DATABASE_POOL_SIZE: variable(integer(1, 1000), '10', 'connections each process keeps to that server'),
  CLIPS_DIR: variable(text, '`DATA_DIR/clips`', "where clips' files go"),
  RATE_LIMIT_MAX: variable(integer(1), '600', 'requests per window per client address'),
  RATE_LIMIT_WINDOW_MS: variable(integer(1), '10000', 'that window, in ms'),
  API_KEY_RATE_MAX: variable(integer(1), '100', 'new api keys per client address per 10 minutes'),
  REGISTRATION_RATE_MAX: variable(integer(1), '50', 'new accounts per client address per 10 minutes'),
  EMAIL_RATE_MAX: variable(integer(1), '20', 'emailed links per client address per hour'),
  ANALYTICS_RATE_MAX: variable(integer(1), '600', 'analytics service calls per client address per minute'),
  LOG_RATE_MAX: variable(integer(1), '60', 'client log entries per client address per clock hour'),
  LOG_MAX_PER_CHANNEL: variable(integer(1), '2000', 'client log entries a channel keeps'),
  STRIPE_SECRET_KEY: variable(
    stripeSecret(['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], 'a Stripe secret key (sk_live_… or sk_test_…)'),
    'none',
    'the Stripe secret key of the channels without their own: card payments through Stripe',
  ),
  STRIPE_WEBHOOK_SECRET: variable(
    stripeSecret(['whsec_'], "a webhook endpoint's signing secret (whsec_…)"),
    'none',
    'the signing secret of the webhook endpoints of the channels without their own',
  ),
  STRIPE_API_URL: variable(
    apiOrigin,
    'none',
    "tests only: a Stripe double's origin, on loopback, for test keys (the server's and the channels' own)",
  ),
  CLIP_CONCURRENCY: variable(integer(1, 2), '2', 'clip jobs (ffmpeg cuts) at once'),
  CLIP_LEASE_MS: variable(integer(1000), '30000', 'how long a clip job is held without news from its process'),
  SMTP_URL: variable(smtpUrl, 'none', 'the mail service emails are sent through'),
  MAIL_FROM: variable(address, 'none', "the sender's address of every email (needed with SMTP_URL)"),
  MAIL_LEASE_MS: variable(integer(1000), '60000', 'how long an email being sent is held without news from its process'),
  GOOGLE_CLIENT_SECRET: variable(
    text,
    'none',
    'the client secret of the Google sign-in (OAuth) client of the channels without their own',
  ),
  GOOGLE_ISSUER_URL: variable(
    providerUrl(['https://accounts.google.com']),
    '`https://accounts.google.com`',
    "Google's OpenID issuer",
  ),
  FACEBOOK_APP_SECRET: variable(
    text,
    'none',
    'the app secret of the Facebook Login app of the channels without their own',
  ),
  FACEBOOK_GRAPH_URL: variable(
    providerUrl(['https://graph.facebook.com']),
    '`https://graph.facebook.com/v21.0`',
    "Facebook's Graph API, with its version",
  ),
  FACEBOOK_AUTHORIZE_URL: variable(
    providerUrl(['https://www.facebook.com']),
    '`https://www.facebook.com/v21.0/dialog/oauth`',
    "Facebook's login dialog",
  ),
  METRICS_PORT: variable(integer(0, 65535), '9464', 'the operations listener: /healthz, /readyz, /metrics'),
  METRICS_HOST: variable(text, '`127.0.0.1`', "the operations listener's interface"),
  OPERATOR_PORT: variable(integer(0, 65535), 'none', 'the operator API listener (/operator/v1/…); none when unset'),
  OPERATOR_HOST: variable(text, '`127.0.0.1`', "the operator API listener's interface"),
  INGEST_RTMP_URL: variable(
    z
      .string()
      .trim()
      .refine(
        (v) =>
          URL.canParse(v) &&
          new URL(v).protocol === 'rtmp:' &&
          new URL(v).hostname !== '' &&
          new URL(v).pathname === '/live' &&
          !new URL(v).search &&
          !new URL(v).username,
        "must be an rtmp://host[:port]/live URL (nginx-rtmp.conf's application), such as rtmp://ingest.example.com/live",
      ),
    'none',
    "live ingest: what encoders publish to (nginx's RTMP listener and application); none turns ingest off",
  ),
  INGEST_HLS_DIR: variable(text, 'none', 'live ingest: the folder nginx writes HLS into (its hls_path)'),
  INGEST_GRACE_SECONDS: variable(
    // At least 5 s: nginx closes the last segment just after it says the push ended.
    integer(5, 3600),
    '60',
    'live ingest: how long a push that dropped may come back and continue the same live stream',
  ),
  DRAIN_SECONDS: variable(
    integer(0, 3600),
    '20',
    'how long requests in flight may take to finish once SIGTERM arrives',
  ),
  LOG_LEVEL: variable(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info (dev mode: warn)',
    'the least severe log lines written',
  ),
  CHANNEL_DEV_ON_NETWORK: variable(flag, 'off', 'dev mode may listen beyond loopback'),
  CHANNEL_DEV_KEEP_DATA: variable(flag, 'off', 'dev mode runs on a database it did not seed, as it is'),
  SLOW_QUERY_MS: variable(integer(0), 'none', 'statements slower than this many ms are logged'),
  DATABASE_TEMPLATES: variable(text, 'none', 'tests only: ready-made embedded databases a new DATA_DIR starts from'),
} satisfies Record<string, Variable<unknown>>;

type Values = { [name in keyof typeof VARIABLES]: z.output<(typeof VARIABLES)[name]['schema']> | undefined };

/** The variables as read: each one's value, undefined when unset (its default then applies). */
export function readVariables(env: NodeJS.ProcessEnv): Values {
  const values: Record<string, unknown> = {};
  for (const [name, { schema }] of Object.entries(VARIABLES) as Array<[string, Variable<unknown>]>) {
    const raw = env[name];
    if (unset(raw)) continue;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new ConfigError(name, parsed.error.issues[0]?.message ?? 'is not valid');
    values[name] = parsed.data;
  }
  return values as Values;
}

/** What a start is given: the server's options, and how the process around it runs. */
export interface Config {
  server: ServerOptions;
  /** How long a stop lets requests in flight finish (DRAIN_SECONDS), in ms. */
  drainMs: number;
  /** The log level (LOG_LEVEL). */
  logLevel: string;
}

/** The configuration from the environment and the command line (`--dev`). */
export function readConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): Config {
  const v = readVariables(env);
  const unknown = argv.filter((arg) => arg.startsWith('-') && arg !== '--dev');
  if (unknown.length > 0) throw new ConfigError('arguments', `unknown ${unknown.join(' ')} (the only one is --dev)`);
  const dev = argv.includes('--dev') || v.CHANNEL_DEV === true;
  if (v.SMTP_URL && !v.MAIL_FROM)
    throw new ConfigError('MAIL_FROM', 'is needed with SMTP_URL (the sender of every email)');
  return {
    drainMs: (v.DRAIN_SECONDS ?? 20) * 1000,
    logLevel: v.LOG_LEVEL ?? (dev ? 'warn' : 'info'),
    server: serverOptions(v, dev),
  };
}

/**
 * The Stripe account the channels without their own charge through, or none. The key and the webhook secret go
 * together (a payment is settled only by a signed webhook or a read-back); another API origin is for a test double
 * only: a test key, on a loopback address, so no live key is ever sent anywhere but to Stripe. STRIPE_API_URL alone
 * (no server account) sends the channels' own test keys there (services.ts sends a live one nowhere).
 */
function stripeOptions(v: Values): ServerOptions['stripe'] {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: apiUrl } = v;
  if (secretKey && !webhookSecret)
    throw new ConfigError(
      'STRIPE_WEBHOOK_SECRET',
      'must be set with STRIPE_SECRET_KEY: verified webhooks decide access',
    );
  if (webhookSecret && !secretKey) throw new ConfigError('STRIPE_SECRET_KEY', 'must be set with STRIPE_WEBHOOK_SECRET');
  if (apiUrl !== undefined) {
    if (secretKey && !/^(sk|rk)_test_/.test(secretKey))
      throw new ConfigError(
        'STRIPE_API_URL',
        'is for a test double only: STRIPE_SECRET_KEY must be a test key (sk_test_…)',
      );
    if (!isLoopback(new URL(apiUrl).hostname))
      throw new ConfigError(
        'STRIPE_API_URL',
        'is for a test double only: it must be a loopback address (127.0.0.1, [::1], localhost)',
      );
  }
  return secretKey && webhookSecret ? { secretKey, webhookSecret, apiUrl } : undefined;
}

function serverOptions(v: Values, dev: boolean): ServerOptions {
  return {
    stripe: stripeOptions(v),
    stripeApiUrl: v.STRIPE_API_URL,
    mode: dev ? 'dev' : 'production',
    host: v.HOST,
    publicUrl: v.PUBLIC_URL,
    allowedHosts: v.ALLOWED_HOSTS ?? [],
    scriptOrigins: v.SCRIPT_ORIGINS ?? [],
    port: v.PORT ?? 8080,
    hostPort: v.HOST_PORT,
    dataDir: v.DATA_DIR,
    databaseUrl: v.DATABASE_URL,
    databasePoolSize: v.DATABASE_POOL_SIZE,
    clipsDir: v.CLIPS_DIR,
    databaseTemplates: v.DATABASE_TEMPLATES,
    rateLimitMax: v.RATE_LIMIT_MAX,
    rateLimitWindowMs: v.RATE_LIMIT_WINDOW_MS,
    apiKeyRateMax: v.API_KEY_RATE_MAX,
    registrationRateMax: v.REGISTRATION_RATE_MAX,
    emailRateMax: v.EMAIL_RATE_MAX,
    analyticsRateMax: v.ANALYTICS_RATE_MAX,
    logRateMax: v.LOG_RATE_MAX,
    logsPerChannel: v.LOG_MAX_PER_CHANNEL,
    trustProxy: v.TRUST_PROXY,
    devOnNetwork: v.CHANNEL_DEV_ON_NETWORK === true,
    devKeepData: v.CHANNEL_DEV_KEEP_DATA === true,
    clipConcurrency: v.CLIP_CONCURRENCY,
    clipLeaseMs: v.CLIP_LEASE_MS,
    slowQueryMs: v.SLOW_QUERY_MS,
    smtpUrl: v.SMTP_URL,
    mailFrom: v.MAIL_FROM,
    mailLeaseMs: v.MAIL_LEASE_MS,
    // The issuer and URLs always (a channel may have a secret of its own), the server's secret when it is set.
    google: { clientSecret: v.GOOGLE_CLIENT_SECRET, issuer: v.GOOGLE_ISSUER_URL ?? GOOGLE_ISSUER },
    facebook: {
      appSecret: v.FACEBOOK_APP_SECRET,
      graphUrl: v.FACEBOOK_GRAPH_URL ?? FACEBOOK_GRAPH_URL,
      authorizeUrl: v.FACEBOOK_AUTHORIZE_URL ?? FACEBOOK_AUTHORIZE_URL,
    },
    metricsPort: v.METRICS_PORT ?? 9464,
    metricsHost: v.METRICS_HOST,
    operatorPort: v.OPERATOR_PORT,
    operatorHost: v.OPERATOR_HOST,
    ingest: ingestOptions(v),
  };
}

/**
 * Live ingest, or none: INGEST_RTMP_URL and INGEST_HLS_DIR go together, and nginx's hooks reach the operator
 * listener, so OPERATOR_PORT must be set too.
 */
function ingestOptions(v: Values): ServerOptions['ingest'] {
  const { INGEST_RTMP_URL: rtmpUrl, INGEST_HLS_DIR: hlsDir } = v;
  if (rtmpUrl && !hlsDir)
    throw new ConfigError('INGEST_HLS_DIR', "must be set with INGEST_RTMP_URL: it is where nginx's HLS is read");
  if (hlsDir && !rtmpUrl) throw new ConfigError('INGEST_RTMP_URL', 'must be set with INGEST_HLS_DIR');
  if (!rtmpUrl || !hlsDir) return undefined;
  if (v.OPERATOR_PORT === undefined)
    throw new ConfigError(
      'OPERATOR_PORT',
      "must be set with INGEST_RTMP_URL: nginx's hooks reach the operator listener",
    );
  return { rtmpUrl, hlsDir: resolve(hlsDir), graceSeconds: v.INGEST_GRACE_SECONDS };
}
