/**
 * The handover of the start-up requests the loader sends before the elements' code arrives (src/loader/early.ts):
 * where the loader keeps each answer, under what key, and how the API client takes one. The session hands the client
 * `adoptEarly` as its `earlyAnswer` hook and `forgetEarly` as its `earlyFailed` hook, so neither the client nor the
 * session imports the loader. Dependency-free: part of the tiny loader too. The loader's copy and the session's copy
 * of this module meet on registered symbols.
 */

/** Where the loader keeps its answers (request key to answer), and the promise of what it has still to send. */
const EARLY = Symbol.for('channel-elements.early');
const SENDING = Symbol.for('channel-elements.early-sending');
type Early = Map<string, Promise<Response>>;

/** The key of one request: the client takes an answer only for the identical request (method, URL and body). */
export const requestKey = (method: string, url: string, body: string | undefined) => `${method} ${url} ${body ?? ''}`;

/** The loader's answers, made on first use. */
export function earlyMap(): Early {
  const w = globalThis as unknown as Record<symbol, Early | undefined>;
  return (w[EARLY] ??= new Map());
}

/** The loader still has requests to send until `sent` settles: the client waits for them rather than send copies. */
export function sendingUntil(sent: Promise<void>): Promise<void> {
  const settled = sent.then(() => {
    delete (globalThis as unknown as Record<symbol, unknown>)[SENDING];
  });
  (globalThis as unknown as Record<symbol, unknown>)[SENDING] = settled;
  return settled;
}

/**
 * The loader's answer to exactly this request, if it sent one or is about to; each answer is taken once.
 * Undefined (at once when the loader sent nothing) means the caller sends the request itself.
 */
export function adoptEarly(
  url: string,
  init: { method?: string; body?: unknown },
): Promise<Response | undefined> | undefined {
  const w = globalThis as unknown as Record<symbol, unknown>;
  const map = w[EARLY] as Early | undefined;
  if (!map) return undefined;
  const key = requestKey(init.method ?? 'GET', url, typeof init.body === 'string' ? init.body : undefined);
  const take = () => {
    const answer = map.get(key);
    map.delete(key);
    return answer;
  };
  const answer = take();
  if (answer) return answer;
  const sending = w[SENDING] as Promise<void> | undefined;
  return sending ? sending.then(take) : undefined;
}

/**
 * Stops waiting for the loader: its answers not yet taken are dropped and what it has still to send is not
 * waited for. The client calls this when an answer it took from the loader never came or broke off (a timeout, a
 * network fault): what the loader would send next hangs on that same answer, so waiting for it would cost every
 * later first attempt (a Reload's too) its full 30 s.
 */
export function forgetEarly(): void {
  const w = globalThis as unknown as Record<symbol, unknown>;
  delete w[EARLY];
  delete w[SENDING];
}
