/**
 * The chunk-load rule (spec section 9: chunk load timeout 120 s): every piece of code loaded on demand (a tag's
 * chunk, a site page, the library view, the clip maker, hls.js, mux-embed, Stripe, a language's texts) either
 * arrives within CHUNK_LOAD_TIMEOUT_MS or fails with a ChunkLoadError that names it, so nothing waits for ever
 * behind a spinner. Dependency-free: the loader script uses it too.
 */

/** How long a chunk may take to arrive. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A chunk that did not load: it failed, or did not arrive in time. */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(
    /** What was loading: a tag, a page, a vendor (`hls.js`). */
    readonly chunk: string,
    /** It did not arrive within CHUNK_LOAD_TIMEOUT_MS (rather than failing). */
    readonly timedOut: boolean,
    override readonly cause?: unknown,
  ) {
    super(
      timedOut
        ? `the code of ${chunk} did not arrive within ${CHUNK_LOAD_TIMEOUT_MS / 1000} s`
        : `the code of ${chunk} could not be loaded${cause instanceof Error ? ` (${cause.message})` : ''}`,
    );
  }
}

/** The timers a wait uses (tests pass a fake clock's). */
export interface ChunkTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

const realTimers: ChunkTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as number),
};

/**
 * `load` as it arrives, or a ChunkLoadError naming `chunk` once it fails or takes longer than `ms`. A late arrival
 * after the timeout is ignored.
 */
export function loadChunk<T>(
  chunk: string,
  load: () => Promise<T>,
  timers: ChunkTimers = realTimers,
  ms = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = timers.setTimeout(() => reject(new ChunkLoadError(chunk, true)), ms);
    let started: Promise<T>;
    try {
      started = load();
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(
      (value) => {
        timers.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        timers.clearTimeout(timer);
        reject(error instanceof ChunkLoadError ? error : new ChunkLoadError(chunk, false, error));
      },
    );
  });
}
