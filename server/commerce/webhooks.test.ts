/**
 * Tests of Stripe's webhooks and of the reconciliation, through the official SDK against the Stripe double this file
 * starts (dev/stripe.ts), which sends its events signed to the server's endpoint: each kind of event and what it does
 * to an order, signatures (bad, missing, stale: 400 and nothing changes), replays (applied once), events out of
 * order (the objects are read back), and webhooks lost on the way (the reconciliation reads back what they would have
 * said). Run: node --import tsx --test server/commerce/webhooks.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endpoints, type Order } from '../../src/api/contract.js';
import type { ServerOptions } from '../app/server.js';
import type { StripeEvent } from '../dev/stripe-objects.js';
import { createLogger } from '../observability/log.js';
import { captureLog, Harness, ok } from '../testing/harness.js';
import { sleep } from '../testing/processes.js';
import { CARDS, TestStripe } from '../testing/stripe.js';
import { createStripeProvider } from './providers/stripe.js';
import { SETTLEMENT_MESSAGES } from './settlement.js';
import { ABANDONED_MS, createPaymentEvents, RECONCILE_GRACE_MS } from './webhooks.js';

/** Every line the server logs while this file runs (the secrets test reads them all). */
const logged: string[] = [];
const options: ServerOptions = {
  logger: createLogger({ level: 'trace', destination: { write: (line: string) => void logged.push(line) } }),
};
const h = new Harness(options);
const stripe = new TestStripe(() => h.nowMs);
before(async () => {
  options.stripe = await stripe.start();
  await h.start();
  stripe.sendTo([h.base]);
});
after(async () => {
  stripe.double.webhooks.release();
  await stripe.idle();
  await h.stop();
  await stripe.close();
});

const DAY = 86400;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const get = (path: string, token: string) => h.call(`/api/${path}?api_key=${h.key}`, { headers: auth(token) });
const post = (path: string, body: Record<string, unknown>, token: string) =>
  h.post(`/api/${path}`, { api_key: h.key, ...body }, auth(token));

let registered = 0;
async function newUser(): Promise<string> {
  const res = await post(
    'v2/auth/register',
    {
      first_name: 'Wes',
      last_name: 'Webhook',
      email: `hooked${++registered}@example.com`,
      password: 'hook-pass-1',
      password_confirmation: 'hook-pass-1',
      terms: true,
    },
    '',
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.data.token);
}

