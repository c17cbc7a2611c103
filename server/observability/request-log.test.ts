/**
 * The request log's answers (request-log.ts): every answer carries its request's id once, however its headers were
 * written (an object given to writeHead, a status message too, headers set one by one, a raw list, none at all), the
 * other headers as they were; and each request is measured and logged once, with its route.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createLogger } from './log.js';
import { createMetrics } from './metrics.js';
import { nameRoute, observedServerOptions, observeRequests, requestIdOf } from './request-log.js';

/** How each path answers. */
const answers: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/object': (req, res) => {
    nameRoute(req, 'object-route');
    res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Own': 'kept' });
    res.end(requestIdOf(req));
  },
  '/message': (_req, res) => {
    res.writeHead(201, 'Made', { 'X-Own': 'kept' });
    res.end();
  },
  '/one-by-one': (_req, res) => {
    res.setHeader('X-Own', 'kept');
    res.statusCode = 202;
    res.end('implicit');
  },
  '/raw': (_req, res) => {
    res.writeHead(203, ['X-Own', 'kept']);
    res.end();
  },
  '/bare': (_req, res) => {
    res.writeHead(204);
    res.end();
  },
};

test('every answer carries its request id once, its own headers kept; each request is logged and measured once', async () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  const metrics = createMetrics();
  const server = createServer(
    observedServerOptions,
    observeRequests((req, res) => answers[req.url ?? '']!(req, res), { logger, metrics, listener: 'main' }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const ids = new Set<string>();
    for (const [path, status] of [
      ['/object', 200],
      ['/message', 201],
      ['/one-by-one', 202],
      ['/raw', 203],
      ['/bare', 204],
    ] as const) {
      const res = await fetch(`${origin}${path}`);
      assert.equal(res.status, status, path);
      const id = res.headers.get('x-request-id') ?? '';
      assert.match(id, /^[0-9a-f-]{36}$/, `${path}: one made id (not two joined)`);
      ids.add(id);
      if (path !== '/bare') assert.equal(res.headers.get('x-own'), 'kept', `${path}: its own header`);
      if (path === '/object') assert.equal(await res.text(), id, 'the handler reads the id it is sent with');
      else await res.arrayBuffer();
    }
    assert.equal(ids.size, 5, 'an id per request');

    const chosen = await fetch(`${origin}/message`, { headers: { 'X-Request-Id': 'caller.id-1' } });
    assert.equal(chosen.headers.get('x-request-id'), 'caller.id-1', 'a caller’s plain id comes back');
    const odd = await fetch(`${origin}/message`, { headers: { 'X-Request-Id': 'has spaces & more' } });
    assert.match(odd.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, 'any other is replaced');

    // The lines are written as each answer closes.
    for (let i = 0; i < 50 && lines.length < 7; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(logged.length, 7, 'one line per request');
    assert.deepEqual(
      logged.map((line) => [line.route, line.status]),
      [
        ['object-route', 200],
        ['static', 201],
        ['static', 202],
        ['static', 203],
        ['static', 204],
        ['static', 201],
        ['static', 201],
      ],
    );
    assert.equal(logged[5]!.reqId, 'caller.id-1');
    const text = await metrics.registry.metrics();
    assert.match(
      text,
      /channel_http_request_duration_seconds_count\{route="object-route",method="GET",status="200"\} 1\n/,
    );
    assert.match(text, /channel_http_request_duration_seconds_count\{route="static",method="GET",status="201"\} 3\n/);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
