/**
 * The operations listener, apart from the public one (METRICS_HOST:METRICS_PORT, loopback by default), for a load
 * balancer, an orchestrator and Prometheus:
 *
 *   GET /healthz   200 while the process answers at all
 *   GET /readyz    200 when it should get traffic: started, not draining, the database answering within
 *                  READY_TIMEOUT_MS with every migration this code knows applied, the media made; else 503 with the
 *                  reason (starting, draining, database)
 *   GET /metrics   Prometheus's text format (observability/metrics.ts)
 *
 * It listens from the first moment of a start (readiness is 503 until the server is ready) to the last of a stop.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { ChannelDb } from '../storage/db.js';

/** How long readiness waits for the database. */
export const READY_TIMEOUT_MS = 2000;

/** Where a server is in its life. */
export type Phase = 'starting' | 'ready' | 'draining';

export interface OperationsContext {
  phase(): Phase;
  /** The database, once it is open. */
  db(): ChannelDb | undefined;
  registry: Registry;
}

/** Why the database is not ready: undefined when it answers in time with every migration applied. */
async function databaseProblem(db: ChannelDb): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the database did not answer within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
  });
  const check = db
    .get('SELECT max(version) AS version FROM schema_migrations')
    .then((row) =>
      Number(row?.version) >= db.schemaVersion() ? undefined : 'the database lacks migrations this code needs',
    )
    .catch(() => 'the database refused a statement');
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function operationsListener(ctx: OperationsContext): RequestListener {
  const json = (res: Parameters<RequestListener>[1], status: number, body: Record<string, unknown>) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  return (req, res) => {
    const path = (req.url ?? '/').replace(/\?.*$/, '');
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { message: 'Method not allowed.' });
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      const phase = ctx.phase();
      const db = ctx.db();
      if (phase !== 'ready' || !db) return json(res, 503, { status: phase });
      void databaseProblem(db).then((problem) =>
        problem ? json(res, 503, { status: 'database', message: problem }) : json(res, 200, { status: 'ready' }),
      );
      return;
    }
    if (path === '/metrics') {
      void ctx.registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': ctx.registry.contentType, 'Cache-Control': 'no-store' });
          res.end(text);
        },
        () => json(res, 500, { message: 'The metrics could not be read.' }),
      );
      return;
    }
    json(res, 404, { message: 'Not found: this listener answers /healthz, /readyz and /metrics.' });
  };
}

/** The operations listener, bound: its port, and how to close it. */
export interface Operations {
  port: number;
  close(): Promise<void>;
}

/** Binds the operations listener (`port` 0: a free one). */
export function listenOperations(host: string, port: number, ctx: OperationsContext): Promise<Operations> {
  const server = createServer(operationsListener(ctx));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/**
 * Stops a listener: no new connection is accepted, idle ones close at once, and requests in flight have `drainMs`
 * to finish before their connections are closed too. Resolves when the last connection is gone.
 */
export function drainListener(server: Server, drainMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), drainMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    if (drainMs <= 0) server.closeAllConnections();
    else server.closeIdleConnections();
  });
}
