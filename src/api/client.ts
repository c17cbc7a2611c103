/**
 * The one request layer: every rule of the channel API's requests and errors.
 *
 * - the api key goes in the query for GET and DELETE and in the JSON body otherwise; keyless calls carry the
 *   channel key the same way;
 * - 30 s timeout per attempt, covering the whole answer (headers and body); one retry after 1 s for network
 *   faults (a body cut short included), timeouts and 5xx, never for 4xx except a 429 whose Retry-After asks for
 *   at most 10 s (one retry after that wait);
 * - an answer is read up to 5 MB: a longer body is cancelled and is an InvalidResponseError (not retried);
 * - identical concurrent requests are merged into one (the shared fetch is aborted only when every caller has
 *   cancelled); GET answers are cached for 60 s;
 * - an error body naming an invalid channel key or api key drops the stored keys, fetches them again and
 *   retries once after 1 s;
 * - 401 resets the user; 429 (the keys host's too), and 4xx/5xx of calls marked global (minus their allowed
 *   statuses), fire the global api-key error;
 * - a cancelled request passes through untouched (the caller's AbortError is rethrown as is);
 * - a failed request posts a JSON log entry to the logging endpoint, except the skip codes;
 * - every answer is read by the tolerant rule (schema-kit.ts): what is required missing is an InvalidResponseError,
 *   never a crash; a record a list leaves out is reported once (endpoint, id, field), never shown.
 *
 * The attempts of one request (timeout, body limit, retries, cancellation) are in http.ts; this module does the
 * rest. It knows nothing of stores, the loader or the DOM: keys, the user token, the reactions and the loader's
 * early answers come in as hooks.
 */
import type * as z from 'zod/mini';
import { channelApi } from './channel-schemas.js';
import { readAnswer, type Endpoint } from './schema-kit.js';
import { ApiError, HttpError, InvalidResponseError } from './errors.js';
import { RETRY_DELAY_MS, abortReason, callReporter, readError, send, throwIfAborted, type CallReport } from './http.js';
import { env, sleep } from '../lib/env.js';
import { API_KEY_PARAM, CHANNEL_KEY_PARAM, FORM_TYPE, formRefusedStorageKey } from '../lib/api-paths.js';
import { redactData, redactUrl, trackedUrl } from '../lib/url.js';
import { toJson } from '../lib/json.js';

/** The request rules' figures and the Retry-After reading, where callers and tests have always found them. */
export { MAX_BODY_BYTES, MAX_RETRY_AFTER_MS, REQUEST_TIMEOUT_MS, RETRY_DELAY_MS, retryAfterMs } from './http.js';
export type { CallReport } from './http.js';

/** The answers of an API that refuses a form body where the spec names no body type (`get_api_key`). */
const FORM_REFUSALS = [400, 415, 422];

/** Lifetime of cached GET answers (the store cache: 60 s). */
export const CACHE_TTL_MS = 60_000;

/** What the client needs from the session that owns it. */
export interface ClientHooks {
  /** Resolves the channel key (from storage or the keys host). */
  channelKey(): Promise<string>;
  /** The configured channel key as given by the embedding, for log entries (never fetches). */
  channelLabel(): string;
  /** Resolves the api key (from storage or `get_api_key`); rejects with NoApiKeyError when none can be had. */
  apiKey(): Promise<string>;
  /** Drops stored keys after the API said one is invalid. `api_key` also resets the user. */
  dropKeys(which: 'channel_key' | 'api_key'): void;
  /** The signed-in user's bearer token, if any. Sent as a header, never in a URL. */
  token(): string | undefined;
  /** A 401 answer: reset the user. */
  onUnauthorized(): void;
  /** 429, or a failure of a call marked global. `url` is already redacted. */
  onGlobalError(detail: { error: string; url: string; status: number }): void;
  /**
   * An answer to this exact request obtained before the client existed (the loader's start-up requests), taken
   * once; undefined, or a promise of undefined, means the client sends the request itself. Asked on first attempts.
   */
  earlyAnswer?(url: string, init: RequestInit): Promise<Response | undefined> | undefined;
  /**
   * A first attempt that waited on an early answer timed out or met a network fault: stop waiting for the loader
   * (its later requests hang on that answer).
   */
  earlyFailed?(): void;
  /**
   * Every call that went to the network ended (not a cache hit, not a cancelled one): what the API request tracker
   * reports. `url` has no keys, tokens, one-time values or personal data.
   */
  onCallEnd?(call: CallReport): void;
}

