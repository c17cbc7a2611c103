/**
 * The chunk-load rule (spec section 9: chunk load timeout 120 s): every piece of code loaded on demand (a tag's
 * chunk, a site page, the library view, the clip maker, hls.js, mux-embed, Stripe, a language's texts) either
 * arrives within CHUNK_LOAD_TIMEOUT_MS or fails with a ChunkLoadError that names it, so nothing waits for ever
 * behind a spinner. Dependency-free: the loader script uses it too.
 */

/** How long a chunk may take to arrive. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * A chunk file (or the chunks' integrity table) that arrived but is not the one the loader was built with: its bytes
 * do not match the hash of the build's table (src/loader/integrity.ts), so the browser refused to run it.
 */
export class ChunkIntegrityError extends Error {
  /**
   * `file`: `chunks/…`, or the URL of a file the loader does not list; `expected`: the loader's `sha256-…`, none for
   * a file its build does not list. (Said in the message only: the loader carries this class, every byte counts.)
   */
  constructor(file: string, expected?: string) {
    super(
      expected
        ? `${file} does not match its integrity hash (expected ${expected})`
        : `${file} is not in this loader\u2019s build`,
    );
    this.name = 'ChunkIntegrityError';
  }
}

/** A chunk that did not load: it failed, it was refused (integrity), or it did not arrive in time. */
export class ChunkLoadError extends Error {
  // Fields declared and assigned (not class fields): the loader carries this class, and every byte of it counts.
  /** It did not arrive within CHUNK_LOAD_TIMEOUT_MS (rather than failing). */
  declare readonly timedOut: boolean;
  /**
   * It arrived but failed its integrity check (a ChunkIntegrityError, told by its name: the loader's copy of the
   * class is another bundle's).
   */
  declare readonly refused: boolean;
  /** `chunk`: what was loading (a tag, a page, a vendor: `hls.js`), named in the message. */
  constructor(chunk: string, timedOut: boolean, cause?: unknown) {
    const refused = (cause as Error | undefined)?.name === 'ChunkIntegrityError';
    super(
      timedOut
        ? `the code of ${chunk} did not arrive within ${CHUNK_LOAD_TIMEOUT_MS / 1000} s`
        : `the code of ${chunk} ${refused ? 'was refused' : 'could not be loaded'}${cause instanceof Error ? ` (${cause.message})` : ''}`,
    );
    this.name = 'ChunkLoadError';
    this.timedOut = timedOut;
    this.cause = cause;
    this.refused = refused;
  }
}

/** The timers a wait uses (tests pass a fake clock's). */
export interface ChunkTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/**
 * `load` as it arrives, or a ChunkLoadError naming `chunk` once it fails or takes longer than `ms`. A late arrival
 * after the timeout is ignored.
 */
export function loadChunk<T>(
  chunk: string,
  load: () => Promise<T>,
  timers: ChunkTimers = globalThis as unknown as ChunkTimers,
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
