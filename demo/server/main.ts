/**
 * Runs the reference channel server for the demo: `node --import tsx demo/server/main.ts`.
 * Configuration comes from the environment (PORT, HOST_PORT, DATA_DIR, RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS).
 */
import { startServer } from './server.js';

/** Reads a numeric environment variable, refusing garbage instead of silently listening somewhere odd. */
function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return n;
}

const server = await startServer({
  port: envNumber('PORT') ?? 8080,
  hostPort: envNumber('HOST_PORT'),
  dataDir: process.env.DATA_DIR || undefined,
  rateLimitMax: envNumber('RATE_LIMIT_MAX'),
  rateLimitWindowMs: envNumber('RATE_LIMIT_WINDOW_MS'),
}).catch((error: NodeJS.ErrnoException) => {
  // The common failure is a port already taken (often by an earlier demo server): say which, without a stack.
  if (error.code === 'EADDRINUSE') {
    console.error(`Port in use: ${error.message}. Set PORT (and HOST_PORT, default PORT+1) to free ports.`);
    process.exit(1);
  }
  throw error;
});
console.log(`Channel elements demo: ${server.origin}/`);
console.log(`CMS host (cross-origin embedding): ${server.hostOrigin}/`);
console.log('Demo accounts (password demo-password): viewer@, buyer@, subscriber@, passholder@demo-sports.example');

// Save the database on Ctrl-C / docker stop instead of losing the last debounced writes.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void server.stop().then(() => process.exit(0));
  });
}