/** Where the client sends requests. */
export interface ClientConfig {
  /** API base, e.g. `http://localhost:8080/api` (no trailing slash needed). */
  apiUrl: string;
  /** Logging endpoint; defaults to `{apiUrl}/logs`. */
  logUrl?: string | undefined;
}

/** Per-call options. */
export interface CallOptions {
  /** Values for `{name}` placeholders in the endpoint path. */
  params?: Record<string, string | number>;
  /** Query parameters; undefined, null and empty values are dropped. */
  query?: Record<string, string | number | boolean | undefined | null>;
  /** JSON body for non-GET calls. */
  body?: Record<string, unknown>;
  /** Cancels the call for this caller. */
  signal?: AbortSignal | undefined;
  /** Fire the global error on 4xx/5xx (except `allow`). */
  global?: boolean;
  /** Statuses that are not global errors for this call (e.g. 401 on profile). */
  allow?: readonly number[];
  /** Statuses that are not reported to the logging endpoint (e.g. 401 profile, 404 custom forms). */
  skipLog?: readonly number[];
  /** Use and fill the 60 s cache (GET only). Default true for GET. */
  cache?: boolean;
  /** Retries after network faults, timeouts and 5xx. Default 1. */
  retries?: number;
}

type Output<E extends Endpoint> = z.output<E['response']>;

interface Shared {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
}

