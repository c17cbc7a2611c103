// A fault proxy in front of the reference server, for the faults Playwright's request interception cannot make
// (its route.fulfill hands the browser a whole body at once): a body that trickles in, and a body cut short by a
// dropped connection. Everything else passes through unchanged, so a page loaded from the proxy's origin runs as
// it would on the reference server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does to the requests `matches` picks while it is active. */
export type ProxyFault = 'trickle' | 'truncated' | 'huge';

export interface FaultProxy {
  /** The proxy's origin (`http://localhost:<port>`): load the page from here. */
  origin: string;
  /** Faulted requests so far. */
  hits(): number;
  /** Bytes of faulted bodies written so far (the trickle's progress). */
  written(): number;
  /** Serves a page of the test's own at `path` (a page on the proxy's own address, as a host's page would be). */
  serve(path: string, html: string): void;
  /** Stops faulting: from now on every request passes through. */
  lift(): void;
  close(): Promise<void>;
}

/** The start of a JSON body, so that a client that read only this far cannot mistake it for a whole answer. */
const OPENING = '{"data":[';

/**
 * Starts a proxy to `target` (an origin) that answers the requests `matches` picks with `fault`: `trickle` sends
 * the status and headers at once, then the body a byte every 250 ms and never finishes; `truncated` declares a
 * Content-Length of 4000, sends 200 bytes and drops the connection; `huge` streams a 10 MB body of valid JSON
 * (chunked, no length announced) as fast as the client reads it.
 */
export async function startFaultProxy(
  target: string,
  fault: ProxyFault,
  matches: (path: string, method: string) => boolean,
): Promise<FaultProxy> {
  const upstream = new URL(target);
  let active = true;
  let hits = 0;
  let written = 0;
  const open = new Set<http.ServerResponse>();
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const page = pages.get(path);
    if (page !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(page);
      return;
    }
    if (active && req.method !== 'OPTIONS' && matches(path, req.method ?? 'GET')) {
      hits++;
      open.add(res);
      res.on('close', () => open.delete(res));
      if (fault === 'trickle') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.write(OPENING);
        written += OPENING.length;
        const timer = setInterval(() => {
          res.write(' ');
          written++;
        }, 250);
        res.on('close', () => clearInterval(timer));
      } else if (fault === 'huge') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = 'x'.repeat(64 * 1024);
        let left = 160;
        res.write('{"data":[],"padding":"');
        const pump = () => {
          while (left > 0 && !res.destroyed) {
            left--;
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end('"}');
        };
        pump();
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '4000' });
        res.write(OPENING + ' '.repeat(200 - OPENING.length), () => setTimeout(() => res.socket?.destroy(), 20));
        written += 200;
      }
      return;
    }
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    hits: () => hits,
    written: () => written,
    serve: (path, html) => void pages.set(path, html),
    lift: () => {
      active = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
