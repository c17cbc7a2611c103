/**
 * Running behind a load balancer, as an operator runs the server: a real production-mode process (main.ts) with
 * its operations listener (operations.ts). Health and readiness, the metrics in Prometheus's text format, one JSON
 * log line per request with no secret in any line, card payments once a Stripe account is configured (here the
 * test's Stripe double, through the same SDK code), and SIGTERM's drain.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { endpoints } from '../../src/api/contract.js';
import { testDatabase } from '../testing/harness.js';
import { idempotencyKey, ServerProcess, sleep, until } from '../testing/processes.js';
import { CARDS, TestStripe } from '../testing/stripe.js';

const VIEWER = { email: 'viewer@example.com', password: 'viewer-pass-1' };

let database: Awaited<ReturnType<typeof testDatabase>>;
let tmp = '';
let server: ServerProcess;
/** The channel's Stripe account: STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_API_URL name this double. */
const stripe = new TestStripe();

before(async () => {
  database = await testDatabase();
  await stripe.start();
  tmp = mkdtempSync(join(tmpdir(), 'channel-operations-test-'));
  server = new ServerProcess('ops', {
    dataDir: join(tmp, 'data'),
    mode: 'production',
    env: {
      DATABASE_URL: database.options.databaseUrl,
      DATABASE_TEMPLATES: database.options.databaseTemplates,
      DRAIN_SECONDS: '30',
      LOG_LEVEL: 'info',
      ...stripe.env,
    },
  });
  await server.start();
  stripe.sendTo([server.base]);
});

after(async () => {
  await server.kill();
  await stripe.close();
  await database.drop();
  rmSync(tmp, { recursive: true, force: true });
});