/** Buys a product with a test card: the order and, for 3-D Secure, its client secret. */
async function buy(token: string, product: Record<string, unknown>, card: string = CARDS.ok) {
  const res = await post(
    'stripe/buy',
    { ...product, confirmation_token: await stripe.token(card), idempotency_key: crypto.randomUUID() },
    token,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const data = endpoints.buy.response.parse(res.body).data;
  return { order: data.order, secret: data.action?.client_secret };
}

async function order(id: number, token: string): Promise<Order> {
  const res = await get(`orders/${id}`, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return endpoints.order.response.parse(res.body).data;
}

async function eventProduct(key: string) {
  const e = (await h.api(`events/${h.id(key)}`)).body.data;
  return { type: 'event', id: e.id, single_event_package_id: e.single_event_package_id };
}

const access = async (key: string, token: string) =>
  endpoints.event.response.parse((await get(`events/${h.id(key)}`, token)).body).data.has_access;

/** An order's row as the database has it (its processor objects, when it last changed). */
const row = async (id: number) => (await h.server.db.get('SELECT * FROM orders WHERE id = ?', [id]))!;
const transactions = async (id: number) =>
  (await h.server.db.all('SELECT status, amount, label FROM transactions WHERE order_id = ? ORDER BY id', [id])).map(
    (t) => [t.status, Number(t.amount), t.label],
  );
const applied = async (eventId: string) =>
  Number((await h.server.db.get('SELECT count(*) AS n FROM payment_events WHERE id = ?', [eventId]))!.n);

/** The one event of a type about an object, as the double recorded it. */
function eventOf(type: string, objectId: string): StripeEvent {
  const found = stripe.events(type).filter((e) => (e.data.object as { id: string }).id === objectId);
  assert.equal(found.length, 1, `one ${type} of ${objectId}`);
  return found[0]!;
}

/** A 3-D Secure purchase completed in the browser while no webhook is delivered: Stripe paid, the order waits. */
async function paidWithWebhooksHeld(token: string, key = 'paid-finished') {
  const { order: created, secret } = await buy(token, await eventProduct(key), CARDS.auth);
  stripe.double.webhooks.hold();
  assert.equal((await stripe.authenticate(secret!, true)).status, 'succeeded');
  assert.equal((await order(created.id, token)).status, 'created', 'Stripe paid, the order still waits for word');
  return created;
}

describe('signatures', () => {
  test('a bad, missing or stale signature, or a changed body: 400, and nothing changes', async () => {
    const token = await newUser();
    const created = await paidWithWebhooksHeld(token);
    const intent = stripe.intentsOf(created.id)[0]!.id;
    const event = eventOf('payment_intent.succeeded', intent);
    const payload = JSON.stringify(event);
    const tries: Array<[string, string | undefined, string]> = [
      ['another secret', stripe.signature(payload, undefined, 'whsec_not_the_channels'), payload],
      ['no signature', '', payload],
      ['stale (6 minutes old)', stripe.signature(payload, Math.floor(h.nowMs / 1000) - 360), payload],
      ['another body', stripe.signature(payload), payload.replace('"succeeded"', '"succeeded" ')],
    ];
    for (const [what, signature, body] of tries) {
      const res = await h.call('/stripe/webhooks/demo', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) },
        body,
      });
      assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
      ok(!JSON.stringify(res.body).includes(stripe.webhookSecret), 'never the secret');
    }
    assert.equal((await order(created.id, token)).status, 'created');
    assert.equal(await applied(event.id), 0, 'not recorded');
    // A channel nobody has, and GET: not an endpoint.
    assert.equal((await stripe.postEvent(h.base, event, undefined, 'no-such-channel')).status, 404);
    assert.equal((await h.call('/stripe/webhooks/demo')).status, 404);
    // Signed right: applied.
    assert.equal((await stripe.postEvent(h.base, event)).status, 200);
    assert.equal((await order(created.id, token)).status, 'paid');
    stripe.double.webhooks.release();
    await stripe.idle();
  });

  test('a replay (three times) changes the order once; every answer is 200', async () => {
    const token = await newUser();
    const created = await paidWithWebhooksHeld(token);
    const event = eventOf('payment_intent.succeeded', stripe.intentsOf(created.id)[0]!.id);
    const first = await stripe.postEvent(h.base, event);
    assert.deepEqual([first.status, first.body], [200, { received: true }]);
    const after = await row(created.id);
    tick(5000);
    for (let n = 0; n < 3; n++) {
      const again = await stripe.postEvent(h.base, event);
      assert.deepEqual([again.status, again.body], [200, { received: true, replay: true }]);
    }
    const now = await row(created.id);
    assert.deepEqual([now.status, now.updated_at], ['paid', after.updated_at], 'changed once');
    assert.deepEqual(await transactions(created.id), [['paid', 4.99, null]]);
    assert.equal(await applied(event.id), 1);
    // Stripe's own delivery, released late, is one more replay.
    stripe.double.webhooks.release();
    await stripe.idle();
    assert.deepEqual((await row(created.id)).updated_at, after.updated_at);
  });
});

describe('deliveries', () => {
  test('a webhook the server could not apply (Stripe unreachable for its read-back): 500, nothing kept; sent again, applied once', async () => {
    const token = await newUser();
    const created = await paidWithWebhooksHeld(token);
    const intent = stripe.intentsOf(created.id)[0]!.id;
    // The read-back fails as long as the SDK tries (its first call and its two retries).
    let failures = 3;
    stripe.double.beforeAnswer = async (method, path) => {
      if (method === 'GET' && path === `/v1/payment_intents/${intent}` && failures-- > 0)
        throw new Error('connection lost');
    };
    const { lines, restore } = captureLog();
    try {
      stripe.double.webhooks.release();
      await stripe.idle();
    } finally {
      stripe.double.beforeAnswer = undefined;
      restore();
    }
    ok(
      lines.some((line) => line.includes('"level":50') && line.includes('connection to Stripe')),
      `the failure is logged: ${lines.join('\n')}`,
    );
    const event = eventOf('payment_intent.succeeded', intent);
    assert.deepEqual(
      stripe.double.webhooks.deliveries.filter((d) => d.event === event.id).map((d) => d.status),
      [500, 200],
      'refused with a 5xx, then sent again and taken',
    );
    assert.equal((await order(created.id, token)).status, 'paid');
    assert.deepEqual(await transactions(created.id), [['paid', 4.99, null]]);
    assert.equal(await applied(event.id), 1);
  });
});

