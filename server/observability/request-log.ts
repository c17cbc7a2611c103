/**
 * One log line and one measurement per request: its id (the caller's `X-Request-Id` when it is a plain token, else
 * a new one; sent back either way), method, route, status and duration. The route is the contract endpoint the API
 * matched (`nameRoute`, from app/routes.ts) or the kind of path it was (`kindOf`): never the path or its query,
 * which carry api keys, media grants and portal sessions.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';
import { trusted, type Logger } from './log.js';
import type { ServerMetrics } from './metrics.js';

/** What a request is known by once it has been seen. */
interface Seen {
  id: string;
  route?: string;
}
const seen = new WeakMap<IncomingMessage, Seen>();

/** A request id a caller may choose: a short token of safe characters (anything else is replaced). */
const CALLER_ID = /^[\w.:-]{1,128}$/;

/** Names the route a request took (the API's endpoint name). */
export function nameRoute(req: IncomingMessage, route: string): void {
  const entry = seen.get(req);
  if (entry) entry.route = route;
}

/** The request's id (empty for a request that was not observed). */
export function requestIdOf(req: IncomingMessage): string {
  return seen.get(req)?.id ?? '';
}

/** The kind of path a request without a named route took: a fixed set of labels. */
export function kindOf(path: string): string {
  if (path === '/api' || path.startsWith('/api/')) return 'api:unknown';
  const first = /^\/([^/]*)/.exec(path)?.[1] ?? '';
  const kinds: Record<string, string> = {
    keys: 'keys',
    storage: 'settings-copy',
    media: 'media',
    __dev: 'dev',
    __stripe: 'stand-in:stripe',
    __social: 'stand-in:social',
    oembed: 'oembed',
    datalake: 'analytics',
    collect: 'analytics',
    mux: 'analytics',
    g: 'analytics',
    auth: 'account-page',
  };
  return kinds[first] ?? 'static';
}

/** Wraps a listener so each request is logged and measured when its answer is done (or its client has gone). */
export function observeRequests(
  listener: RequestListener,
  options: { logger: Logger; metrics: ServerMetrics; listener: 'main' | 'cms' },
): RequestListener {
  return (req, res) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && CALLER_ID.test(given) ? given : randomUUID();
    const entry: Seen = { id };
    seen.set(req, entry);
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    // 'close' comes once the answer is sent, or when the client went away before it was.
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const seconds = (performance.now() - started) / 1000;
      let route = entry.route;
      if (!route) {
        const path = /^[^?#]*/.exec(req.url ?? '/')?.[0] ?? '/';
        route = options.listener === 'cms' ? 'cms' : kindOf(path);
      }
      const status = aborted ? 499 : res.statusCode;
      options.metrics.request(route, req.method ?? 'GET', status, seconds);
      // Its fields are the server's own: the id was checked or made, the route is a label, the method a token.
      options.logger.info(
        trusted({ reqId: id, method: req.method, route, status, ms: Math.round(seconds * 10_000) / 10 }),
        aborted ? 'request aborted' : 'request',
      );
    });
    listener(req, res);
  };
}
