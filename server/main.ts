/**
 * Runs the reference channel server: `node --import tsx server/main.ts`. Configuration comes from the
 * environment (docs/server.md, "Running the reference server safely"):
 *
 *   CHANNEL_DEV=1       dev mode (or the --dev flag, which `npm start` passes): the demo pages, the CMS host, the
 *                       outbox, the social and payment stand-ins and the /__dev/ test endpoints. Without it:
 *                       production mode, none of them. Dev mode listens on loopback only unless
 *                       CHANNEL_DEV_ON_NETWORK=1 too, and runs only on a database it seeded itself (the demo's,
 *                       emptied and seeded again when the fixtures change) unless CHANNEL_DEV_KEEP_DATA=1, which
 *                       runs it on any database as it is, dropping and seeding nothing.
 *   HOST                the interface to listen on (default 127.0.0.1: loopback only)
 *   PORT, HOST_PORT     the API port (default 8080) and the CMS host's (dev mode; default PORT+1)
 *   PUBLIC_URL          the origin clients use (emailed links, redirects, media URLs); default http://localhost:PORT
 *   ALLOWED_HOSTS       more Host values to answer, comma-separated `name:port`
 *   SCRIPT_ORIGINS      more https origins a script URL in settings may name, comma-separated
 *   DATA_DIR            the server's own files (0700): the embedded database (pgdata/), stored settings, clips, the
 *                       dev secret; default <repo>/.data. One process's: a start refuses one another process holds
 *                       (DATA_DIR/server.lock)
 *   DATABASE_URL        a PostgreSQL server (postgres://user:password@host:port/db) instead of the embedded one:
 *                       any number of processes may share it
 *   DATABASE_POOL_SIZE  connections per process to that server (default 10)
 *   CLIPS_DIR           where clips' files go (default DATA_DIR/clips): shared by every process of one server
 *   DATABASE_TEMPLATES  tests only: a folder of ready-made embedded databases a new DATA_DIR starts from
 *   RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS   requests per client address per window (default 600 per 10 s)
 *   API_KEY_RATE_MAX    new api keys per client address per 10 minutes (default 100)
 *   REGISTRATION_RATE_MAX  new accounts per client address per 10 minutes (default 50)
 *   EMAIL_RATE_MAX      emailed links (password reset, verification, account deletion) per client address per hour
 *                       (default 20; each email address gets at most 3 of each kind an hour whatever this says)
 *   ANALYTICS_RATE_MAX  analytics service (datalake) calls per client address per minute (default 600)
 *   LOG_RATE_MAX        client log entries (POST /api/logs) per client address per hour (default 60)
 *   LOG_MAX_PER_CHANNEL client log entries a channel keeps (default 2000); a full channel refuses new ones
 *   TRUST_PROXY         how many proxies of your own stand in front (default 0): the client address is then read from
 *                       X-Forwarded-For, as the outermost of them saw it
 *   PAYMENT_SETTLE_MS   how long a test purchase stays pending before it settles (dev mode; default 3000)
 *   CLIP_CONCURRENCY    clip jobs (ffmpeg cuts) at once, 1 or 2 (default 2)
 *   CLIP_LEASE_MS       how long a clip job is held without news from its process before another takes it over
 *                       (default 30000; tests shorten it)
 */
import { join } from 'node:path';
import { StartRefused } from './storage/data-dir.js';
import { startServer } from './app/server.js';

/** Reads a numeric environment variable, refusing garbage instead of silently listening somewhere odd. */
function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return n;
}

