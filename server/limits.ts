/**
 * Limits that hold for the whole server, however many processes it runs as: the counts live in the database, so N
 * processes do not allow N times a limit.
 *
 * - `RateLimiter`: a fixed window per key (a client address, a user), counted by one upsert per hit. Exact.
 * - `SharedRateLimiter`: the same window for the limit every request passes (each path, each media segment), where
 *   a statement per request would cost more than the request. Hits are counted in memory and added to the shared
 *   row every FLUSH_MS; a request is refused once the shared count last read plus this process's own unsent hits
 *   reach the limit. One process alone never allows more than the limit; N processes together at most the limit
 *   plus what the others admitted in one FLUSH_MS (docs/server.md, "Running the reference server safely": Limits).
 * - `SlidingWindow`: attempts per key within a sliding window (sign-in failures, registrations), one row each.
 *
 * `BoundedMap` keeps the in-memory maps a client can grow (signature caches, unsent hits) to a fixed size, dropping
 * the least recently touched entry first.
 */
import type { ChannelDb, Row, SqlValue } from './db.js';

/** A Map of at most `capacity` entries; setting a key makes it the newest, and the oldest is dropped past the cap. */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!(capacity > 0)) throw new Error('A BoundedMap needs a positive capacity.');
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Stores `value` as the newest entry, dropping the oldest entries beyond the capacity. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  clear(): void {
    this.map.clear();
  }
}

/** What a limiter answers: 0 to go ahead, else the seconds to wait. */
type Wait = number;

const waitOf = (start: number, windowMs: number, now: number): Wait =>
  Math.max(1, Math.ceil((start + windowMs - now) / 1000));

/** The upsert of one limit's window: `bucket, key, now, hits, now - window, now - window`; returns the window. */
const HIT_SQL = `INSERT INTO rate_windows (bucket, key, window_start, count) VALUES (?, ?, ?, ?)
  ON CONFLICT (bucket, key) DO UPDATE SET
    window_start = CASE WHEN rate_windows.window_start <= ? THEN excluded.window_start ELSE rate_windows.window_start END,
    count = CASE WHEN rate_windows.window_start <= ? THEN excluded.count ELSE rate_windows.count + excluded.count END
  RETURNING window_start, count`;

/** Counts one hit of `key` in `bucket`'s fixed window; answers the window's start and its count after the hit. */
async function countHit(
  db: ChannelDb,
  bucket: string,
  key: string,
  now: number,
  windowMs: number,
  hits: number,
): Promise<{ start: number; count: number }> {
  const row = await db.get(HIT_SQL, [bucket, key, now, hits, now - windowMs, now - windowMs]);
  return { start: Number(row!.window_start), count: Number(row!.count) };
}

/** A fixed-window counter per key, shared by every process (one statement per hit). */
export class RateLimiter {
  constructor(
    private readonly db: ChannelDb,
    /** The limit's name (the table holds every limit's windows). */
    private readonly bucket: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request; answers the seconds to wait when over the limit, else 0. */
  async hit(key: string): Promise<Wait> {
    const t = this.now();
    const { start, count } = await countHit(this.db, this.bucket, key, t, this.windowMs, 1);
    return count <= this.max ? 0 : waitOf(start, this.windowMs, t);
  }

  /**
   * Counts one request and, when it is within the limit, runs `write` in the same statement: `write` is an INSERT
   * whose rows come `FROM allowed` (one row when the hit is allowed, none otherwise) and that returns its row.
   * Answers that row, or the seconds to wait. One statement where hit() and the write would be two.
   */
  async hitAndWrite(key: string, write: string, params: SqlValue[]): Promise<{ row: Row } | { wait: Wait }> {
    const t = this.now();
    const row = await this.db.get(
      `WITH hit AS (${HIT_SQL}), allowed AS (SELECT 1 FROM hit WHERE hit.count <= ?::int) ${write}`,
      [this.bucket, key, t, 1, t - this.windowMs, t - this.windowMs, this.max, ...params],
    );
    if (row) return { row };
    const window = await this.db.get('SELECT window_start FROM rate_windows WHERE bucket = ? AND key = ?', [
      this.bucket,
      key,
    ]);
    return { wait: waitOf(Number(window?.window_start ?? t), this.windowMs, t) };
  }
}

/** How often a SharedRateLimiter adds its hits to the shared counts. */
export const FLUSH_MS = 200;

/** A fixed-window counter per key for the limit every request passes; see the file comment. */
export class SharedRateLimiter {
  /** Per key: the window this process knows of, the shared count last read, and hits not yet sent. */
  private readonly keys: BoundedMap<string, { start: number; shared: number; unsent: number }>;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: ChannelDb,
    private readonly bucket: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    capacity = 50_000,
  ) {
    this.keys = new BoundedMap(capacity);
  }

  /**
   * Counts one request, or `weight` of them (a big page of events counts as several), synchronously: no statement
   * on the request's path. Answers the seconds to wait, or 0.
   */
  hit(key: string, weight = 1): Wait {
    const t = this.now();
    let entry = this.keys.get(key);
    if (!entry || t - entry.start >= this.windowMs) entry = { start: t, shared: 0, unsent: 0 };
    entry.unsent += weight;
    this.keys.set(key, entry);
    this.schedule();
    if (entry.shared + entry.unsent <= this.max) return 0;
    return waitOf(entry.start, this.windowMs, t);
  }

