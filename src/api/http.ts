/**
 * One request over the wire, as every call of the API client makes it: a 30 s timeout per attempt over the headers
 * and the whole body, an answer read up to 5 MB, one retry after 1 s for network faults, timeouts and 5xx, a 429
 * waited out once when its Retry-After asks for at most 10 s, and the caller's cancellation passed through untouched.
 * The client (client.ts) adds the keys, the merging and caching, the reactions to errors and the parsing.
 */
import { ErrorBody } from './channel-schemas.js';
import { ApiError, InvalidResponseError, NetworkError, TimeoutError, isCancel } from './errors.js';
import { env, sleep } from '../lib/env.js';
import { redactUrl, trackedUrl } from '../lib/url.js';

/** Request timeout. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Delay before the single retry. */
export const RETRY_DELAY_MS = 1_000;
/**
 * The most of an answer the client reads (bytes). The reference server's largest answer (a 1000-event list) is
 * 58 KB; anything longer is not an answer this client can use, and reading it would only fill the page's memory.
 */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** The longest Retry-After of a 429 that the client waits out (once) before giving up. */
export const MAX_RETRY_AFTER_MS = 10_000;

/** What a request needs of its client: the loader's answer to take, and where its failure is logged. */
export interface SendHooks {
  /** On the first attempt: an answer to this very request sent while the code loaded (start-up), if any. */
  early?: (() => Promise<Response | undefined> | undefined) | undefined;
  /** The early answer waited on timed out or met a network fault. */
  earlyFailed(): void;
  /** The failure that ends the request (an answer too long, the last network fault or timeout). */
  log(error: ApiError): void;
}

/** A promise that also rejects when `signal` aborts (an adopted answer cannot be cancelled, only abandoned). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * fetch with the 30 s timeout (over the headers and the whole body) and the retry policy; answers the response
 * and its text. Rethrows the caller's cancellation untouched.
 */
export async function send(
  url: string,
  init: RequestInit,
  signal: AbortSignal | undefined,
  retries: number,
  hooks: SendHooks,
): Promise<{ response: Response; text: string }> {
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(signal);
    const controller = new AbortController();
    let timedOut = false;
    // The timer is cleared by the same clock that set it, even if the environment changes meanwhile (tests).
    const clock = env();
    const timer = clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, REQUEST_TIMEOUT_MS);
    const onAbort = () => controller.abort(signal ? abortReason(signal) : undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    // Set when this attempt's answer is to be tried again: after how long.
    let wait: number | undefined;
    // This very request may have been sent while the code loaded (start-up): take that answer once.
    let early: Promise<Response | undefined> | undefined;
    try {
      early = attempt === 0 ? hooks.early?.() : undefined;
      const send = () => env().fetch(url, { ...init, signal: controller.signal });
      const response = await (early
        ? untilAborted(early, controller.signal).then((answer) => answer ?? send())
        : send());
      // The body is read under the same timer: a server that trickles its answer times out like a silent one.
      const text = await readText(response, url, controller.signal);
      // A 5xx is worth one more try, and a 429 that says when to come back soon enough is waited out once
      // (docs/reliability-and-security.md: Errors and reports); the last answer, whatever it is, goes back to the caller.
      if (response.status >= 500) wait = RETRY_DELAY_MS;
      else if (response.status === 429) wait = retryAfterMs(response.headers.get('Retry-After'));
      if (wait === undefined || attempt >= retries) return { response, text };
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (error instanceof ApiError) {
        // Too long an answer: the same request would get the same one.
        hooks.log(error);
        throw error;
      }
      if (!timedOut && isCancel(error)) throw error;
      if (early) hooks.earlyFailed();
      const failure: ApiError = timedOut
        ? new TimeoutError(redactUrl(url), REQUEST_TIMEOUT_MS)
        : new NetworkError(redactUrl(url), error);
      if (attempt >= retries) {
        hooks.log(failure);
        throw failure;
      }
      wait = RETRY_DELAY_MS;
    } finally {
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    await sleep(wait ?? RETRY_DELAY_MS);
  }
}