/** GET on the operations listener: status and text. */
async function ops(path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.operations}${path}`);
  return { status: res.status, text: await res.text() };
}

/** The samples of a Prometheus text exposition, each line checked against the format. */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  const out: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      assert.match(line, /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /, line);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|Nan|[+-]Inf)$/.exec(line);
    assert.ok(m, `not a Prometheus sample line: ${line}`);
    const labels = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]),
    );
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The log lines the process wrote, parsed (every one must be JSON). */
function logLines(): Array<Record<string, unknown>> {
  return server.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('card payments in production, once a Stripe account is configured', () => {
  test('no 503: a purchase is a PaymentIntent, 3-D Secure is handed to the browser, the signed webhook unlocks the event', async () => {
    const token = await server.register('production-payer@example.com', 'payer-pass-1');
    const listed = endpoints.events.response.parse((await server.get('events', token)).body).data;
    const onSale = listed.find((e) => e.single_event_package_id !== null && !e.has_access);
    assert.ok(onSale, 'an event on sale');
    const bought = await server.send(
      'stripe/buy',
      {
        type: 'event',
        id: onSale.id,
        single_event_package_id: onSale.single_event_package_id,
        confirmation_token: await stripe.token(CARDS.auth),
        idempotency_key: idempotencyKey(),
      },
      token,
    );
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    const purchase = endpoints.buy.response.parse(bought.body).data;
    assert.equal(purchase.order.status, 'created', 'waiting for the authentication');
    const secret = purchase.action?.client_secret;
    assert.ok(secret, 'the intent’s client secret for handleNextAction');
    const intent = secret.split('_secret_')[0]!;
    const charged = stripe.double.ledger.paymentIntent(intent);
    assert.deepEqual([charged.metadata.order_id, charged.currency], [String(purchase.order.id), 'usd']);
    assert.equal((await stripe.authenticate(secret, true)).status, 'succeeded');
    await stripe.idle();
    const delivered = stripe
      .events('payment_intent.succeeded')
      .find((e) => (e.data.object as { id: string }).id === intent);
    assert.ok(delivered, 'Stripe sent payment_intent.succeeded');
    const order = endpoints.order.response.parse((await server.get(`orders/${purchase.order.id}`, token)).body).data;
    assert.deepEqual([order.status, order.activity_status], ['paid', 'active']);
    const event = endpoints.event.response.parse((await server.get(`events/${onSale.id}`, token)).body).data;
    assert.equal(event.has_access, true, 'the event unlocks');
    // A body not signed with the webhook secret changes nothing.
    const forged = await stripe.postEvent(server.base, delivered, stripe.signature('{}'));
    assert.equal(forged.status, 400);
    // Neither secret is ever written to the log.
    for (const secret of [stripe.secretKey, stripe.webhookSecret])
      assert.ok(!server.stdout.includes(secret), 'a Stripe secret in the log');
  });
});

describe('behind a load balancer', () => {
  test('health and readiness answer on their own listener, and the metrics parse as Prometheus text', async () => {
    assert.ok(server.operations, 'main.ts printed the operations listener');
    assert.deepEqual(await ops('/healthz'), { status: 200, text: '{"status":"ok"}' });
    assert.deepEqual(await ops('/readyz'), { status: 200, text: '{"status":"ready"}' });
    assert.equal((await ops('/nothing')).status, 404);
    // The public listener does not answer them.
    assert.equal((await server.call('/metrics')).status, 404);

    const count = async () =>
      samples((await ops('/metrics')).text).find(
        (s) =>
          s.name === 'channel_http_request_duration_seconds_count' &&
          s.labels.route === 'settings' &&
          s.labels.method === 'GET' &&
          s.labels.status === '200',
      )?.value ?? 0;
    const before = await count();
    for (let i = 0; i < 3; i++) assert.equal((await server.call('/api/settings?channel_key=demo')).status, 200);
    assert.equal(await count(), before + 3, 'the request counter moved by the three requests');
    const all = samples((await ops('/metrics')).text);
    const names = new Set(all.map((s) => s.name));
    for (const name of [
      'channel_db_pool_connections',
      'channel_clip_jobs',
      'channel_emails_pending',
      'channel_settlement_lag_seconds',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      assert.ok(names.has(name), `${name} is exported`);
    assert.deepEqual(
      all
        .filter((s) => s.name === 'channel_db_pool_connections')
        .map((s) => s.labels.state)
        .sort(),
      ['idle', 'total', 'waiting'],
    );
    // Labels are routes and kinds, never paths: an api key or a media grant cannot become a label.
    for (const s of all.filter((s) => s.labels.route !== undefined))
      assert.doesNotMatch(s.labels.route!, /\//, `route label ${s.labels.route}`);
  });

  test('one JSON line per request with its id, method, route, status and duration; no secret in any line', async () => {
    const res = await fetch(`${server.base}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'ops-test-login-1' },
      body: JSON.stringify({ api_key: server.key, ...VIEWER }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-request-id'), 'ops-test-login-1', 'the caller’s id comes back');
    const token = String(((await res.json()) as { data: { token: string } }).data.token);
    const wrong = await server.send('v2/auth/login', { email: VIEWER.email, password: 'not-the-password-9' });
    assert.notEqual(wrong.status, 200);
    const made = wrong.headers.get('x-request-id') ?? '';
    assert.match(made, /^[0-9a-f-]{36}$/, 'an id is made when none is given');
    assert.equal((await server.get('profile', token)).status, 200);

    const line = await until('the login request to be logged', async () =>
      logLines().find((entry) => entry.reqId === 'ops-test-login-1'),
    );
    assert.deepEqual(
      [line.method, line.route, line.status, typeof line.ms, line.msg, typeof line.time],
      ['POST', 'login', 200, 'number', 'request', 'number'],
    );
    await until('the other two to be logged', async () => {
      const ids = logLines().map((entry) => entry.reqId);
      return ids.includes(made) && logLines().some((entry) => entry.route === 'profile');
    });
    // Nothing of the sign-in: not the password (right or wrong), the token, the api key or the email address.
    for (const secret of [VIEWER.password, 'not-the-password-9', token, server.key, VIEWER.email, 'viewer@'])
      assert.ok(!server.stdout.includes(secret), `the log holds ${secret}`);
  });

  test('SIGTERM drains: readiness 503, no new connection, the request in flight answered, exit 0', async () => {
    // A sign-in whose body is half sent when the signal arrives: it is in flight.
    const body = JSON.stringify({ api_key: server.key, ...VIEWER });
    const { port } = new URL(server.base);
    let answer: (value: { status: number; connection: string; text: string }) => void;
    const answered = new Promise<{ status: number; connection: string; text: string }>((resolve) => (answer = resolve));
    const inFlight = httpRequest(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path: '/api/v2/auth/login',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Host: `localhost:${port}`,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => answer({ status: res.statusCode ?? 0, connection: String(res.headers.connection), text }));
      },
    );
    inFlight.write(body.slice(0, 10));
    await until('the request to reach the server', async () => logLines().length > 0 && (await sleep(300), true));
    const exited = server.terminate();
    await until(
      'readiness to turn 503',
      async () => (await ops('/readyz').catch(() => ({ status: 0 }))).status === 503,
    );
    assert.deepEqual(JSON.parse((await ops('/readyz')).text), { status: 'draining' });
    assert.equal((await ops('/healthz')).status, 200, 'the process still answers');
    // A new connection is refused while the one in flight is still open.
    await assert.rejects(fetch(`${server.base}/api/settings?api_key=${server.key}`), 'a new request is refused');
    inFlight.end(body.slice(10));
    const done = await answered;
    assert.equal(done.status, 200, done.text);
    assert.equal(done.connection, 'close');
    assert.equal(await exited, 0, server.output());
  });
});