/** Moves the server's (and the double's) clock. */
function tick(ms: number): void {
  h.nowMs += ms;
}

describe('each kind of event', () => {
  test('payment_intent.succeeded pays; payment_intent.payment_failed fails with Stripe’s message', async () => {
    const token = await newUser();
    const created = await paidWithWebhooksHeld(token, 'ppv-live');
    assert.equal(await access('ppv-live', token), false);
    stripe.double.webhooks.release();
    await stripe.idle();
    assert.deepEqual([(await order(created.id, token)).status, await access('ppv-live', token)], ['paid', true]);

    const other = await newUser();
    const { order: refused, secret } = await buy(other, await eventProduct('ppv-live'), CARDS.auth3ds2);
    stripe.double.webhooks.hold();
    await stripe.authenticate(secret!, false);
    assert.equal((await order(refused.id, other)).status, 'created');
    stripe.double.webhooks.release();
    await stripe.idle();
    const failed = await order(refused.id, other);
    assert.deepEqual(
      [failed.status, failed.error],
      [
        'failed',
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      ],
    );
  });

  test('invoice.paid renews (a Subscription Renewal, the period extended); invoice.payment_failed makes it inactive', async () => {
    const { monthly } = await offers();
    const token = await newUser();
    const { order: created } = await buy(token, { type: 'subscription', id: monthly.id });
    await stripe.idle();
    const start = (await order(created.id, token)).expires_at!;
    const subscription = String((await row(created.id)).processor_subscription);
    stripe.double.billing.advance(subscription);
    await stripe.idle();
    const invoice = stripe.double.billing.subscription(subscription).latest_invoice!;
    ok(
      stripe.double.webhooks.deliveries.some((d) => d.type === 'invoice.paid' && d.status === 200),
      'invoice.paid was delivered',
    );
    assert.equal((await order(created.id, token)).expires_at, start + 30 * DAY);
    assert.deepEqual(await transactions(created.id), [
      ['paid', 9.99, 'New subscription'],
      ['paid', 9.99, 'Subscription Renewal'],
    ]);
    assert.equal(
      (await h.server.db.get('SELECT invoice FROM transactions WHERE order_id = ? ORDER BY id DESC LIMIT 1', [
        created.id,
      ]))!.invoice,
      invoice,
    );

    // The next renewal is refused: the card the subscription renews with asks for authentication every time.
    const strict = await newUser();
    const { order: other, secret } = await buy(strict, { type: 'subscription', id: monthly.id }, CARDS.authAlways);
    await stripe.authenticate(secret!, true);
    await stripe.idle();
    stripe.double.billing.advance(String((await row(other.id)).processor_subscription));
    await stripe.idle();
    const refused = await order(other.id, strict);
    assert.deepEqual(
      [refused.activity_status, refused.error],
      ['inactive', 'Your card was declined. This transaction requires authentication.'],
    );
    assert.deepEqual(
      (await transactions(other.id)).map((t) => t[0]),
      ['paid', 'failed'],
    );
  });

  test('customer.subscription.updated and .deleted: auto-renewal off and on again in Stripe’s dashboard; cancelled at once: canceled', async () => {
    const { token, created, subscription } = await subscribed();
    await stripe.sdk.subscriptions.update(subscription, { cancel_at_period_end: true });
    await stripe.idle();
    assert.equal((await order(created.id, token)).auto_renewal, 'cancelled');
    await stripe.sdk.subscriptions.update(subscription, { cancel_at_period_end: false });
    await stripe.idle();
    assert.equal((await order(created.id, token)).auto_renewal, 'active');
    await stripe.sdk.subscriptions.cancel(subscription);
    await stripe.idle();
    const ended = await order(created.id, token);
    assert.deepEqual(
      [ended.activity_status, ended.subscription_status, ended.auto_renewal],
      ['inactive', 'canceled', 'cancelled'],
    );
    assert.equal(await access('ppv-live', token), false);
  });

  test('customer.subscription.deleted at the period’s end (auto-renewal off): expired, access ends', async () => {
    const { token, created, subscription } = await subscribed();
    await stripe.sdk.subscriptions.update(subscription, { cancel_at_period_end: true });
    await stripe.idle();
    assert.equal(await access('ppv-live', token), true, 'paid through its period');
    for (let day = 0; day < 30; day += 10) {
      tick(10 * DAY * 1000);
      assert.equal((await get('profile', token)).status, 200);
    }
    stripe.double.billing.advance(subscription);
    await stripe.idle();
    ok(
      stripe.double.webhooks.deliveries.some((d) => d.type === 'customer.subscription.deleted' && d.status === 200),
      'customer.subscription.deleted was delivered',
    );
    const ended = await order(created.id, token);
    assert.deepEqual(
      [ended.status, ended.activity_status, ended.subscription_status, ended.auto_renewal],
      ['paid', 'inactive', 'expired', 'cancelled'],
    );
    assert.deepEqual(
      (await transactions(created.id)).map((t) => t[2]),
      ['New subscription'],
      'nothing charged at the end',
    );
    assert.equal(await access('ppv-live', token), false);
  });

  test('charge.refunded (in full) refunds the order and ends access; a partial refund changes nothing', async () => {
    const token = await newUser();
    const { order: created } = await buy(token, await eventProduct('paid-live'));
    await stripe.idle();
    assert.equal(await access('paid-live', token), true);
    const intent = stripe.intentsOf(created.id)[0]!.id;
    await stripe.sdk.refunds.create({ payment_intent: intent, amount: 100 });
    await stripe.idle();
    assert.equal((await order(created.id, token)).status, 'paid', 'a partial refund');
    await stripe.sdk.refunds.create({ payment_intent: intent });
    await stripe.idle();
    const refunded = await order(created.id, token);
    assert.deepEqual(
      [refunded.status, refunded.activity_status, refunded.error],
      ['refunded', 'inactive', SETTLEMENT_MESSAGES.refunded],
    );
    assert.deepEqual(await transactions(created.id), [['refunded', 14.99, null]]);
    assert.equal(await access('paid-live', token), false);
  });

  test('charge.dispute.created suspends access, and the order says why', async () => {
    const token = await newUser();
    const { order: created } = await buy(token, await eventProduct('paid-live'));
    await stripe.idle();
    stripe.double.ledger.dispute(stripe.intentsOf(created.id)[0]!.id, 'fraudulent');
    await stripe.idle();
    const disputed = await order(created.id, token);
    assert.deepEqual(
      [disputed.status, disputed.activity_status, disputed.error],
      ['disputed', 'inactive', 'Access is suspended: the payment is disputed with the bank (fraudulent).'],
    );
    assert.equal(await access('paid-live', token), false);
  });

  test('another channel’s events reach this endpoint too (one Stripe account) and change nothing here', async () => {
    const token = await newUser();
    const { order: created } = await buy(token, await eventProduct('paid-live'));
    await stripe.idle();
    const event = eventOf('payment_intent.succeeded', stripe.intentsOf(created.id)[0]!.id);
    const before = await row(created.id);
    assert.equal((await stripe.postEvent(h.base, event, undefined, 'demo-fr')).status, 200);
    assert.deepEqual(await row(created.id), before);
  });
});