/** Builds query strings without empty values, so `?team=` never reaches the server. */
export function queryString(query: Record<string, string | number | boolean | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * The channel API client. (Its members are TypeScript-private, not `#`: the es2020 build would turn `#` members into
 * WeakMap helpers, 0.2 KB gzip on every page.)
 */
export class ApiClient {
  private readonly inflight = new Map<string, Shared>();
  private readonly cache = new Map<string, { at: number; value: unknown }>();
  /** The records left out already reported (each once). */
  private readonly reported = new Set<string>();
  private config: ClientConfig;

  constructor(
    config: ClientConfig,
    readonly hooks: ClientHooks,
  ) {
    this.config = config;
  }

  /** The API base without a trailing slash. */
  get apiUrl(): string {
    return this.config.apiUrl.replace(/\/+$/, '');
  }

  /** Forgets cached answers (after sign-in or sign-out, whose answers differ per user). */
  clearCache(): void {
    this.cache.clear();
  }

  /**
   * Calls a contract endpoint (an entry of an area's table: `channelApi.events`, `accountApi.login`) and returns its
   * parsed answer.
   */
  call<E extends Endpoint>(spec: E, options: CallOptions = {}): Promise<Output<E>> {
    // Cancelled before it started: nothing goes over the wire.
    if (options.signal?.aborted) return Promise.reject(abortReason(options.signal));
    const name = spec.name;
    const path = spec.path.replace(/\{(\w+)\}/g, (_, p: string) => {
      const v = options.params?.[p];
      if (v === undefined) throw new Error(`Missing path parameter ${p} for ${name}`);
      return encodeURIComponent(String(v));
    });
    const method = spec.method as string;
    const useCache = options.cache ?? method === 'GET';
    // The identity of a request: everything but the key, which may change between attempts.
    const identity = `${method} ${path}${queryString(options.query ?? {})} ${JSON.stringify(options.body ?? null)} ${this.hooks.token() ?? ''}`;

    if (useCache) {
      const hit = this.cache.get(identity);
      if (hit && env().now() - hit.at < CACHE_TTL_MS) return Promise.resolve(hit.value as Output<E>);
    }

    let shared = this.inflight.get(identity);
    // A shared request whose every caller cancelled is dying; a new caller must not join it.
    if (!shared || shared.controller.signal.aborted) {
      const controller = new AbortController();
      const promise = this.run(spec, path, options, controller.signal).then((value) => {
        if (useCache) this.cache.set(identity, { at: env().now(), value });
        return value;
      });
      const entry: Shared = { promise, controller, waiters: 0 };
      shared = entry;
      this.inflight.set(identity, entry);
      const forget = () => {
        if (this.inflight.get(identity) === entry) this.inflight.delete(identity);
      };
      promise.then(forget, forget);
    }
    return this.wait(shared, options.signal) as Promise<Output<E>>;
  }

  /** Fetches and validates JSON outside the API base (the keys host), with the same timeout and retry. */
  async fetchJson<S extends z.ZodMiniType>(url: string, schema: S, service: string): Promise<z.output<S>> {
    const report = callReporter(this.hooks.onCallEnd, service, 'GET', url);
    try {
      const { response, text } = await this.send(url, { method: 'GET' }, undefined, 1, service, undefined);
      report.answer(response.status, text.length);
      if (!response.ok) {
        const { message } = readError(text, response.status);
        const error = new HttpError(response.status, message, redactUrl(url));
        // Throttling is a global error wherever it comes from (the keys host too).
        if (response.status === 429) this.hooks.onGlobalError({ error: message, url: redactUrl(url), status: 429 });
        this.log(error, service, url, undefined);
        throw error;
      }
      return this.parse(text, schema, url, service, undefined);
    } catch (error) {
      report.fail(error);
      throw error;
    }
  }

  /** Whether this channel's API refused a form body before (`get_api_key` then goes as JSON). */
  private async formRefused(): Promise<boolean> {
    return (
      env().storage.get(formRefusedStorageKey(await this.hooks.channelKey()), (v): v is true => v === true) === true
    );
  }

  /** Joins one caller to a shared request, honouring that caller's own cancel signal. */
  private wait(shared: Shared, signal: AbortSignal | undefined): Promise<unknown> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    shared.waiters++;
    if (!signal) return shared.promise;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        shared.waiters--;
        if (shared.waiters === 0) shared.controller.abort(abortReason(signal));
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  /** One logical call: keys, attempts, key recovery, error reactions, parsing. */
  private async run(spec: Endpoint, path: string, options: CallOptions, signal: AbortSignal): Promise<unknown> {
    const name = spec.name;
    const method = spec.method as string;
    const keyInQuery = method === 'GET' || method === 'DELETE';
    let keyRetried = false;
    const report = callReporter(
      this.hooks.onCallEnd,
      name,
      method,
      `${this.apiUrl}/${path}${queryString(options.query ?? {})}`,
    );
    try {
      const value = await this.attempts(spec, path, options, signal, keyInQuery, report, () => {
        if (keyRetried) return false;
        keyRetried = true;
        return true;
      });
      report.done();
      return value;
    } catch (error) {
      report.fail(error);
      throw error;
    }
  }

  /** The attempts of one logical call (see run); `mayRetryKey` allows the one key recovery. */
  private async attempts(
    spec: Endpoint,
    path: string,
    options: CallOptions,
    signal: AbortSignal,
    keyInQuery: boolean,
    report: { answer(status: number, length: number): void },
    mayRetryKey: () => boolean,
  ): Promise<unknown> {
    const { name, method } = spec;
    // A form's call (get_api_key) goes as JSON at once for a channel whose API refused the form and then answered the
    // JSON retry with an answer that was read (stored below: `formRefused`); else as a form.
    let form = spec.form && !(await this.formRefused());
    for (;;) {
      const keyName = spec.keyless ? CHANNEL_KEY_PARAM : API_KEY_PARAM;
      const key = spec.keyless ? await this.hooks.channelKey() : await this.hooks.apiKey();
      const query = { ...options.query, ...(keyInQuery ? { [keyName]: key } : {}) };
      const url = `${this.apiUrl}/${path}${queryString(query)}`;
      const headers: Record<string, string> = { Accept: 'application/json' };
      // Never on a form's call (get_api_key), whichever body it goes as: the spec's get_api_key takes channel_key only.
      const token = !spec.form && this.hooks.token();
      if (token) headers.Authorization = `Bearer ${token}`;
      const init: RequestInit = { method, headers };
      if (!keyInQuery) {
        const body = { ...options.body, [keyName]: key };
        headers['Content-Type'] = form ? FORM_TYPE : 'application/json';
        init.body = form ? String(new URLSearchParams(body as Record<string, string>)) : toJson(body);
      }
      const requestData = options.body ?? options.query;

      const { response, text } = await this.send(url, init, signal, options.retries ?? 1, name, requestData);
      report.answer(response.status, text.length);
      if (response.ok) {
        const value = this.parse(text, spec.response, url, name, requestData);
        // An API that reads only JSON answered it: JSON from now on for this channel.
        if (spec.form && !form) env().storage.set(formRefusedStorageKey(await this.hooks.channelKey()), true);
        return value;
      }

      if (form && FORM_REFUSALS.includes(response.status)) {
        // Maybe an API that reads only JSON: the same call once more as JSON.
        form = false;
        continue;
      }
      const { message, errors } = readError(text, response.status);
      const keyError = errors.channel_key ? 'channel_key' : errors.api_key ? 'api_key' : undefined;
      if (keyError && mayRetryKey()) {
        // The stored key is stale (rotated, channel moved): drop it, get a new one, try once more.
        this.hooks.dropKeys(keyError);
        await sleep(RETRY_DELAY_MS);
        throwIfAborted(signal);
        continue;
      }
      const error = new HttpError(response.status, message, redactUrl(url), errors);
      if (response.status === 401) this.hooks.onUnauthorized();
      const global = response.status === 429 || (options.global && !(options.allow ?? []).includes(response.status));
      if (global) this.hooks.onGlobalError({ error: message, url: redactUrl(url), status: response.status });
      if (!(options.skipLog ?? []).includes(response.status)) this.log(error, name, url, requestData);
      throw error;
    }
  }

  /** One request with the timeout and retry policy (http.ts), taking the loader's early answer on its first try. */
  private send(
    url: string,
    init: RequestInit,
    signal: AbortSignal | undefined,
    retries: number,
    service: string,
    requestData: unknown,
  ) {
    return send(url, init, signal, retries, {
      early: this.hooks.earlyAnswer && (() => this.hooks.earlyAnswer?.(url, init)),
      earlyFailed: () => this.hooks.earlyFailed?.(),
      log: (error) => this.log(error, service, url, requestData),
    });
  }

  /** Reads and validates a 2xx body. */
  private parse<S extends z.ZodMiniType>(
    text: string,
    schema: S,
    url: string,
    service: string,
    requestData: unknown,
  ): z.output<S> {
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      const error = new InvalidResponseError(redactUrl(url), 'the body is not JSON');
      this.log(error, service, url, requestData);
      throw error;
    }
    const { result, dropped } = readAnswer(schema, json, service);
    this.reportLeftOut(service, dropped, url);
    if (!result.success) {
      const issues = result.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      const error = new InvalidResponseError(redactUrl(url), issues);
      this.log(error, service, url, requestData);
      throw error;
    }
    return result.data as z.output<S>;
  }

  /** Posts the JSON log entry of a failure (fire and forget; a failing log call is never logged). */
  private log(error: ApiError, service: string, url: string, requestData: unknown): void {
    this.post(error.status, service, error.message, redactData(requestData ?? null), redactUrl(url));
  }

  /**
   * Reports what reading an answer of `service` (at `url`) left out (schema-kit.ts `readAnswer`'s lines), each record
   * once for the client's life: the answer's own reading, and a part of one read later on its own (the settings'
   * prerolls, read by the player alone). A record named by its id is the same wherever it stands: another answer (a
   * filter, the next page) lists it at another place, which does not make it another report.
   */
  reportLeftOut(service: string, lines: readonly string[], url: string): void {
    for (const message of lines) {
      const record = message.includes('(id ') ? message.replace(/\.\d+(?=[.)])/g, '.*') : message;
      if (!this.reported.has(record)) this.report(service, message, trackedUrl(url));
      this.reported.add(record);
    }
  }

  /**
   * Posts a log entry about something else than a call (an element's uncaught error, a chunk that did not load):
   * status 0, no request data. `message` and `url` must already be free of personal data. Never throws.
   */
  report(service: string, message: string, url: string): void {
    this.post(0, service, message, null, url);
  }

  private post(status: number, service: string, message: string, requestData: unknown, url: string): void {
    const logUrl = this.config.logUrl ?? `${this.apiUrl}/${channelApi.log.path}`;
    const channel = this.hooks.channelLabel();
    void Promise.resolve()
      .then(() => {
        const entry = {
          date: new Date(env().now()).toISOString(),
          status,
          service,
          channel,
          message,
          request_data: requestData,
          url,
          channel_key: channel,
        };
        return env().fetch(logUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: toJson(entry),
          keepalive: true,
        });
      })
      .catch(() => undefined);
  }
}