/**
 * An answer's body as text, read up to MAX_BODY_BYTES while `signal` allows: a longer one is cancelled and rejects
 * with an InvalidResponseError; a body cut short (the connection dropped) rejects with the browser's error, which
 * the caller treats as a network fault; an abort (the timeout, the caller) cancels the body and rejects with it.
 */
async function readText(response: Response, url: string, signal: AbortSignal): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  if (Number(response.headers.get('Content-Length')) > MAX_BODY_BYTES) {
    stop();
    throw tooLarge(url);
  }
  signal.addEventListener('abort', stop, { once: true });
  const decoder = new TextDecoder();
  let read = 0;
  let text = '';
  try {
    for (;;) {
      // An answer adopted from the loader was fetched without this signal: its abort ends the wait here.
      const { done, value } = await untilAborted(reader.read(), signal);
      if (signal.aborted) throw abortReason(signal);
      if (done) return text + decoder.decode();
      read += value.byteLength;
      if (read > MAX_BODY_BYTES) {
        stop();
        throw tooLarge(url);
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

function tooLarge(url: string): InvalidResponseError {
  return new InvalidResponseError(redactUrl(url), `the body is longer than ${MAX_BODY_BYTES / 1024 / 1024} MB`);
}

/**
 * How long a 429's Retry-After asks to wait (seconds or an HTTP date), at least the usual retry delay; undefined
 * without one, or when it asks for more than MAX_RETRY_AFTER_MS (the call then fails at once).
 */
export function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - env().now();
  if (Number.isNaN(ms) || ms > MAX_RETRY_AFTER_MS) return undefined;
  return Math.max(ms, RETRY_DELAY_MS);
}

/** Reads an error body leniently: a non-JSON or odd body still yields a message. */
export function readError(
  text: string,
  status: number,
): { message: string; errors: Record<string, string[] | string> } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = ErrorBody.safeParse(body);
  const message = (parsed.success && parsed.data.message) || `HTTP ${status}`;
  return { message, errors: (parsed.success && parsed.data.errors) || {} };
}

/** Why `signal` aborted: its reason, else an AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The request was cancelled.', 'AbortError');
}

/** Throws the abort reason of a signal that has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/** One finished API call, as the request tracker reports it. */
export interface CallReport {
  /** The contract's endpoint name, or the service of a call outside the API base (`channel-key`). */
  service: string;
  method: string;
  url: string;
  /** The HTTP status; 0 for a network fault or a timeout. */
  status: number;
  /** The error's message, or 'OK'. */
  message: string;
  /** The answer's length in characters. */
  length: number;
  /** From the call to its answer, retries and waits included (ms). */
  time_ms: number;
  /** When the call started (ms since the epoch). */
  at: number;
}

/**
 * Notes a call for the request tracker (`onCallEnd`): `answer` records the status and length of the last answer,
 * `fail` ends the call (with that answer's status, else 0 and the error's message; a cancelled call is not reported),
 * `done` ends a successful one.
 */
export function callReporter(
  onCallEnd: ((call: CallReport) => void) | undefined,
  service: string,
  method: string,
  url: string,
) {
  const at = env().now();
  let status = 0;
  let length = 0;
  let ended = false;
  const end = (message: string) => {
    if (ended) return;
    ended = true;
    try {
      onCallEnd?.({
        service,
        method,
        url: trackedUrl(url),
        status,
        message,
        length,
        time_ms: Math.max(0, Math.round(env().now() - at)),
        at,
      });
    } catch {
      // The tracker never breaks a call.
    }
  };
  return {
    answer(s: number, l: number) {
      status = s;
      length = l;
    },
    done: () => end('OK'),
    fail(error: unknown) {
      if (isCancel(error) && !(error instanceof TimeoutError)) {
        ended = true;
        return;
      }
      end(error instanceof Error ? error.message : String(error));
    },
  };
}
