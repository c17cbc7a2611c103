/**
 * Runs the reference channel server: `node --import tsx server/main.ts [--dev]`. Its configuration is the
 * environment, read once here by app/config.ts (every variable with its type, default and meaning; docs/server.md,
 * "Settings", lists them): a bad value stops the start with one line naming the variable, and exit code 1.
 */
import { join } from 'node:path';
import { StartRefused } from './storage/data-dir.js';
import { ConfigError, readConfig } from './app/config.js';
import { startServer } from './app/server.js';
import { createLogger, useLogger } from './observability/log.js';
import type { ServerOptions } from './app/server.js';
import type { RunningNginx } from '../scripts/nginx.mjs';

/**
 * Dev mode runs live ingest on this machine (docs/streams.md, "Ingest") when nginx with its RTMP module is installed
 * and INGEST_RTMP_URL is not set: a throw-away nginx (scripts/nginx.mjs) on loopback, its hooks on the operator
 * listener (on OPERATOR_PORT, else a free port). Without nginx it says how to get it and runs without ingest.
 */
async function devIngest(options: ServerOptions): Promise<RunningNginx | undefined> {
  if (options.mode !== 'dev' || options.ingest) return undefined;
  const { freePort, INSTALL_HINT, nginxAvailable, startNginx } = await import('../scripts/nginx.mjs');
  if (!nginxAvailable()) {
    console.log(`Live ingest is off: ${INSTALL_HINT}`);
    return undefined;
  }
  options.operatorPort = options.operatorPort || (await freePort());
  const nginx = await startNginx({ hookOrigin: `http://127.0.0.1:${options.operatorPort}` });
  options.ingest = { rtmpUrl: nginx.rtmpUrl, hlsDir: nginx.hlsDir };
  return nginx;
}

let config;
try {
  config = readConfig(process.env, process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`[channel-server] ${error.message}`);
  process.exit(1);
}
useLogger(createLogger({ level: config.logLevel }));
// A dev nginx that cannot start (a port, a broken install) leaves ingest off, not the demo.
const nginx = await devIngest(config.server).catch((error: unknown) => {
  console.log(`Live ingest is off: nginx did not start (${error instanceof Error ? error.message : String(error)})`);
  return undefined;
});
const server = await startServer(config.server).catch((error: NodeJS.ErrnoException) => {
  // The common failure is a port already taken (often by an earlier demo server): say which, without a stack.
  if (error.code === 'EADDRINUSE') {
    console.error(
      `Port in use: ${error.message}. Set PORT (and HOST_PORT, default PORT+1; METRICS_PORT, default 9464) to free ports.`,
    );
    process.exit(1);
  }
  // A refusal the operator can act on (DATA_DIR held, dev mode on a database not the demo's): its line, no stack.
  if (error instanceof StartRefused) {
    console.error(`[channel-server] ${error.message}`);
    process.exit(1);
  }
  throw error;
});

// First, so the line is out before the ready lines below (the tests read it once those are printed).
if (server.metricsPort)
  console.log(
    `Operations (health, readiness, metrics): http://${config.server.metricsHost ?? '127.0.0.1'}:${server.metricsPort}/`,
  );

if (server.operatorPort)
  console.log(
    `Operator API: http://${config.server.operatorHost ?? '127.0.0.1'}:${server.operatorPort}/operator/v1/ (docs/operator-api.md)`,
  );

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
  if (nginx)
    console.log(
      `Live ingest (nginx): encoders publish to ${nginx.rtmpUrl}/KEY; an ingest event's key: channel-server events ingest ID`,
    );
} else {
  console.log(`Channel API (production mode): ${server.origin}/api/`);
  console.log('The demo pages and test stand-ins are off; CHANNEL_DEV=1 turns them on for local development.');
}

// SIGTERM (a rolling deploy, docker stop) and Ctrl-C drain: readiness turns 503, the listeners accept nothing new,
// requests in flight get DRAIN_SECONDS to finish, running clip cuts are handed back to the queue, the database is
// closed; exit 0. A second signal ends the process at once (exit 1). Nothing depends on the drain for data: every
// answered request's writes are committed already.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void server
      .stop({ drainMs: config.drainMs })
      .then(() => nginx?.stop())
      .then(() => process.exit(0));
  });
}