/** A new viewer's monthly subscription, paid with 4242: the order and its Stripe subscription. */
async function subscribed() {
  const { monthly } = await offers();
  const token = await newUser();
  const { order: created } = await buy(token, { type: 'subscription', id: monthly.id });
  await stripe.idle();
  return { token, created, subscription: String((await row(created.id)).processor_subscription) };
}

async function offers() {
  const subscriptions = endpoints.subscriptions.response.parse(
    (await h.keyless('subscriptions', 'no_limit=1')).body,
  ).data;
  return { monthly: subscriptions[0]! };
}

describe('events out of order', () => {
  test('a refund delivered before the payment: the order stays refunded', async () => {
    const token = await newUser();
    const created = await paidWithWebhooksHeld(token);
    const intent = stripe.intentsOf(created.id)[0]!.id;
    await stripe.sdk.refunds.create({ payment_intent: intent });
    const charge = stripe.double.ledger.paymentIntent(intent).latest_charge!;
    // Delivered newest first: the refund, then the payment.
    assert.equal((await stripe.postEvent(h.base, eventOf('charge.refunded', charge))).status, 200);
    assert.equal((await stripe.postEvent(h.base, eventOf('payment_intent.succeeded', intent))).status, 200);
    const now = await order(created.id, token);
    assert.deepEqual([now.status, now.activity_status], ['refunded', 'inactive']);
    assert.equal(await access('paid-finished', token), false);
    stripe.double.webhooks.release();
    await stripe.idle();
    assert.equal((await order(created.id, token)).status, 'refunded');
  });

  test('subscription updates delivered in reverse: the subscription as it is now wins', async () => {
    const { token, created, subscription } = await subscribed();
    stripe.double.webhooks.hold();
    await stripe.sdk.subscriptions.update(subscription, { cancel_at_period_end: true });
    await stripe.sdk.subscriptions.update(subscription, { cancel_at_period_end: false });
    const updates = stripe
      .events('customer.subscription.updated')
      .filter((e) => (e.data.object as { id: string }).id === subscription)
      .slice(-2);
    // The older one (cancel) comes last: it says cancel, Stripe says renew.
    for (const event of updates.reverse()) assert.equal((await stripe.postEvent(h.base, event)).status, 200);
    assert.equal((await order(created.id, token)).auto_renewal, 'active');
    stripe.double.webhooks.release();
    await stripe.idle();
    assert.equal((await order(created.id, token)).auto_renewal, 'active');
  });
});

