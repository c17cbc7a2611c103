/**
 * Runs the reference channel server for the demo: `node --import tsx demo/server/main.ts`.
 * Configuration comes from the environment (PORT, HOST_PORT, DATA_DIR, RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS,
 * PAYMENT_SETTLE_MS: how long a purchase stays pending before it settles, default 3000).
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
  paymentSettleMs: envNumber('PAYMENT_SETTLE_MS'),
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
console.log('Demo accounts: viewer@example.com / viewer-pass-1, fan@example.com / fan-pass-1, temp@example.com / temp-pass-1');
console.log('  and viewer@, buyer@, subscriber@, passholder@demo-sports.example (password demo-password)');
console.log(`Outbox (emails the demo sent): ${server.origin}/outbox.html · TV device linking: ${server.origin}/tv.html`);
console.log('Test cards (any future expiry, any CVC): 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds');

// Save the database on Ctrl-C / docker stop instead of losing the last debounced writes.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void server.stop().then(() => process.exit(0));
  });
}
