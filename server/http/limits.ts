/**
 * Limits that hold for the whole server, however many processes it runs as: the counts live in the database, so N
 * processes do not allow N times a limit.
 *
 * - `RateLimiter`: a fixed window per key (a client address, a user), counted by one upsert per hit. Exact.
 * - `SharedRateLimiter`: the same window for the limit every request passes (each path, each media segment), where
 *   a statement per request would cost more than the request. Each process takes grants from the shared row (a
 *   fetch-and-add of a 16th of the limit at a time) and admits from them in memory; a request waits for the database
 *   only when its process holds no grant with room. The processes' grants are disjoint slices of the limit, so all
 *   of them together never admit more than the limit; a client split over N processes may be refused up to (N - 1)
 *   grants early, what the others held unused (docs/server.md, "Running the reference server safely": Limits).
 * - `SlidingWindow`: attempts per key within a sliding window (sign-in failures, registrations), one row each.
 *
 * `BoundedMap` keeps the in-memory maps a client can grow (signature caches, unsent hits) to a fixed size, dropping
 * the least recently touched entry first.
 */
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { log } from '../observability/log.js';

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

/** A grant is at most this share of the limit (1/16): what one process may hold unused when a window ends. */
export const GRANT_SHARE = 16;
/** The largest grant asked for at once, whatever the limit. */
const MAX_GRANT = 10_000;
/**
 * How long a request waits for a grant before its process admits it on its own count: a database that stops
 * answering (a failover, a network split, a pool with every connection busy) must not hold up static files and media.
 */
export const GRANT_TIMEOUT_MS = 500;
/** The fallback is logged at most this often. */
const FALLBACK_LOG_MS = 10_000;
/** After a statement failed or timed out, grants are not asked for this long: requests go on the process's count. */
const FALLBACK_MS = 5000;

/** One key's window as this process knows it: its start, the hits granted to this process, and those it used. */
interface Grant {
  start: number;
  granted: number;
  used: number;
  /** The shared count had no room left when this process last asked: hits are refused until the window ends. */
  exhausted: boolean;
  /** What the shared count left after this process's last grant (the next grant asks for no more than half). */
  remaining: number;
}

/** A hit waiting for a grant. */
interface Waiter {
  weight: number;
  resolve(wait: Wait): void;
}

/** A fixed-window counter per key for the limit every request passes; see the file comment. */
export class SharedRateLimiter {
  private readonly keys: BoundedMap<string, Grant>;
  /** Hits waiting for a grant, per key, in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Keys whose grant is being asked for now (their new waiters wait for its answer). */
  private readonly asking = new Set<string>();
  private scheduled = false;
  private stopped = false;
  /** The grant size for this limit (a 16th of it, at least 1). */
  private readonly chunk: number;
  /** When the fallback was last logged (performance.now()). */
  private loggedAt = -Infinity;
  /** Until when (performance.now()) the database is not asked, after a failure. */
  private downUntil = -Infinity;

  constructor(
    private readonly db: ChannelDb,
    private readonly bucket: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    capacity = 50_000,
  ) {
    this.keys = new BoundedMap(capacity);
    this.chunk = Math.max(1, Math.min(MAX_GRANT, Math.ceil(max / GRANT_SHARE)));
  }

  /**
   * Counts one request of `weight` hits: answers 0 to go ahead or the seconds to wait, at once while this process
   * holds a grant with room (or knows the window is used up), else once the database has answered for a grant.
   */
  hit(key: string, weight = 1): Wait | Promise<Wait> {
    if (this.stopped) return 0;
    const t = this.now();
    const grant = this.current(key, t);
    if (grant && !this.waiting.has(key)) {
      if (grant.used + weight <= grant.granted) {
        grant.used += weight;
        return 0;
      }
      if (grant.exhausted) return waitOf(grant.start, this.windowMs, t);
    }
    return new Promise<Wait>((resolve) => {
      const queue = this.waiting.get(key) ?? [];
      queue.push({ weight, resolve });
      this.waiting.set(key, queue);
      this.schedule();
    });
  }

  /** This process's grant of the key's window still open at `t`, if any. */
  private current(key: string, t: number): Grant | undefined {
    const grant = this.keys.get(key);
    return grant && t - grant.start < this.windowMs ? grant : undefined;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // Every key that needs a grant in this turn of the event loop is asked for in one statement.
    setImmediate(() => {
      this.scheduled = false;
      void this.ask();
    });
  }

