/**
 * Local storage with the `rudy_` prefix and per-entry lifetimes.
 *
 * Each entry is stored as `{"v": value, "e": expiresAtMs, "t": writtenAtMs}`. A value that fails to parse, has the
 * wrong shape or has expired is dropped rather than trusted, and so is one written before the spec's channel cache
 * date (CHANNEL_CACHE_DATE). Storage that throws (Safari private mode, sandboxed iframes,
 * disabled cookies) falls back to an in-memory map for the rest of the page's life.
 */
import { STORAGE_PREFIX } from './api-paths.js';
import { toJson } from './json.js';

/** The prefix of every key this product writes (declared with the other names the loader shares). */
export { STORAGE_PREFIX };
/** Default lifetime of a stored value: about 360 days. */
export const DEFAULT_LIFETIME_MS = 31104e6;
/**
 * The spec's channel cache date (2022-08-01, UTC): stored data written before it is discarded. Written as the number
 * (`Date.UTC(2022, 7, 1)`), so that the loader, which reads stored entries too, carries no call (its 4 KB budget).
 */
export const CHANNEL_CACHE_DATE = 1_659_312_000_000;

/**
 * A stored entry's value, or undefined when the entry is unparsable, has the wrong shape, has expired at `now` or was
 * written before the channel cache date (a `t` that is no number of milliseconds, such as `null` or a date's text,
 * counts as such; an entry without one, of an earlier version of ours, is kept). `raw` null (nothing stored) is none. Wrapped, so that a stored null is told apart from no value. Every key goes
 * through it: the storage's and the loader's reads (src/loader/early.ts `storedValue`).
 */
export function entryValue(raw: string | null, now: number): { v: unknown } | undefined {
  let entry: { v?: unknown; e?: unknown; t?: unknown } | null;
  try {
    entry = JSON.parse(raw ?? '') as typeof entry;
  } catch {
    return undefined;
  }
  // A number `e` is found on an object only (JSON's other values have none): `in` may ask it then.
  if (typeof entry?.e !== 'number' || !('v' in entry) || ('t' in entry && !(Number(entry.t) >= CHANNEL_CACHE_DATE))) {
    return undefined;
  }
  return entry.e > now ? { v: entry.v } : undefined;
}

/** The subset of the Web Storage API this module needs; `localStorage` satisfies it. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A Web Storage stand-in kept in memory. */
export class MemoryStorage implements KeyValueStorage {
  private readonly map = new Map<string, string>();
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.map.set(key, String(value));
  }
  removeItem(key: string): void {
    this.map.delete(key);
  }
}

/**
 * Prefixed, expiring storage over a backing store that may throw at any call. (TypeScript-private members, not `#`, as
 * in the API client: the es2020 build would add WeakMap helpers to every page.)
 */
export class ExpiringStorage {
  private backing: KeyValueStorage;
  private readonly now: () => number;
  private fellBack = false;

  constructor(backing: () => KeyValueStorage | null | undefined, now: () => number) {
    this.now = now;
    let chosen: KeyValueStorage | null | undefined;
    try {
      chosen = backing();
      // Touch it once: some browsers expose localStorage but throw on the first write.
      chosen?.setItem(`${STORAGE_PREFIX}probe`, '1');
      chosen?.removeItem(`${STORAGE_PREFIX}probe`);
    } catch {
      chosen = null;
    }
    this.backing = chosen ?? new MemoryStorage();
    this.fellBack = !chosen;
  }

  /** True when the browser's storage was unusable and values live in memory only. */
  get inMemory(): boolean {
    return this.fellBack;
  }

  /** Reads a value; returns undefined when absent, expired, unparsable or rejected by `accept`. */
  get<T>(key: string, accept?: (value: unknown) => value is T): T | undefined {
    const raw = this.call(() => this.backing.getItem(STORAGE_PREFIX + key));
    if (raw == null) return undefined;
    const entry = entryValue(raw, this.now());
    if (!entry || (accept && !accept(entry.v))) {
      this.remove(key);
      return undefined;
    }
    return entry.v as T;
  }

  /** Stores a JSON-serialisable value for `lifetimeMs` (default about 360 days). */
  set(key: string, value: unknown, lifetimeMs = DEFAULT_LIFETIME_MS): void {
    const now = this.now();
    const raw = toJson({ v: value, e: now + lifetimeMs, t: now });
    this.call(() => this.backing.setItem(STORAGE_PREFIX + key, raw));
  }

  /** Deletes a value. */
  remove(key: string): void {
    this.call(() => this.backing.removeItem(STORAGE_PREFIX + key));
  }

  /** Runs a storage call; on the first throw, moves to memory for good (quota, revoked access). */
  private call<T>(fn: () => T): T | null {
    try {
      return fn();
    } catch {
      if (!this.fellBack) {
        this.fellBack = true;
        this.backing = new MemoryStorage();
      }
      try {
        return fn();
      } catch {
        return null;
      }
    }
  }
}

/** Type guard for stored strings. */
export const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
