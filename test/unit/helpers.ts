/// <reference types="mocha" />
/**
 * Test doubles shared by the unit tests: a scripted fake `fetch` that records every request, a fake clock
 * wired into the injected environment, a recording logger, and helpers to let real async work (Response body
 * reads, promise chains) settle between fake-clock ticks.
 */
import * as fakeTimers from '@sinonjs/fake-timers';
import type * as FakeTimers from '@sinonjs/fake-timers';
import { env, resetEnv, setEnv, type PageLocation } from '../../src/lib/env.js';
import { ExpiringStorage, MemoryStorage } from '../../src/lib/storage.js';
import { resetAnalytics } from '../../src/stores/analytics/reset.js';

/** 2024-01-15T17:00:00Z: a fixed start for every fake clock. */
export const T0 = Date.UTC(2024, 0, 15, 17, 0, 0);

/** One request as it went over the wire. */
export interface Recorded {
  method: string;
  /** Full URL as passed to fetch. */
  url: string;
  /** `origin + pathname`, e.g. `http://api.test/api/events`. */
  path: string;
  /** Query parameters as a plain object. */
  query: Record<string, string>;
  /** Parsed JSON or form body (or the raw string when it is neither), undefined without a body. */
  body: unknown;
  headers: Record<string, string>;
  signal: AbortSignal | undefined;
  /** Fake-clock time at which fetch was called. */
  at: number;
}

/** A scripted answer. */
export type Reply =
  | { status?: number; body?: unknown; raw?: string }
  | Error
  | typeof HANG
  | Deferred
  | ((req: Recorded) => Reply | Promise<Reply>);

/** A fetch that never answers (it rejects with an AbortError when its signal aborts, like a real fetch). */
export const HANG = Symbol('hang');