  /** Serves the waiters of `key` from its grant; answers how many hits are still waiting for room. */
  private serve(key: string, t: number): number {
    const queue = this.waiting.get(key);
    if (!queue) return 0;
    const grant = this.current(key, t);
    while (queue.length > 0 && grant && grant.used + queue[0]!.weight <= grant.granted) {
      const waiter = queue.shift()!;
      grant.used += waiter.weight;
      waiter.resolve(0);
    }
    if (queue.length > 0 && grant?.exhausted) {
      for (const waiter of queue.splice(0)) waiter.resolve(waitOf(grant.start, this.windowMs, t));
    }
    if (queue.length === 0) {
      this.waiting.delete(key);
      return 0;
    }
    return queue.reduce((sum, waiter) => sum + waiter.weight, 0);
  }

  /**
   * Asks the shared rows for grants, for every key with hits waiting and no grant being asked for already. The
   * shared count is a fetch-and-add: each process is granted its own slice of the limit, so all of them together
   * never admit more than it. A statement that fails admits the waiting hits within this process's own count (one
   * process alone still holds the limit), and is logged.
   */
  private async ask(): Promise<void> {
    const t = this.now();
    const batch: { key: string; asked: number }[] = [];
    for (const key of this.waiting.keys()) {
      if (this.asking.has(key)) continue;
      const needed = this.serve(key, t);
      if (needed === 0) continue;
      const grant = this.current(key, t);
      const hint = grant ? Math.max(1, Math.ceil(grant.remaining / 2)) : this.chunk;
      batch.push({ key, asked: Math.max(needed, Math.min(this.chunk, hint)) });
    }
    if (batch.length === 0) return;
    for (const { key } of batch) this.asking.add(key);
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${GRANT_TIMEOUT_MS} ms`)), GRANT_TIMEOUT_MS);
        timer.unref();
      });
      const statement = this.stopped
        ? Promise.resolve([])
        : performance.now() < this.downUntil
          ? Promise.reject(new Error('the database failed a moment ago'))
          : this.db.all(
              `INSERT INTO rate_windows (bucket, key, window_start, count)
             SELECT ?, k, ?::bigint, n FROM unnest(?::text[], ?::int[]) AS u(k, n)
             ON CONFLICT (bucket, key) DO UPDATE SET
               window_start = CASE WHEN rate_windows.window_start <= excluded.window_start - ?::bigint
                 THEN excluded.window_start ELSE rate_windows.window_start END,
               count = CASE WHEN rate_windows.window_start <= excluded.window_start - ?::bigint THEN excluded.count
                 ELSE least(rate_windows.count::bigint + excluded.count, 2000000000)::int END
             RETURNING key, window_start, count`,
              [
                this.bucket,
                t,
                batch.map(({ key }) => key),
                batch.map(({ asked }) => asked),
                this.windowMs,
                this.windowMs,
              ],
            );
      // A statement that answers after the timeout counted hits nobody uses: a little less than the limit passes.
      statement.catch(() => undefined);
      const rows = await Promise.race([statement, timeout]).finally(() => clearTimeout(timer));
      const asked = new Map(batch.map(({ key, asked }) => [key, asked]));
      for (const row of rows) {
        const key = String(row.key);
        const n = asked.get(key)!;
        const start = Number(row.window_start);
        const count = Number(row.count);
        // What the count held before this ask was everyone else's; this process gets what was left of the limit.
        const granted = Math.max(0, Math.min(n, this.max - (count - n)));
        let grant = this.keys.get(key);
        if (!grant || grant.start !== start) grant = { start, granted: 0, used: 0, exhausted: false, remaining: 0 };
        grant.granted += granted;
        grant.exhausted = granted < n;
        grant.remaining = Math.max(0, this.max - count);
        this.keys.set(key, grant);
      }
    } catch (error) {
      if (performance.now() >= this.downUntil) this.downUntil = performance.now() + FALLBACK_MS;
      if (performance.now() - this.loggedAt >= FALLBACK_LOG_MS) {
        this.loggedAt = performance.now();
        log().error(`could not read the shared request counts: ${(error as Error).message}`);
      }
      // Admitted within what this process alone has seen of the window: never more than the limit per process.
      for (const { key, asked } of batch) {
        let grant = this.current(key, t);
        if (!grant) grant = { start: t, granted: 0, used: 0, exhausted: false, remaining: this.max };
        const granted = Math.max(0, Math.min(asked, this.max - grant.granted));
        grant.granted += granted;
        grant.exhausted = granted < asked;
        this.keys.set(key, grant);
      }
    } finally {
      for (const { key } of batch) this.asking.delete(key);
    }
    // Serve what the grants allow; hits that arrived meanwhile and still need room ask again.
    const after = this.now();
    let more = false;
    for (const { key } of batch) if (this.serve(key, after) > 0) more = true;
    if (more || [...this.waiting.keys()].some((key) => !this.asking.has(key))) this.schedule();
  }

  /** The server is stopping: hits still waiting are let through (their answers are cut short anyway). */
  stop(): void {
    this.stopped = true;
    for (const queue of this.waiting.values()) for (const waiter of queue) waiter.resolve(0);
    this.waiting.clear();
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