  private schedule(): void {
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flush().finally(() => {
        this.flushing = undefined;
        if ([...this.keys.entries()].some(([, entry]) => entry.unsent > 0)) this.schedule();
      });
    }, FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Adds the unsent hits to the shared rows and reads back every process's counts. Each key's hits go to the window
   * they were made in (the entry's start), not to the one open when the flush runs: hits made just before a window
   * ended would otherwise count against the next one. Hits of a window that ended before the shared one began
   * (another process opened the next window first) count in neither. A flush that fails leaves its hits unsent, to
   * go with the next one.
   */
  async flush(): Promise<void> {
    const batch = [...this.keys.entries()]
      .filter(([, entry]) => entry.unsent > 0)
      .map(([key, entry]) => ({ key, hits: entry.unsent, entry }));
    if (batch.length === 0) return;
    // Counted as shared from now on: the count read back includes them.
    for (const { entry, hits } of batch) {
      entry.unsent -= hits;
      entry.shared += hits;
    }
    try {
      const rows = await this.db.all(
        `INSERT INTO rate_windows (bucket, key, window_start, count)
         SELECT ?, k, s, n FROM unnest(?::text[], ?::bigint[], ?::int[]) AS u(k, s, n)
         ON CONFLICT (bucket, key) DO UPDATE SET
           window_start = CASE WHEN rate_windows.window_start <= excluded.window_start - ? THEN excluded.window_start ELSE rate_windows.window_start END,
           count = CASE
             WHEN rate_windows.window_start <= excluded.window_start - ? THEN excluded.count
             WHEN excluded.window_start <= rate_windows.window_start - ? THEN rate_windows.count
             ELSE rate_windows.count + excluded.count END
         RETURNING key, window_start, count`,
        [
          this.bucket,
          batch.map(({ key }) => key),
          batch.map(({ entry }) => entry.start),
          batch.map(({ hits }) => hits),
          this.windowMs,
          this.windowMs,
          this.windowMs,
        ],
      );
      const flushed = new Map(batch.map(({ key, entry }) => [key, entry]));
      for (const row of rows) {
        const entry = flushed.get(String(row.key));
        // A key whose window ended during the flush has a new entry by now, which these counts are not about.
        if (!entry || this.keys.get(String(row.key)) !== entry) continue;
        // The shared window (another process may have opened it earlier) and every process's hits in it.
        entry.start = Number(row.window_start);
        entry.shared = Number(row.count);
      }
    } catch (error) {
      console.error('[channel-server] could not share the request counts:', (error as Error).message);
      for (const { key, entry, hits } of batch) {
        if (this.keys.get(key) !== entry) continue;
        entry.unsent += hits;
        entry.shared -= hits;
      }
    }
  }

  /** Stops the timer (the server is stopping); unsent hits are dropped. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Attempts per key within a sliding window (UNIX seconds): `limit` of them lock the key until the oldest ages out.
 * Sign-in failures, registrations. Shared by every process.
 */
export class SlidingWindow {
  constructor(
    private readonly db: ChannelDb,
    private readonly bucket: string,
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /** Seconds until the key may try again, 0 when it may now. */
  async wait(key: string, now: number): Promise<number> {
    const rows = await this.db.all(
      'SELECT at FROM attempts WHERE bucket = ? AND key = ? AND at > ? ORDER BY at DESC LIMIT ?',
      [this.bucket, key, now - this.windowSeconds, this.limit],
    );
    if (rows.length < this.limit) return 0;
    const oldest = Number(rows[rows.length - 1]!.at);
    return Math.max(1, oldest + this.windowSeconds - now);
  }

  /**
   * Checks and counts one attempt as one step, for every process: answers its id, or the seconds to wait when the
   * key is locked (nothing counted then). Attempts sent at once are taken one after the other (a lock per key), so
   * a burst of guesses is throttled like guesses sent one by one.
   */
  async take(key: string, now: number): Promise<{ id: number } | { wait: number }> {
    return this.db.transaction(async () => {
      await this.db.run('SELECT pg_advisory_xact_lock(hashtext(?))', [`${this.bucket}|${key}`]);
      const wait = await this.wait(key, now);
      return wait > 0 ? { wait } : { id: await this.record(key, now) };
    });
  }

  /** Counts one attempt at `now`; answers its id (to forgive it). */
  async record(key: string, now: number): Promise<number> {
    return this.db.insert('INSERT INTO attempts (bucket, key, at) VALUES (?, ?, ?)', [this.bucket, key, now]);
  }

  /** Takes back one attempt (it turned out not to be a failure). */
  async forgive(id: number): Promise<void> {
    await this.db.run('DELETE FROM attempts WHERE id = ?', [id]);
  }

  async clear(key: string): Promise<void> {
    await this.db.run('DELETE FROM attempts WHERE bucket = ? AND key = ?', [this.bucket, key]);
  }
}

/** Forgets windows and attempts too old to count (maintenance.ts, hourly); `nowMs` in ms. */
export async function pruneLimits(db: ChannelDb, nowMs: number, longestWindowMs: number): Promise<void> {
  await db.run('DELETE FROM rate_windows WHERE window_start < ?', [nowMs - longestWindowMs]);
  await db.run('DELETE FROM attempts WHERE at < ?', [Math.floor(nowMs / 1000) - Math.ceil(longestWindowMs / 1000)]);
}
