/**
 * Bounds on what clients can add to the database, and the pruning that keeps it small: client log entries (size,
 * a quota per client address, count per channel, age), api keys (unused ones go; a cap on the total), and the rows
 * that expire (tokens, social codes, device codes, emailed links, portal sessions). `prune` runs when the server
 * starts and every hour; the per-insert checks (logs, api keys) keep a burst between two runs bounded too.
 */
import type { ChannelDb } from './db.js';

/** The largest client log entry stored, as JSON. */
export const MAX_LOG_ENTRY_BYTES = 8 * 1024;
/**
 * Log entries a channel keeps, and for how long: a full channel refuses new entries (nobody's are evicted to make
 * room) until old ones age out.
 */
export const MAX_LOGS_PER_CHANNEL = 2000;
export const LOG_RETENTION_SECONDS = 14 * 86400;
/** Log entries one client address may post per LOG_QUOTA_WINDOW_MS (a fixed window); beyond it they are refused. */
export const LOG_ENTRIES_PER_ADDRESS = 60;
export const LOG_QUOTA_WINDOW_MS = 3600_000;
/** An api key nobody has used for this long is forgotten (a client that comes back asks for a new one). */
export const API_KEY_IDLE_SECONDS = 30 * 86400;
/** At most this many api keys in all; past it, the least recently used go first. */
export const MAX_API_KEYS = 100_000;
/** `last_used_at` of an api key is written at most this often. */
export const API_KEY_TOUCH_SECONDS = 3600;

/** Drops the least recently used api keys beyond the cap. */
export async function capApiKeys(db: ChannelDb): Promise<void> {
  const total = Number((await db.get('SELECT count(*) AS n FROM api_keys'))?.n ?? 0);
  if (total <= MAX_API_KEYS) return;
  await db.run(
    'DELETE FROM api_keys WHERE api_key IN (SELECT api_key FROM api_keys ORDER BY last_used_at, created_at LIMIT ?)',
    [total - MAX_API_KEYS],
  );
}

/** Forgets what has expired or aged out; `now` in UNIX seconds. */
export async function prune(db: ChannelDb, now: number): Promise<void> {
  await db.transaction(async () => {
    await db.run('DELETE FROM logs WHERE received_at < ?', [now - LOG_RETENTION_SECONDS]);
    await db.run('DELETE FROM api_keys WHERE last_used_at < ?', [now - API_KEY_IDLE_SECONDS]);
    await capApiKeys(db);
    await db.run('DELETE FROM tokens WHERE expires_at <= ?', [now]);
    await db.run('DELETE FROM social_codes WHERE expires_at <= ?', [now]);
    // A linked code waits a day past its expiry for its TV to collect the token.
    await db.run(
      'DELETE FROM device_codes WHERE expires_at <= ? AND (user_id IS NULL OR token_issued = 1 OR expires_at <= ?)',
      [now, now - 86400],
    );
    await db.run('DELETE FROM user_links WHERE expires_at <= ?', [now]);
    await db.run('DELETE FROM portal_sessions WHERE expires_at <= ?', [now]);
  });
}