/** An answer released by the test; by default it rejects on abort like a real fetch. */
export class Deferred {
  #resolve!: (reply: Reply) => void;
  readonly promise: Promise<Reply>;
  /** The request that is waiting on this answer, once fetch was called. */
  request: Recorded | undefined;
  constructor(readonly ignoreAbort = false) {
    this.promise = new Promise((resolve) => (this.#resolve = resolve));
  }
  resolve(reply: Reply): void {
    this.#resolve(reply);
  }
}

/** `{ data }` envelope helper. */
export const ok = (data: unknown, extra: Record<string, unknown> = {}) => ({ status: 200, body: { data, ...extra } });

/** A fake HTTP server behind a fake `fetch`. Routes are `METHOD url-without-query`. */
export class FakeServer {
  readonly requests: Recorded[] = [];
  readonly #routes = new Map<string, Reply[]>();
  #now: () => number;

  constructor(now: () => number = () => 0) {
    this.#now = now;
    // The logging endpoint accepts anything unless a test says otherwise.
    this.on('POST', 'http://api.test/api/logs', { status: 200, body: {} });
  }

  /** Scripts the answers of a route, used in order; the last one repeats. */
  on(method: string, url: string, ...replies: Reply[]): this {
    this.#routes.set(`${method} ${url}`, replies);
    return this;
  }

  /** Requests to a route (without the logging endpoint unless asked). */
  to(method: string, url: string): Recorded[] {
    return this.requests.filter((r) => r.method === method && r.path === url);
  }

  /** Requests other than log posts. */
  get calls(): Recorded[] {
    return this.requests.filter((r) => !r.path.endsWith('/logs'));
  }

  /** Log entries posted. */
  get logs(): Recorded[] {
    return this.requests.filter((r) => r.path.endsWith('/logs'));
  }

  /** `METHOD path` of every non-log request, in order. */
  get trail(): string[] {
    return this.calls.map((r) => `${r.method} ${r.path}`);
  }

  readonly fetch: typeof fetch = async (input, init = {}) => {
    const url = String(input instanceof Request ? input.url : input);
    const u = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    let body: unknown;
    if (typeof init.body === 'string' && headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      body = Object.fromEntries(new URLSearchParams(init.body));
    } else if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const req: Recorded = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      path: u.origin + u.pathname,
      query: Object.fromEntries(u.searchParams),
      body,
      headers,
      signal: init.signal ?? undefined,
      at: this.#now(),
    };
    this.requests.push(req);
    const replies = this.#routes.get(`${req.method} ${req.path}`);
    if (!replies || replies.length === 0) {
      return new Response(JSON.stringify({ message: `no route for ${req.method} ${req.path}` }), { status: 404 });
    }
    const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
    return answer(reply, req);
  };
}

async function answer(reply: Reply, req: Recorded): Promise<Response> {
  if (typeof reply === 'function') return answer(await reply(req), req);
  if (reply instanceof Error) throw reply;
  if (reply === HANG) return new Promise<Response>((_, reject) => onAbort(req, reject));
  if (reply instanceof Deferred) {
    reply.request = req;
    const pending = reply.promise.then((r) => answer(r, req));
    if (reply.ignoreAbort) return pending;
    return new Promise<Response>((resolve, reject) => {
      onAbort(req, reject);
      pending.then(resolve, reject);
    });
  }
  const status = reply.status ?? 200;
  const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  return new Response(status === 204 ? null : text, { status, headers: { 'Content-Type': 'application/json' } });
}

function onAbort(req: Recorded, reject: (e: unknown) => void): void {
  const signal = req.signal;
  const fail = () => reject(signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
  if (signal?.aborted) fail();
  else signal?.addEventListener('abort', fail, { once: true });
}

/** A logger that records lines instead of printing them. */
export function recordingLogger() {
  const lines = { error: [] as string[], warn: [] as string[], info: [] as string[] };
  const logger = {
    error: (...args: unknown[]) => void lines.error.push(args.map(String).join(' ')),
    warn: (...args: unknown[]) => void lines.warn.push(args.map(String).join(' ')),
    info: (...args: unknown[]) => void lines.info.push(args.map(String).join(' ')),
  };
  return { logger, lines };
}

/** Runs one macrotask (faster than setTimeout, which clamps to 4 ms when nested). */
export function macrotask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Lets pending promise chains and body reads settle (the fake clock does not move). */
export async function flush(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await macrotask();
}

/** Waits (in real macrotasks, at most ~500 rounds) until `predicate` holds; fails with `what` otherwise. */
export async function until(predicate: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (predicate()) return;
    await macrotask();
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Settles a promise into `{ value }` or `{ error }` so a rejection is never unhandled while the clock moves. */
export function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** A fake clock starting at T0 (not installed globally: pass its methods where they are needed). */
export function createClock(start = T0): FakeTimers.Clock {
  return fakeTimers.createClock(start) as FakeTimers.Clock;
}

/** A fake world: clock, server, storage, logger, event target, installed with setEnv. */
export interface World {
  clock: FakeTimers.Clock;
  server: FakeServer;
  storage: ExpiringStorage;
  logger: ReturnType<typeof recordingLogger>['logger'];
  lines: ReturnType<typeof recordingLogger>['lines'];
  events: EventTarget;
  /** When the page was reloaded (`env().reloadPage`), by the fake clock. */
  reloads: number[];
  /** Settles async work, advances the fake clock by `ms` (firing timers in order), settles again. */
  advance(ms: number): Promise<void>;
}

/** Installs a fresh fake world into the environment. Call `resetEnv()` (or `teardown()`) after the test. */
export function installWorld(): World {
  // What an earlier test left waiting for an idle moment must not reach this one.
  resetAnalytics();
  const clock = createClock();
  const server = new FakeServer(() => clock.now);
  const storage = new ExpiringStorage(
    () => new MemoryStorage(),
    () => clock.now,
  );
  const { logger, lines } = recordingLogger();
  const events = new EventTarget();
  const reloads: number[] = [];
  setEnv({
    fetch: server.fetch,
    now: () => clock.now,
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (id) => clock.clearTimeout(id as FakeTimers.TimerId),
    storage,
    logger,
    eventTarget: events,
    reloadPage: () => void reloads.push(clock.now),
  });
  return {
    reloads,
    clock,
    server,
    storage,
    logger,
    lines,
    events,
    async advance(ms: number) {
      await flush();
      await clock.tickAsync(ms);
      await flush();
    },
  };
}

/** Restores the browser environment. */
export function teardown(): void {
  resetAnalytics();
  resetEnv();
}

/**
 * Keeps the page where it is when the product leaves it (a social provider, the customer portal): the environment's
 * location reads the real address but records what `assign` was asked for. `restore` puts the previous one back.
 */
export function captureNavigation(): { assigned: string[]; restore(): void } {
  const assigned: string[] = [];
  const before = env().location;
  setEnv({
    location: () => {
      const real = before();
      if (!real) return undefined;
      const { href, origin, pathname, hostname, search, hash } = real;
      return { href, origin, pathname, hostname, search, hash, assign: (url: string) => void assigned.push(url) };
    },
  });
  return { assigned, restore: () => setEnv({ location: before }) };
}

/** A fake page address and history in the environment: what was pushed and replaced, and a way to go back. */
export function fakeAddress(start: string) {
  let current = new URL(start, 'https://site.test');
  const entries = [current.href];
  const pushed: string[] = [];
  const replaced: string[] = [];
  const target = new EventTarget();
  const location = (): PageLocation => ({
    href: current.href,
    origin: current.origin,
    pathname: current.pathname,
    hostname: current.hostname,
    search: current.search,
    hash: current.hash,
    assign: () => undefined,
  });
  setEnv({
    location,
    eventTarget: target,
    pushUrl: (url) => {
      current = new URL(url, current);
      entries.push(current.href);
      pushed.push(url);
    },
    replaceUrl: (url) => {
      current = new URL(url, current);
      entries[entries.length - 1] = current.href;
      replaced.push(url);
    },
  });
  return {
    pushed,
    replaced,
    back() {
      entries.pop();
      current = new URL(entries[entries.length - 1]!);
      target.dispatchEvent(new Event('popstate'));
    },
    get path() {
      return current.pathname + current.search;
    },
  };
}

/** Intl uses narrow and plain no-break spaces and a real minus sign; compare text as a reader sees it. */
export const plain = (s: string | undefined) => s?.replace(/[\u202f\u00a0]/g, ' ').replace(/\u2212/g, '-');
