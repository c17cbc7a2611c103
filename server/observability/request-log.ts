/**
 * One log line and one measurement per request: its id (the caller's `X-Request-Id` when it is a plain token, else
 * a new one; sent back either way), method, route, status and duration. The route is the contract endpoint the API
 * matched (`nameRoute`, from app/routes.ts) or the kind of path it was (`kindOf`): never the path or its query,
 * which carry api keys, media grants and portal sessions.
 */
import { randomUUID } from 'node:crypto';
import {
  IncomingMessage,
  ServerResponse,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type RequestListener,
  type ServerOptions,
} from 'node:http';
import { trusted, type Logger } from './log.js';
import type { ServerMetrics } from './metrics.js';

/**
 * A request as an observed server makes it: its id and the route it took, in fields of its own (a WeakMap keyed by
 * requests, or properties added to each, costs every garbage collection).
 */
export class ObservedRequest extends IncomingMessage {
  /** The request's id ('' until it is observed). */
  requestId = '';
  /** The API endpoint it was routed to, if any (nameRoute). */
  route: string | undefined = undefined;
}

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];
const never = () => false;

/** The name the request id is sent back under. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * An answer that sends its request's id as `X-Request-Id`. The cheapest way is in the headers `writeHead` is given
 * (http.ts's JSON answers put it there, `idOfAnswer`); for any other answer it is set before them. Never by copying
 * the headers given, nor by setting it early for all: a header set before `writeHead` sends the answer down Node's
 * slow path, where each of its headers is set, lower-cased and stored one by one, and a copy of an object of any
 * shape is a slow copy (together a tenth of what an API request cost, measured in instructions).
 */
export class ObservedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** The id to send ('' sends none). */
  requestId = '';
  /** Whether its server is draining (then its connection closes after it, instead of being kept for another). */
  draining: () => boolean = never;

  override writeHead(statusCode: number, message?: string | Headers, headers?: Headers): this {
    if (this.draining() && !this.headersSent) this.setHeader('Connection', 'close');
    const given = typeof message === 'string' ? headers : (message ?? headers);
    const has = given !== undefined && !Array.isArray(given) && given[REQUEST_ID_HEADER] !== undefined;
    if (this.requestId !== '' && !has && !this.headersSent) this.setHeader(REQUEST_ID_HEADER, this.requestId);
    return super.writeHead(statusCode, message as string, headers);
  }
}

/** The id an answer is to send back ('' when it is not an observed server's). */
export function idOfAnswer(res: ServerResponse): string {
  return res instanceof ObservedResponse ? res.requestId : '';
}

/** A listener of an observed server. */
export type ObservedListener = RequestListener<typeof ObservedRequest, typeof ObservedResponse>;

/** What an observed server is created with (`createServer(observedServerOptions, observeRequests(...))`). */
export const observedServerOptions: ServerOptions<typeof ObservedRequest, typeof ObservedResponse> = {
  IncomingMessage: ObservedRequest,
  ServerResponse: ObservedResponse,
};

/** A request id a caller may choose: a short token of safe characters (anything else is replaced). */
const CALLER_ID = /^[\w.:-]{1,128}$/;

/** Names the route a request took (the API's endpoint name). */
export function nameRoute(req: IncomingMessage, route: string): void {
  if (req instanceof ObservedRequest) req.route = route;
}

/** The request's id (empty for a request that was not observed). */
export function requestIdOf(req: IncomingMessage): string {
  return req instanceof ObservedRequest ? req.requestId : '';
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

export interface ObserveOptions {
  logger: Logger;
  metrics: ServerMetrics;
  listener: 'main' | 'cms' | 'operator';
  /** Whether the server is draining: an answer whose head is not sent yet then closes its connection. */
  draining?: () => boolean;
}

/**
 * Wraps a listener so each request is logged and measured when its answer is done (or its client has gone). Its
 * server is made with `observedServerOptions`, whose answers carry the id.
 */
export function observeRequests(listener: RequestListener, options: ObserveOptions): ObservedListener {
  const { metrics, logger, draining = never } = options;
  return (req, res) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && CALLER_ID.test(given) ? given : randomUUID();
    req.requestId = id;
    res.requestId = id;
    res.draining = draining;
    const started = performance.now();
    // 'close' comes once: when the answer is sent, or when the client went away before it was.
    res.on('close', () => {
      const aborted = !res.writableFinished;
      const seconds = (performance.now() - started) / 1000;
      let route = req.route;
      if (route === undefined) {
        const path = /^[^?#]*/.exec(req.url ?? '/')?.[0] ?? '/';
        route = options.listener === 'main' ? kindOf(path) : options.listener;
      }
      const status = aborted ? 499 : res.statusCode;
      metrics.request(route, req.method ?? 'GET', status, seconds);
      // Its fields are the server's own: the id was checked or made, the route is a label, the method a token.
      if (logger.isLevelEnabled('info'))
        logger.info(
          trusted({ reqId: id, method: req.method, route, status, ms: Math.round(seconds * 10_000) / 10 }),
          aborted ? 'request aborted' : 'request',
        );
    });
    listener(req, res);
  };
}
