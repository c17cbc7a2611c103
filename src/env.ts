/**
 * The one injection point for platform services: fetch, storage, clock, logger and the window to fire global
 * events on. Browser code reads them through `env()` at call time (never capturing the host page's `fetch` at
 * load), and tests swap them with `setEnv()`.
 */
import { ExpiringStorage, type KeyValueStorage } from './lib/storage.js';

/** The services the product uses from its platform. */
export interface Environment {
  fetch: typeof fetch;
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
  storage: ExpiringStorage;
  /** Developer-facing console lines (English, say how to fix). */
  logger: Pick<Console, 'error' | 'warn' | 'info'>;
  /** Where global custom events (api_key_error) are dispatched; undefined outside a browser. */
  eventTarget: EventTarget | undefined;
}

function browserStorage(): KeyValueStorage | null {
  // Reading window.localStorage itself throws in sandboxed iframes without allow-same-origin.
  return typeof window === 'undefined' ? null : window.localStorage;
}

function defaults(): Environment {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    now: () => Date.now(),
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (id) => globalThis.clearTimeout(id as number),
    storage: new ExpiringStorage(browserStorage, () => Date.now()),
    logger: console,
    eventTarget: typeof window === 'undefined' ? undefined : window,
  };
}

let current: Environment | undefined;

/** The current environment (created with browser defaults on first use). */
export function env(): Environment {
  current ??= defaults();
  return current;
}

/** Replaces some services (tests, or an embedding that brings its own fetch). */
export function setEnv(patch: Partial<Environment>): void {
  current = { ...env(), ...patch };
}

/** Restores browser defaults (tests). */
export function resetEnv(): void {
  current = undefined;
}

/** Waits `ms` on the environment's clock; a `signal` that aborts ends the wait with its reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    // The timer is cleared by the clock that set it, even if the environment changes meanwhile (tests).
    const clock = env();
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
