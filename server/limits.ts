/**
 * Bounded in-memory bookkeeping for the reference server: every map that a client can grow (rate limits, sign-in
 * throttles, signature caches) holds at most a fixed number of entries and drops the least recently touched one
 * first, so a flood from many addresses or made-up emails costs bounded memory without wiping everyone's counts.
 */

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
}

/** A fixed-window request counter per key (a client address), bounded in memory. */
export class RateLimiter {
  private readonly hits: BoundedMap<string, { start: number; count: number }>;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    capacity = 50_000,
  ) {
    this.hits = new BoundedMap(capacity);
  }

  /** Counts one request; answers the seconds to wait when over the limit, else 0. */
  hit(key: string): number {
    const t = this.now();
    let entry = this.hits.get(key);
    if (!entry || t - entry.start >= this.windowMs) entry = { start: t, count: 0 };
    entry.count++;
    this.hits.set(key, entry);
    if (entry.count <= this.max) return 0;
    return Math.max(1, Math.ceil((entry.start + this.windowMs - t) / 1000));
  }
}

/**
 * Attempts per key within a sliding window (UNIX seconds): `limit` of them lock the key until the oldest ages out.
 * Sign-in failures, registrations.
 */
export class SlidingWindow {
  private readonly failures: BoundedMap<string, number[]>;

  constructor(
    private readonly limit: number,
    private readonly windowSeconds: number,
    capacity = 50_000,
  ) {
    this.failures = new BoundedMap(capacity);
  }

  /** Seconds until the key may try again, 0 when it may now. */
  wait(key: string, now: number): number {
    const recent = this.recent(key, now);
    return recent.length >= this.limit ? Math.max(1, recent[0]! + this.windowSeconds - now) : 0;
  }

  /** Counts one attempt at `now`. */
  record(key: string, now: number): void {
    // Only the last `limit` attempts matter for the lock, so a key never holds more than that.
    this.failures.set(key, [...this.recent(key, now), now].slice(-this.limit));
  }

  /** Takes back one attempt counted at `at` (it turned out not to be a failure). */
  forgive(key: string, at: number): void {
    const list = this.failures.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (list && i >= 0) this.failures.set(key, [...list.slice(0, i), ...list.slice(i + 1)]);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowSeconds);
  }
}