describe('the reconciliation', () => {
  test('a lost payment_intent.succeeded: the order is read back after the grace and paid', async () => {
    const token = await newUser();
    const { order: created, secret } = await buy(token, await eventProduct('paid-live-category'), CARDS.auth);
    stripe.double.webhooks.loseNext((e) => e.type === 'payment_intent.succeeded');
    await stripe.authenticate(secret!, true);
    await stripe.idle();
    assert.equal((await order(created.id, token)).status, 'created', 'the webhook was lost');
    await h.server.reconcile();
    assert.equal((await order(created.id, token)).status, 'created', 'not before the grace');
    tick(RECONCILE_GRACE_MS + 1000);
    await h.server.reconcile();
    assert.deepEqual(
      [(await order(created.id, token)).status, await access('paid-live-category', token)],
      ['paid', true],
    );
  });

  test('a lost renewal: the ended period is read back with its paid invoice', async () => {
    const { monthly } = await offers();
    const token = await newUser();
    const { order: created } = await buy(token, { type: 'subscription', id: monthly.id });
    await stripe.idle();
    const end = (await order(created.id, token)).expires_at!;
    for (let day = 0; day < 30; day += 10) {
      tick(10 * DAY * 1000);
      assert.equal((await get('profile', token)).status, 200);
    }
    // Stripe renews it, and its events never arrive.
    stripe.double.webhooks.endpoints.length = 0;
    stripe.double.billing.advance(String((await row(created.id)).processor_subscription));
    tick(RECONCILE_GRACE_MS + 1000);
    await h.server.reconcile();
    assert.equal((await order(created.id, token)).expires_at, end + 30 * DAY);
    assert.deepEqual(
      (await transactions(created.id)).map((t) => t[2]),
      ['New subscription', 'Subscription Renewal'],
    );
    stripe.sendTo([h.base]);
  });

  test('an authentication left open an hour is abandoned: the payment cancelled, the order failed', async () => {
    const token = await newUser();
    const { order: created } = await buy(token, await eventProduct('ppv-live'), CARDS.auth);
    tick(ABANDONED_MS + 1000);
    await h.server.reconcile();
    await stripe.idle();
    const failed = await order(created.id, token);
    assert.equal(failed.status, 'failed');
    assert.equal(stripe.intentsOf(created.id)[0]!.status, 'canceled');
  });

  test('an order that never reached Stripe (its process died first) fails after the grace', async () => {
    const token = await newUser();
    const user = (await get('profile', token)).body.data.id as number;
    const now = Math.floor(h.nowMs / 1000);
    const id = await h.server.db.insert(
      `INSERT INTO orders (channel_id, user_id, type, product_id, status, activity_status, price, currency, idempotency_key,
       created_at, updated_at, payment_attempt_at) VALUES (1, ?, 'event', ?, 'created', 'inactive', 4.99, 'USD', 'lost', ?, ?, ?)`,
      [user, h.id('paid-finished'), now, now, h.nowMs],
    );
    tick(RECONCILE_GRACE_MS + 1000);
    await h.server.reconcile();
    const failed = await order(id, token);
    assert.deepEqual([failed.status, failed.error], ['failed', SETTLEMENT_MESSAGES.notCompleted]);
  });

  test('it runs at start, then every interval on its own', async () => {
    const events = createPaymentEvents({
      db: h.server.db,
      nowMs: () => h.nowMs,
      providers: () => createStripeProvider(options.stripe!, () => h.nowMs),
      channelOf: (key) => (key === 'demo' ? { id: 1, key } : undefined),
      intervalMs: 50,
    });
    const lost = async (key: string) => {
      const token = await newUser();
      const { order: created, secret } = await buy(token, await eventProduct(key), CARDS.auth);
      stripe.double.webhooks.loseNext((e) => e.type === 'payment_intent.succeeded');
      await stripe.authenticate(secret!, true);
      await stripe.idle();
      assert.equal((await order(created.id, token)).status, 'created', 'the webhook was lost');
      return { id: created.id, token };
    };
    const first = await lost('paid-finished');
    tick(RECONCILE_GRACE_MS + 1000);
    await events.start();
    try {
      assert.equal((await order(first.id, first.token)).status, 'paid', 'read back by the run at start');
      const second = await lost('paid-live');
      tick(RECONCILE_GRACE_MS + 1000);
      let status = '';
      for (let n = 0; n < 100 && status !== 'paid'; n++) {
        await sleep(20);
        status = (await order(second.id, second.token)).status;
      }
      assert.equal(status, 'paid', 'read back by a later run, nobody asking');
    } finally {
      await events.stop();
    }
  });
});