/** A comma-separated list from the environment. */
const envList = (name: string) =>
  (process.env[name] ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

const dev = process.argv.includes('--dev') || process.env.CHANNEL_DEV === '1' || process.env.CHANNEL_DEV === 'true';
const server = await startServer({
  mode: dev ? 'dev' : 'production',
  host: process.env.HOST || undefined,
  publicUrl: process.env.PUBLIC_URL || undefined,
  allowedHosts: envList('ALLOWED_HOSTS'),
  scriptOrigins: envList('SCRIPT_ORIGINS'),
  port: envNumber('PORT') ?? 8080,
  hostPort: envNumber('HOST_PORT'),
  dataDir: process.env.DATA_DIR || undefined,
  databaseUrl: process.env.DATABASE_URL || undefined,
  databasePoolSize: envNumber('DATABASE_POOL_SIZE'),
  clipsDir: process.env.CLIPS_DIR || undefined,
  databaseTemplates: process.env.DATABASE_TEMPLATES || undefined,
  rateLimitMax: envNumber('RATE_LIMIT_MAX'),
  rateLimitWindowMs: envNumber('RATE_LIMIT_WINDOW_MS'),
  apiKeyRateMax: envNumber('API_KEY_RATE_MAX'),
  registrationRateMax: envNumber('REGISTRATION_RATE_MAX'),
  emailRateMax: envNumber('EMAIL_RATE_MAX'),
  analyticsRateMax: envNumber('ANALYTICS_RATE_MAX'),
  logRateMax: envNumber('LOG_RATE_MAX'),
  logsPerChannel: envNumber('LOG_MAX_PER_CHANNEL'),
  trustProxy: envNumber('TRUST_PROXY'),
  devOnNetwork: process.env.CHANNEL_DEV_ON_NETWORK === '1',
  devKeepData: process.env.CHANNEL_DEV_KEEP_DATA === '1',
  paymentSettleMs: envNumber('PAYMENT_SETTLE_MS'),
  clipConcurrency: envNumber('CLIP_CONCURRENCY'),
  clipLeaseMs: envNumber('CLIP_LEASE_MS'),
}).catch((error: NodeJS.ErrnoException) => {
  // The common failure is a port already taken (often by an earlier demo server): say which, without a stack.
  if (error.code === 'EADDRINUSE') {
    console.error(`Port in use: ${error.message}. Set PORT (and HOST_PORT, default PORT+1) to free ports.`);
    process.exit(1);
  }
  // A refusal the operator can act on (DATA_DIR held, dev mode on a database not the demo's): its line, no stack.
  if (error instanceof StartRefused) {
    console.error(`[channel-server] ${error.message}`);
    process.exit(1);
  }
  throw error;
});

if (server.mode === 'dev') {
  const rule = '='.repeat(100);
  console.warn(rule);
  console.warn(
    'DEV MODE (CHANNEL_DEV=1): the demo pages, the outbox, the social sign-in and Stripe stand-ins and the /__dev/',
  );
  console.warn(
    'test endpoints are on. Anyone who reaches them can sign in as anyone: never expose this mode to a network.',
  );
  console.warn(rule);
  console.log(`Channel elements demo: ${server.origin}/`);
  console.log(`CMS host (cross-origin embedding): ${server.hostOrigin}/`);
  console.log(
    'Demo accounts: viewer@example.com / viewer-pass-1, fan@example.com / fan-pass-1, temp@example.com / temp-pass-1',
  );
  console.log('  and viewer@, buyer@, subscriber@, passholder@demo-sports.example (password demo-password)');
  // The fragment never reaches a server or a Referer; the outbox page keeps it for this tab only (sessionStorage).
  console.log(`Outbox (emails the demo sent): ${server.origin}/outbox.html#dev-secret=${server.devSecret}`);
  console.log(`Analytics (the channel's numbers): ${server.origin}/analytics.html#dev-secret=${server.devSecret}`);
  console.log(`TV device linking: ${server.origin}/tv.html`);
  console.log(
    `Dev secret of this start (header X-Channel-Dev-Secret for /__dev/): in ${join(server.dataDir, 'dev-secret')}`,
  );
  console.log(
    'Test cards (any future expiry, any CVC): 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds',
  );
} else {
  console.log(`Channel API (production mode): ${server.origin}/api/`);
  console.log('The demo pages and test stand-ins are off; CHANNEL_DEV=1 turns them on for local development.');
}

// Stop cleanly on Ctrl-C / docker stop: running clip cuts are handed back to the queue, the database is closed.
// Nothing depends on it: every answered request's writes are committed already.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void server.stop().then(() => process.exit(0));
  });
}