describe('secrets', () => {
  test('the secret key and the webhook secret are never in GET settings nor in the log; client secrets never logged', async () => {
    const { lines, restore } = captureLog();
    let settings: unknown;
    let secret: string | undefined;
    try {
      settings = (await h.keyless('settings')).body;
      const token = await newUser();
      const bought = await buy(token, await eventProduct('paid-finished'), CARDS.auth);
      secret = bought.secret;
      await stripe.authenticate(secret!, true);
      await stripe.idle();
      await h.call('/stripe/webhooks/demo', {
        method: 'POST',
        headers: { 'Stripe-Signature': 't=1,v1=00' },
        body: '{}',
      });
      await h.server.reconcile();
    } finally {
      restore();
    }
    const text = JSON.stringify(settings);
    ok(text.includes('pk_test_'), `the publishable key is in the settings: ${text}`);
    ok(secret?.includes('_secret_'), 'the buyer got the client secret');
    // What the server logged while this file ran (every kind of webhook, refused ones too), and its modules now.
    const log = [...logged, ...lines].join('\n');
    ok(
      logged.some((line) => line.includes('stripeWebhook')),
      'the server logged its webhooks',
    );
    for (const [what, value] of [
      ['the secret key', stripe.secretKey],
      ['the webhook secret', stripe.webhookSecret],
    ] as const)
      ok(!text.includes(value) && !log.includes(value), `${what} was given away`);
    ok(!log.includes(secret!), 'the client secret was logged');
  });
});
