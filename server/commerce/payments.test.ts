/**
 * Tests of checkout and payments on the reference server, through the official `stripe` SDK against the Stripe
 * double (dev/stripe.ts) this file starts: pricing and its errors, coupons, purchases as PaymentIntents of the total
 * (paid, declined, 3-D Secure completed or failed), idempotency on our side and on the wire, access after a purchase,
 * saved cards, subscriptions on Stripe Billing (renewals, coupons, auto-renewal), trials with a card saved through
 * the subscription's setup intent, the customer portal, the tag-manager stand-in, the dev endpoints and partner
 * attribution. Answers are parsed with the contract's schemas, as the client parses them; what went to Stripe is
 * read from the double. The webhooks themselves (each kind, signatures, replays, order, reconciliation) are
 * webhooks.test.ts. Run: node --import tsx --test server/commerce/payments.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endpoints, type Order } from '../../src/api/contract.js';
import type { ServerOptions } from '../app/server.js';
import { PAYMENT_MESSAGES } from './payments.js';
import { Harness, ok, type Account, type Answer } from '../testing/harness.js';
import { CARDS, TestStripe } from '../testing/stripe.js';

const options: ServerOptions = {};
const h = new Harness(options);
const stripe = new TestStripe(() => h.nowMs);
before(async () => {
  options.stripe = await stripe.start();
  await h.start();
  stripe.sendTo([h.base], ['demo', 'demo-fr']);
});
after(async () => {
  await stripe.idle();
  await h.stop();
  await stripe.close();
});

const DAY = 86400;

const auth = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
const get = (path: string, token?: string, query = '') =>
  h.call(`/api/${path}?api_key=${h.key}${query ? `&${query}` : ''}`, { headers: auth(token) });
const post = (path: string, body: Record<string, unknown>, token?: string) =>
  h.post(`/api/${path}`, { api_key: h.key, ...body }, auth(token));
const pricing = (query: string, token?: string) => get('pricing', token, query);
/** Moves the server clock (and the double's, which reads it) on by `ms`. */
const tick = (ms: number) => {
  h.nowMs += ms;
};
/**
 * Moves the clocks on by whole days while the viewer keeps coming back every ten days (a token ends 30 days after its
 * last use), so long subscription periods can pass without signing in again.
 */
async function passDays(days: number, token: string): Promise<void> {
  for (let left = days; left > 0; left -= 10) {
    tick(Math.min(10, left) * DAY * 1000);
    assert.equal((await get('profile', token)).status, 200, 'the token stays alive while in use');
  }
}

let registered = 0;
/** A fresh account (no orders, trial unused): its token. */
async function newUser(): Promise<{ email: string; token: string }> {
  const email = `shopper${++registered}@example.com`;
  const res = await post('v2/auth/register', {
    first_name: 'Sam',
    last_name: 'Shopper',
    email,
    password: 'shop-pass-1',
    password_confirmation: 'shop-pass-1',
    terms: true,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { email, token: String(res.body.data.token) };
}

let keys = 0;
const newKey = () => `00000000-0000-4000-8000-${String(++keys).padStart(12, '0')}`;

/** POST stripe/buy (a new idempotency key unless given); answers the raw answer. */
const buy = (body: Record<string, unknown>, token?: string) =>
  post('stripe/buy', { idempotency_key: newKey(), ...body }, token);

/** A purchase that must be accepted: the order, and the client secret when 3-D Secure is asked for. */
async function bought(body: Record<string, unknown>, token: string): Promise<Order & { action?: string }> {
  const res = await buy(body, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const data = endpoints.buy.response.parse(res.body).data;
  return { ...data.order, action: data.action?.client_secret };
}

async function order(id: number, token: string): Promise<Order> {
  const res = await get(`orders/${id}`, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return endpoints.order.response.parse(res.body).data;
}

/** The order once every webhook on its way arrived (what the order poll sees next). */
async function settled(id: number, token: string): Promise<Order> {
  await stripe.idle();
  return order(id, token);
}

/** The event of a fixture key as a user sees it. */
async function event(key: string, token?: string) {
  return endpoints.event.response.parse((await get(`events/${h.id(key)}`, token)).body).data;
}

/** What a single-event purchase of a fixture event sends. */
async function eventProduct(key: string) {
  const e = await event(key);
  return { type: 'event', id: e.id, single_event_package_id: e.single_event_package_id };
}

/** Asserts a 422 with this message, also as errors[field]. */
function refused(res: Answer, field: string, message: string): void {
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.message, message);
  ok(
    res.body.errors?.[field]?.includes(message),
    `errors.${field} should hold '${message}': ${JSON.stringify(res.body)}`,
  );
}

/** The demo's offers: the category pass, the team pass (and its teams), the monthly and annual subscriptions. */
async function offers() {
  const packages = endpoints.packages.response.parse((await h.keyless('packages', 'no_limit=1')).body).data;
  const subscriptions = endpoints.subscriptions.response.parse(
    (await h.keyless('subscriptions', 'no_limit=1')).body,
  ).data;
  return { category: packages[0]!, team: packages[1]!, monthly: subscriptions[0]!, annual: subscriptions[1]! };
}

/** An order of the dev endpoint, with its transactions and its Stripe objects. */
type DevOrder = Order & {
  transactions: Array<{ status: string; amount: number; label: string | null; invoice: string | null }>;
  email: string;
  partner: string | null;
  payment_intent: string | null;
  subscription: string | null;
};

/** Orders of the dev endpoint for one email. */
async function devOrders(email: string): Promise<DevOrder[]> {
  const res = await h.call(`/__dev/orders?channel_key=demo&email=${encodeURIComponent(email)}`);
  assert.equal(res.status, 200);
  return res.body.data;
}

/** The viewer's Stripe customer (one per viewer and channel). */
async function customerOf(email: string): Promise<string> {
  const row = await h.server.db.get(
    'SELECT pc.customer FROM payment_customers pc JOIN users u ON u.id = pc.user_id WHERE lower(u.email) = lower(?)',
    [email],
  );
  ok(row, `${email} has a Stripe customer`);
  return String(row.customer);
}

describe('pricing', () => {
  test('the pricing errors, and unknown types, products and teams', async () => {
    const { team, category } = await offers();
    const paid = await eventProduct('ppv-live');
    refused(await pricing('type=event'), 'id', PAYMENT_MESSAGES.noId);
    refused(await pricing('type=package&id='), 'id', 'id not selected');
    refused(
      await pricing(`type=event&id=${paid.id}`),
      'single_event_package_id',
      'A paid event needs a single-event package id',
    );
    refused(
      await pricing(`type=event&id=${paid.id}&single_event_package_id=${category.id}`),
      'single_event_package_id',
      PAYMENT_MESSAGES.otherPackage,
    );
    refused(await pricing(`type=package&id=${team.id}`), 'participant_id', 'Package is TeamPass but team not selected');
    refused(
      await pricing(`type=package&id=${team.id}&participant_id=999999`),
      'participant_id',
      PAYMENT_MESSAGES.otherTeam,
    );
    refused(await pricing(`type=event&id=${h.id('free-live')}`), 'id', PAYMENT_MESSAGES.freeEvent);
    refused(await pricing(`type=package&id=${paid.single_event_package_id}`), 'id', PAYMENT_MESSAGES.singleAsPackage);
    refused(await pricing('type=coffee&id=1'), 'type', 'The type must be one of event, package, subscription.');
    assert.equal((await pricing('type=event&id=999999&single_event_package_id=1')).status, 404);
    assert.equal((await pricing('type=subscription&id=999')).status, 404);
    // Another channel's package is unknown here.
    const fr = (await h.call('/api/packages?channel_key=demo-fr&no_limit=1')).body.data[0];
    assert.equal((await pricing(`type=package&id=${fr.id}`)).status, 404);
  });

  test('the breakdown: price before fees, the fee as taxes, the total; in the channel currency', async () => {
    const { category, team, monthly, annual } = await offers();
    const pass = endpoints.pricing.response.parse((await pricing(`type=package&id=${category.id}`)).body).data;
    assert.deepEqual(
      [
        pass.type,
        pass.name,
        pass.price,
        pass.base_price,
        pass.service_fee,
        pass.discount,
        pass.total,
        pass.currency,
        pass.coupon,
        pass.purchased,
      ],
      ['package', 'Hockey Season Pass', 27.99, 27.99, 2, 0, 29.99, 'USD', null, false],
    );
    // An event sells at its own price, with its single-event pass's fee: 24.99 is 22.49 plus 2.50.
    const paid = await eventProduct('ppv-live');
    const e = endpoints.pricing.response.parse(
      (await pricing(`type=event&id=${paid.id}&single_event_package_id=${paid.single_event_package_id}`)).body,
    ).data;
    assert.deepEqual([e.name, e.price, e.service_fee, e.total], [(await event('ppv-live')).name, 22.49, 2.5, 24.99]);
    const teamPass = endpoints.pricing.response.parse(
      (await pricing(`type=package&id=${team.id}&participant_id=${team.participants[0]}`)).body,
    ).data;
    assert.deepEqual([teamPass.participant_id, teamPass.total], [team.participants[0], 19.99]);
    const sub = endpoints.pricing.response.parse((await pricing(`type=subscription&id=${monthly.id}`)).body).data;
    assert.deepEqual(
      [sub.offer, sub.trial_period, sub.price, sub.service_fee, sub.total],
      ['monthly', 7, 8.99, 1, 9.99],
    );
    const year = endpoints.pricing.response.parse((await pricing(`type=subscription&id=${annual.id}`)).body).data;
    assert.deepEqual([year.offer, year.trial_period, year.total], ['annual', 0, 99.99]);
    // Every offer has a base price and a fee to show as 'Taxes'.
    const packages = endpoints.packages.response.parse((await h.keyless('packages', 'no_limit=1')).body).data;
    assert.equal(packages.length, 7);
    ok(
      packages.every(
        (p) => p.base_price! > 0 && p.service_fee! > 0 && Math.abs(p.base_price! + p.service_fee! - p.price) < 0.001,
      ),
      'packages carry base price and fee',
    );
    // demo-fr prices in its own currency.
    const frKey = await h.apiKey('demo-fr');
    const frSub = (await h.call(`/api/subscriptions?channel_key=demo-fr&no_limit=1`)).body.data[0];
    const fr = await h.call(`/api/pricing?api_key=${frKey}&type=subscription&id=${frSub.id}`);
    assert.deepEqual([fr.body.data.currency, fr.body.data.total], ['CAD', 12.99]);
  });

  test('coupons: a percentage or a fixed amount off the price before fees; any case; a bad one is refused', async () => {
    const { category } = await offers();
    const ten = endpoints.pricing.response.parse(
      (await pricing(`type=package&id=${category.id}&coupon=save10`)).body,
    ).data;
    assert.deepEqual([ten.coupon, ten.discount, ten.total], ['SAVE10', 2.8, 27.19]);
    const five = endpoints.pricing.response.parse(
      (await pricing(`type=package&id=${category.id}&coupon=FIVEOFF`)).body,
    ).data;
    assert.deepEqual([five.discount, five.total], [5, 24.99]);
    // A fixed amount never takes off more than the price: the fee is still due.
    const cheap = await eventProduct('paid-finished');
    const small = endpoints.pricing.response.parse(
      (
        await pricing(
          `type=event&id=${cheap.id}&single_event_package_id=${cheap.single_event_package_id}&coupon=FIVEOFF`,
        )
      ).body,
    ).data;
    assert.deepEqual([small.price, small.discount, small.total], [4.49, 4.49, 0.5]);
    refused(await pricing(`type=package&id=${category.id}&coupon=NOPE`), 'coupon', 'Wrong promo code');
  });

  test('purchased: from the paid, active orders of the user (an event through a pass or subscription too)', async () => {
    const { category, team, monthly } = await offers();
    const paidLive = await eventProduct('paid-live');
    const eventQuery = `type=event&id=${paidLive.id}&single_event_package_id=${paidLive.single_event_package_id}`;
    const flag = async (query: string, account?: Account) =>
      endpoints.pricing.response.parse((await h.api('pricing', account, query)).body).data.purchased;
    assert.equal(await flag(eventQuery, 'buyer'), true);
    assert.equal(await flag(eventQuery, 'viewer'), false);
    assert.equal(await flag(eventQuery), false);
    assert.equal(await flag(eventQuery, 'subscriber'), true);
    assert.equal(await flag(`type=subscription&id=${monthly.id}`, 'subscriber'), true);
    assert.equal(await flag(`type=subscription&id=${monthly.id}`, 'buyer'), false);
    assert.equal(await flag(`type=package&id=${category.id}`, 'passholder'), true);
    // The passholder's team pass is for one team: that team is purchased, another is not.
    const participants = endpoints.participants.response.parse(
      (await h.keyless('participants', 'no_limit=1')).body,
    ).data;
    const coastal = participants.find((p) => p.alias === 'coastal-pacific-m-soccer')!;
    const other = team.participants.find((id) => id !== coastal.id)!;
    assert.equal(await flag(`type=package&id=${team.id}&participant_id=${coastal.id}`, 'passholder'), true);
    assert.equal(await flag(`type=package&id=${team.id}&participant_id=${other}`, 'passholder'), false);
    // The subscriber used the trial: none left for them.
    const sub = endpoints.pricing.response.parse(
      (await h.api('pricing', 'subscriber', `type=subscription&id=${monthly.id}`)).body,
    ).data;
    assert.equal(sub.trial_period, 0);
  });
});

describe('apply_coupon', () => {
  test('a valid code and its discount (on a product when named); a bad one: 422 Wrong promo code', async () => {
    const { category } = await offers();
    const coupon = (query: string) => get('apply_coupon', undefined, query);
    const ten = endpoints.applyCoupon.response.parse(
      (await coupon(`code=Save10&type=package&id=${category.id}`)).body,
    ).data;
    assert.deepEqual(ten, { code: 'SAVE10', discount: 2.8, percent: 10 });
    const five = endpoints.applyCoupon.response.parse((await coupon('code=FIVEOFF')).body).data;
    assert.deepEqual(five, { code: 'FIVEOFF', discount: 5, percent: null });
    refused(await coupon(`code=WRONG&type=package&id=${category.id}`), 'code', 'Wrong promo code');
    refused(await coupon('code='), 'code', 'The code field is required.');
    // A coupon of the other channel is not one of this channel's.
    const frKey = await h.apiKey('demo-fr');
    assert.equal((await h.call(`/api/apply_coupon?api_key=${frKey}&code=SAVE10`)).status, 200);
    assert.equal((await coupon('code=SAVE10&type=package')).status, 422, 'a product named needs its id');
  });
});

describe('stripe/buy', () => {
  test('a guest is asked to sign in; the body is checked like pricing; what pays is required', async () => {
    const paid = await eventProduct('ppv-live');
    const guest = await buy({ ...paid, confirmation_token: await stripe.token() });
    assert.equal(guest.status, 401);
    const { token } = await newUser();
    const { team } = await offers();
    refused(
      await buy({ type: 'package', id: team.id, confirmation_token: await stripe.token() }, token),
      'participant_id',
      PAYMENT_MESSAGES.noTeam,
    );
    refused(
      await buy({ type: 'event', id: paid.id, confirmation_token: await stripe.token() }, token),
      'single_event_package_id',
      PAYMENT_MESSAGES.noSingleEventPackage,
    );
    const missing = await post('stripe/buy', { ...paid }, token);
    assert.equal(missing.status, 422);
    assert.deepEqual(Object.keys(missing.body.errors).sort(), ['idempotency_key', 'payment_method']);
    assert.deepEqual(missing.body.errors.payment_method, [PAYMENT_MESSAGES.noPaymentMethod]);
  });

  test('4242: a PaymentIntent of the total in cents under the purchase key, paid, the player unlocks', async () => {
    const { email, token } = await newUser();
    const paid = await eventProduct('ppv-live');
    assert.equal((await event('ppv-live', token)).has_access, false);
    const key = newKey();
    const created = await bought(
      { ...paid, confirmation_token: await stripe.token(), coupon: 'SAVE10', idempotency_key: key },
      token,
    );
    assert.deepEqual(
      [created.type, created.product.id, created.price, created.currency, created.action],
      ['event', paid.id, 22.74, 'USD', undefined],
    );
    ok(created.reference, 'an order has a reference to quote');
    // What went to Stripe: one customer for the viewer, one PaymentIntent of 22.74 USD in cents, confirmed at once
    // under the purchase's idempotency key, naming the channel and the order; the card paid.
    const customer = await customerOf(email);
    const [intent, ...more] = stripe.intentsOf(created.id);
    assert.deepEqual(more, []);
    assert.deepEqual(
      [intent!.amount, intent!.currency, intent!.customer, intent!.status, intent!.metadata],
      [2274, 'usd', customer, 'succeeded', { channel: 'demo', order_id: String(created.id) }],
    );
    const call = stripe.double.requests.find((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    assert.equal(
      call?.idempotencyKey,
      `purchase:demo:${(await h.server.db.get('SELECT user_id FROM orders WHERE id = ?', [created.id]))!.user_id}:${key}`,
    );
    assert.equal(call?.key, 'secret', 'the server calls Stripe with the secret key');
    // Paid by Stripe's answer (and its webhook, which changes nothing more).
    const done = await settled(created.id, token);
    assert.deepEqual([done.status, done.activity_status, done.error ?? null], ['paid', 'active', null]);
    const live = await event('ppv-live', token);
    assert.equal(live.has_access, true);
    ok(Harness.mediaUrl(live, 'live'), 'the stream URL comes with access');
    const [row] = await devOrders(email);
    assert.deepEqual(
      [row!.payment_intent, row!.transactions.map((t) => [t.status, t.amount])],
      [intent!.id, [['paid', 22.74]]],
    );
    const transactions = endpoints.transactions.response.parse((await get('transactions', token)).body).data;
    assert.deepEqual(
      transactions.map((t) => [t.status, t.order_id]),
      [['paid', created.id]],
    );
    // Bought is bought: pricing says so, and another purchase of it is refused before Stripe is asked.
    assert.equal(
      (await pricing(`type=event&id=${paid.id}&single_event_package_id=${paid.single_event_package_id}`, token)).body
        .data.purchased,
      true,
    );
    const again = await buy({ ...paid, confirmation_token: await stripe.token() }, token);
    assert.deepEqual([again.status, again.body.message], [422, PAYMENT_MESSAGES.purchased]);
    assert.equal(stripe.chargesOf(customer).length, 1, 'one charge');
  });

  test('declined and insufficient funds fail at once with the card message; nothing is paid, no access', async () => {
    for (const [number, message] of [
      [CARDS.declined, 'Your card was declined.'],
      [CARDS.insufficient, 'Your card has insufficient funds.'],
    ] as const) {
      const { email, token } = await newUser();
      const failed = await bought(
        { ...(await eventProduct('paid-live')), confirmation_token: await stripe.token(number) },
        token,
      );
      assert.deepEqual([failed.status, failed.activity_status, failed.error], ['failed', 'inactive', message]);
      assert.deepEqual(
        [(await settled(failed.id, token)).status, (await event('paid-live', token)).has_access],
        ['failed', false],
      );
      const orders = await devOrders(email);
      assert.deepEqual(
        orders.map((o) => [o.status, o.transactions.map((t) => t.status)]),
        [['failed', ['failed']]],
      );
      assert.deepEqual(stripe.chargesOf(await customerOf(email)), [], 'nothing charged');
    }
  });

  test('3-D Secure: 3155, 3184 and 3220 ask for it; completed, the webhook pays; failed, the order fails with Stripe’s message', async () => {
    for (const number of [CARDS.auth, CARDS.authAlways, CARDS.auth3ds2]) {
      const { token } = await newUser();
      const pending = await bought(
        { ...(await eventProduct('paid-finished')), confirmation_token: await stripe.token(number) },
        token,
      );
      assert.equal(pending.status, 'created', number);
      ok(pending.action?.startsWith(`${stripe.intentsOf(pending.id)[0]!.id}_secret_`), 'the intent’s client secret');
      assert.equal((await settled(pending.id, token)).status, 'created', 'waits for the buyer');
      const intent = await stripe.authenticate(pending.action!, true);
      assert.equal(intent.status, 'succeeded');
      assert.deepEqual(
        [(await settled(pending.id, token)).status, (await event('paid-finished', token)).has_access],
        ['paid', true],
      );

      const other = await newUser();
      const refusedOne = await bought(
        { ...(await eventProduct('paid-finished')), confirmation_token: await stripe.token(number) },
        other.token,
      );
      const failed = await stripe.authenticate(refusedOne.action!, false);
      const message =
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
      assert.deepEqual([failed.status, failed.last_payment_error?.message], ['requires_payment_method', message]);
      const after = await settled(refusedOne.id, other.token);
      assert.deepEqual([after.status, after.error], ['failed', message]);
      assert.equal((await event('paid-finished', other.token)).has_access, false);
    }
  });

  test('the same idempotency key answers the same order: one order, one PaymentIntent, one charge', async () => {
    const { email, token } = await newUser();
    const paid = await eventProduct('paid-finished');
    const body = { ...paid, confirmation_token: await stripe.token(), idempotency_key: newKey() };
    const [first, second] = await Promise.all([post('stripe/buy', body, token), post('stripe/buy', body, token)]);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(first.body.data.order.id, second.body.data.order.id);
    // A retry after it was paid (a reload) still answers that order, now paid, not "already purchased".
    await stripe.idle();
    const replay = await post('stripe/buy', body, token);
    assert.equal(replay.status, 200);
    assert.deepEqual([replay.body.data.order.id, replay.body.data.order.status], [first.body.data.order.id, 'paid']);
    const orders = await devOrders(email);
    assert.deepEqual(
      orders.map((o) => o.transactions.length),
      [1],
    );
    assert.equal(stripe.intentsOf(first.body.data.order.id).length, 1, 'one PaymentIntent');
    assert.equal(stripe.chargesOf(await customerOf(email)).length, 1, 'one charge');
    // The key belongs to that purchase: another product with it is refused.
    const { category } = await offers();
    refused(
      await post('stripe/buy', { ...body, type: 'package', id: category.id }, token),
      'idempotency_key',
      PAYMENT_MESSAGES.otherPurchase,
    );
    // Keys are per user: another user's same key is their own purchase.
    const other = await newUser();
    const theirs = await post('stripe/buy', { ...body, confirmation_token: await stripe.token() }, other.token);
    assert.equal(theirs.status, 200);
    assert.notEqual(theirs.body.data.order.id, first.body.data.order.id);
  });

  test('a second purchase of a product being paid, under another key (a second tab), answers that order', async () => {
    const { email, token } = await newUser();
    const { team } = await offers();
    const pass = { type: 'package', id: team.id, participant_id: team.participants[0] };
    // The first waits for its authentication: the second device gets that order, and no second charge is made.
    const first = await bought({ ...pass, confirmation_token: await stripe.token(CARDS.auth) }, token);
    const second = await bought({ ...pass, confirmation_token: await stripe.token() }, token);
    assert.deepEqual([second.id, second.action], [first.id, undefined]);
    // Another team of the same pass is another product: its own order.
    const other = await bought(
      { ...pass, participant_id: team.participants[1], confirmation_token: await stripe.token() },
      token,
    );
    assert.notEqual(other.id, first.id);
    await stripe.authenticate(first.action!, true);
    await stripe.idle();
    // Paid, the product is held: a third try is refused as purchased.
    assert.equal(
      (await buy({ ...pass, confirmation_token: await stripe.token() }, token)).body.message,
      PAYMENT_MESSAGES.purchased,
    );
    assert.deepEqual(
      (await devOrders(email)).map((o) => [o.status, o.transactions.length]),
      [
        ['paid', 1],
        ['paid', 1],
      ],
    );
    assert.equal(stripe.chargesOf(await customerOf(email)).length, 2);
    // A purchase whose authentication failed does not hold the product: the next one is a new order.
    const { category } = await offers();
    const lost = await bought(
      { type: 'package', id: category.id, confirmation_token: await stripe.token(CARDS.auth) },
      token,
    );
    await stripe.authenticate(lost.action!, false);
    const next = await bought({ type: 'package', id: category.id, confirmation_token: await stripe.token() }, token);
    assert.notEqual(next.id, lost.id);
    assert.equal((await settled(next.id, token)).status, 'paid');
  });

  test('what pays: an unknown or someone else’s card is refused; a spent token fails with Stripe’s reason', async () => {
    const { token } = await newUser();
    const { category } = await offers();
    const pass = { type: 'package', id: category.id };
    refused(
      await buy({ ...pass, payment_method: 'pm_made_up' }, token),
      'payment_method',
      PAYMENT_MESSAGES.badPaymentMethod,
    );
    // Someone else's saved card is not one of this buyer's.
    const other = await newUser();
    await bought(
      { ...(await eventProduct('paid-live')), confirmation_token: await stripe.token(), save_card: true },
      other.token,
    );
    const theirs = endpoints.listCards.response.parse((await get('stripe/list-cards', other.token)).body).data[0]!;
    refused(
      await buy({ ...pass, payment_method: theirs.id }, token),
      'payment_method',
      PAYMENT_MESSAGES.badPaymentMethod,
    );
    // A confirmation token pays once: sent again for another purchase, Stripe refuses it.
    const spent = await stripe.token();
    assert.equal((await bought({ ...pass, confirmation_token: spent }, token)).status, 'paid');
    const { team } = await offers();
    const again = await bought(
      { type: 'package', id: team.id, participant_id: team.participants[0], confirmation_token: spent },
      token,
    );
    assert.deepEqual(
      [again.status, again.error],
      ['failed', 'This ConfirmationToken has already been used or has expired.'],
    );
  });

  test('a team pass unlocks its team only; a category pass its categories', async () => {
    const { token } = await newUser();
    const { team, category } = await offers();
    const paidLive = await event('paid-live');
    const teamId = paidLive.participants[0]!.id;
    ok(team.participants.includes(teamId), 'the paid live soccer game has a team of the pass');
    await bought(
      { type: 'package', id: team.id, participant_id: teamId, confirmation_token: await stripe.token() },
      token,
    );
    assert.equal((await event('paid-live', token)).has_access, true);
    assert.equal((await event('ppv-live', token)).has_access, false);
    await bought({ type: 'package', id: category.id, confirmation_token: await stripe.token() }, token);
    assert.equal((await event('paid-live-category', token)).has_access, true);
  });

  test('amounts in the currency’s minor units: cents for USD and EUR, whole yen for JPY', async () => {
    const id = h.id('ppv-live');
    const listed = Number((await h.server.db.get('SELECT price FROM events WHERE id = ?', [id]))!.price);
    try {
      // A yen price is whole (2,500 JPY); JPY is zero-decimal at Stripe: 2500, not 250000.
      for (const [currency, price, minor] of [
        ['EUR', 24.99, 2499],
        ['JPY', 2500, 2500],
        ['USD', 24.99, 2499],
      ] as const) {
        await h.post('/__dev/settings?channel_key=demo', { currency });
        await h.server.db.run('UPDATE events SET price = ? WHERE id = ?', [price, id]);
        const { email, token } = await newUser();
        const product = await eventProduct('ppv-live');
        const quoted = endpoints.pricing.response.parse(
          (await pricing(`type=event&id=${id}&single_event_package_id=${product.single_event_package_id}`, token)).body,
        ).data;
        assert.deepEqual([quoted.total, quoted.currency], [price, currency], 'the total the Payment Element is given');
        const created = await bought({ ...product, confirmation_token: await stripe.token() }, token);
        assert.deepEqual([created.currency, created.price, created.status], [currency, price, 'paid']);
        const [intent] = stripe.intentsOf(created.id);
        assert.deepEqual([intent!.amount, intent!.currency], [minor, currency.toLowerCase()]);
        assert.deepEqual(
          stripe.chargesOf(await customerOf(email)).map((c) => [c.amount, c.currency]),
          [[minor, currency.toLowerCase()]],
          'one charge of that amount',
        );
      }
    } finally {
      await h.server.db.run('UPDATE events SET price = ? WHERE id = ?', [listed, id]);
      await h.call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
    }
  });
});

describe('saved cards', () => {
  test('save_card keeps the card on the customer (after the payment); a saved card pays again; 3184 asks every time', async () => {
    const { email, token } = await newUser();
    assert.equal((await get('stripe/list-cards')).status, 401);
    assert.deepEqual(endpoints.listCards.response.parse((await get('stripe/list-cards', token)).body).data, []);
    // A declined card is never saved.
    await bought(
      { ...(await eventProduct('paid-live')), confirmation_token: await stripe.token(CARDS.declined), save_card: true },
      token,
    );
    assert.deepEqual((await get('stripe/list-cards', token)).body.data, []);
    await bought(
      { ...(await eventProduct('paid-live')), confirmation_token: await stripe.token(), save_card: true },
      token,
    );
    const cards = endpoints.listCards.response.parse((await get('stripe/list-cards', token)).body).data;
    assert.deepEqual(
      cards.map((c) => [c.brand, c.last4, c.exp_month, c.exp_year]),
      [['visa', '4242', 12, 2040]],
    );
    ok(/^pm_/.test(cards[0]!.id), 'a saved card is a payment method of the customer');
    const customer = await customerOf(email);
    assert.equal(stripe.double.ledger.paymentMethods.get(cards[0]!.id)?.customer, customer);
    // A saved card pays again, by its id.
    assert.equal(
      (await bought({ ...(await eventProduct('ppv-live')), payment_method: cards[0]!.id }, token)).status,
      'paid',
    );
    // A card that asks for authentication on every payment asks again when saved.
    const { category } = await offers();
    const strict = await bought(
      { type: 'package', id: category.id, confirmation_token: await stripe.token(CARDS.authAlways), save_card: true },
      token,
    );
    await stripe.authenticate(strict.action!, true);
    assert.equal((await settled(strict.id, token)).status, 'paid');
    const saved = endpoints.listCards.response.parse((await get('stripe/list-cards', token)).body).data;
    assert.deepEqual(saved.map((c) => c.last4).sort(), ['3184', '4242']);
    const { team } = await offers();
    const again = await bought(
      {
        type: 'package',
        id: team.id,
        participant_id: team.participants[0],
        payment_method: saved.find((c) => c.last4 === '3184')!.id,
      },
      token,
    );
    ok(again.action, 'authentication again');
  });
});

describe('subscriptions on Stripe Billing', () => {
  test('monthly: a Price of every 30 days by lookup key, the first invoice confirmed, renewed by invoice.paid, auto-renewal off', async () => {
    const { email, token } = await newUser();
    const { monthly } = await offers();
    const start = Math.floor(h.nowMs / 1000);
    const created = await bought(
      { type: 'subscription', id: monthly.id, confirmation_token: await stripe.token() },
      token,
    );
    const paid = await settled(created.id, token);
    assert.deepEqual([paid.status, paid.subscription_status, paid.auto_renewal], ['paid', 'active', 'active']);
    assert.equal(paid.expires_at, start + 30 * DAY, 'monthly: 30 days');
    assert.equal((await event('ppv-live', token)).has_access, true);
    // At Stripe: one subscription of the viewer's customer, on a Price of 9.99 USD every 30 days.
    const [row] = await devOrders(email);
    const subscription = stripe.double.billing.subscription(row!.subscription!);
    const price = subscription.items.data[0]!.price;
    assert.deepEqual(
      [
        subscription.customer,
        subscription.status,
        price.unit_amount,
        price.currency,
        price.recurring,
        subscription.metadata,
      ],
      [
        await customerOf(email),
        'active',
        999,
        'usd',
        { interval: 'day', interval_count: 30 },
        { channel: 'demo', order_id: String(created.id) },
      ],
    );
    assert.equal(price.lookup_key, `channel_demo_subscription_${monthly.id}_monthly_999_usd`);
    // A second buyer of the same subscription gets the same Price, found by its lookup key.
    const other = await newUser();
    const theirs = await bought(
      { type: 'subscription', id: monthly.id, confirmation_token: await stripe.token() },
      other.token,
    );
    assert.equal(theirs.status, 'paid');
    const prices = [...stripe.double.billing.prices.values()].filter((p) => p.lookup_key === price.lookup_key);
    assert.equal(prices.length, 1, 'one Price for both');

    // The period ends: Stripe bills the card again, invoice.paid extends the order by another period.
    await passDays(30, token);
    stripe.double.billing.advance(subscription.id);
    const renewed = await settled(created.id, token);
    assert.equal(renewed.expires_at, start + 60 * DAY);
    assert.deepEqual(
      (await devOrders(email))[0]!.transactions.map((t) => [t.status, t.amount, t.label]),
      [
        ['paid', 9.99, 'New subscription'],
        ['paid', 9.99, 'Subscription Renewal'],
      ],
    );

    // Auto-renewal off: cancel_at_period_end at Stripe, and the order reads cancelled.
    assert.equal((await post('stripe/unsubscribe', { order_id: created.id })).status, 401);
    const first = await post('stripe/unsubscribe', { order_id: created.id }, token);
    assert.deepEqual(endpoints.unsubscribe.response.parse(first.body).data, { status: 'finished' });
    assert.equal(stripe.double.billing.subscription(subscription.id).cancel_at_period_end, true);
    assert.equal((await settled(created.id, token)).auto_renewal, 'cancelled');
    assert.equal((await post('stripe/unsubscribe', { order_id: created.id }, token)).body.data.status, 'finished');
    // Access lasts to the end of the period paid for; then Stripe ends the subscription and it expires.
    assert.equal((await event('ppv-live', token)).has_access, true);
    await passDays(30, token);
    stripe.double.billing.advance(subscription.id);
    const ended = await settled(created.id, token);
    assert.deepEqual([ended.activity_status, ended.subscription_status], ['inactive', 'expired']);
    assert.equal((await event('ppv-live', token)).has_access, false);
    assert.equal(stripe.chargesOf(await customerOf(email)).length, 2, 'charged twice, never a third time');
  });

  test('annual: every 12 months; a coupon is a Stripe coupon of the same amount on the first charge only', async () => {
    const { email, token } = await newUser();
    const { annual } = await offers();
    const start = Math.floor(h.nowMs / 1000);
    const created = await bought(
      { type: 'subscription', id: annual.id, coupon: 'FIVEOFF', confirmation_token: await stripe.token() },
      token,
    );
    assert.equal(created.price, 94.99, 'the discounted total');
    const paid = await settled(created.id, token);
    const year = new Date(start * 1000);
    year.setUTCMonth(year.getUTCMonth() + 12);
    assert.equal(paid.expires_at, year.getTime() / 1000, '12 months');
    const [row] = await devOrders(email);
    const subscription = stripe.double.billing.subscription(row!.subscription!);
    assert.deepEqual(subscription.items.data[0]!.price.recurring, { interval: 'month', interval_count: 12 });
    const coupon = stripe.double.billing.coupon(subscription.discounts[0]!);
    assert.deepEqual(
      [coupon.amount_off, coupon.currency, coupon.duration, coupon.name],
      [500, 'usd', 'once', 'FIVEOFF'],
    );
    assert.deepEqual(
      row!.transactions.map((t) => [t.status, t.amount]),
      [['paid', 94.99]],
    );
    await passDays((year.getTime() / 1000 - start) / DAY, token);
    stripe.double.billing.advance(subscription.id);
    await stripe.idle();
    assert.deepEqual(
      (await devOrders(email))[0]!.transactions.map((t) => [t.amount, t.label]),
      [
        [94.99, 'New subscription'],
        [99.99, 'Subscription Renewal'],
      ],
      'the renewal at the full price',
    );
  });

  test('the same key sent again while the first charge waits for 3-D Secure (a second tab): one order, one challenge; authenticated, its invoice pays it', async () => {
    const { email, token } = await newUser();
    const { annual } = await offers();
    const body = { type: 'subscription', id: annual.id, idempotency_key: newKey() };
    const first = await bought({ ...body, confirmation_token: await stripe.token(CARDS.auth) }, token);
    // The second tab's own card token, under the same attempt: the order is read back, nothing is made again.
    const second = await bought({ ...body, confirmation_token: await stripe.token(CARDS.auth) }, token);
    assert.deepEqual([second.id, second.status, second.action], [first.id, 'created', first.action]);
    ok(first.action, 'the first charge asks for 3-D Secure');
    assert.equal((await stripe.authenticate(first.action, true)).status, 'succeeded');
    const paid = await settled(first.id, token);
    assert.deepEqual([paid.status, paid.subscription_status], ['paid', 'active']);
    const [row] = await devOrders(email);
    const subscription = stripe.double.billing.subscription(row!.subscription!);
    assert.equal(subscription.status, 'active');
    const invoicePaid = stripe
      .events('invoice.paid')
      .filter((e) => (e.data.object as { id: string }).id === subscription.latest_invoice);
    assert.equal(invoicePaid.length, 1, 'its first invoice paid, once');
    assert.equal(stripe.chargesOf(await customerOf(email)).length, 1, 'one charge');
  });

  test('a renewal refused: the order is inactive with the message; paid later, active again', async () => {
    const { token } = await newUser();
    const { monthly } = await offers();
    // 3184 asks for authentication on every payment: the first one is done in the browser, a renewal cannot be.
    const created = await bought(
      { type: 'subscription', id: monthly.id, confirmation_token: await stripe.token(CARDS.authAlways) },
      token,
    );
    await stripe.authenticate(created.action!, true);
    const paid = await settled(created.id, token);
    assert.equal(paid.status, 'paid');
    const subscription = stripe.double.billing.subscription(
      (await h.server.db.get('SELECT processor_subscription FROM orders WHERE id = ?', [created.id]))!
        .processor_subscription as string,
    );
    await passDays(30, token);
    stripe.double.billing.advance(subscription.id);
    const refusedRenewal = await settled(created.id, token);
    assert.deepEqual(
      [refusedRenewal.activity_status, refusedRenewal.subscription_status, refusedRenewal.error],
      ['inactive', 'inactive', 'Your card was declined. This transaction requires authentication.'],
    );
    assert.equal((await event('ppv-live', token)).has_access, false);
  });

  test('unsubscribe: only one own active subscription order; the seeded subscriber (no Stripe subscription) keeps access to the period end', async () => {
    const { token } = await newUser();
    assert.equal((await post('stripe/unsubscribe', { order_id: 999999 }, token)).status, 404);
    assert.equal((await post('stripe/unsubscribe', {}, token)).status, 422);
    const buyerOrders = endpoints.orders.response.parse((await h.api('orders', 'buyer')).body).data;
    const eventOrder = buyerOrders.find((o) => o.type === 'event')!;
    assert.equal((await post('stripe/unsubscribe', { order_id: eventOrder.id }, await h.token('buyer'))).status, 404);
    const [sub] = endpoints.orders.response.parse((await h.api('orders', 'subscriber')).body).data;
    assert.equal((await post('stripe/unsubscribe', { order_id: sub!.id }, token)).status, 404, "someone else's order");
    const subscriber = await h.token('subscriber');
    assert.equal((await post('stripe/unsubscribe', { order_id: sub!.id }, subscriber)).body.data.status, 'finished');
    const cancelled = endpoints.orders.response.parse((await h.api('orders', 'subscriber')).body).data[0]!;
    assert.equal(cancelled.auto_renewal, 'cancelled');
    ok(
      cancelled.expires_at! > h.nowMs / 1000 && cancelled.expires_at! <= h.nowMs / 1000 + 30 * DAY,
      'access until the end of the paid period',
    );
    assert.equal((await h.event('ppv-live', 'subscriber')).has_access, true);
  });
});

describe('trials', () => {
  test('a trial saves its card through the subscription’s setup intent, runs its days, then the card pays the first period', async () => {
    const { email, token } = await newUser();
    const { monthly, annual } = await offers();
    refused(
      await post('stripe/subscription/start_trial', { subscription_id: monthly.id, idempotency_key: newKey() }, token),
      'payment_method',
      PAYMENT_MESSAGES.trialNeedsCard,
    );
    refused(
      await post(
        'stripe/subscription/start_trial',
        { subscription_id: annual.id, confirmation_token: await stripe.token(), idempotency_key: newKey() },
        token,
      ),
      'subscription_id',
      PAYMENT_MESSAGES.noTrial,
    );
    const key = newKey();
    const start = Math.floor(h.nowMs / 1000);
    const res = await post(
      'stripe/subscription/start_trial',
      { subscription_id: monthly.id, confirmation_token: await stripe.token(), idempotency_key: key },
      token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const trial = endpoints.startTrial.response.parse(res.body).data.order;
    assert.deepEqual(
      [trial.type, trial.status, trial.activity_status, trial.auto_renewal, trial.price, trial.expires_at],
      ['subscription', 'paid', 'active', 'active', 0, start + 7 * DAY],
    );
    assert.equal((await event('ppv-live', token)).has_access, true);
    assert.equal(endpoints.profile.response.parse((await get('profile', token)).body).data.trial_period_used, true);
    assert.equal((await pricing(`type=subscription&id=${monthly.id}`, token)).body.data.trial_period, 0);
    // At Stripe: trialing 7 days, nothing charged, the card saved and the one the subscription renews with.
    const [row] = await devOrders(email);
    const subscription = stripe.double.billing.subscription(row!.subscription!);
    assert.deepEqual([subscription.status, subscription.trial_end], ['trialing', start + 7 * DAY]);
    const [card] = endpoints.listCards.response.parse((await get('stripe/list-cards', token)).body).data;
    assert.equal(subscription.default_payment_method, card!.id);
    assert.deepEqual(stripe.chargesOf(await customerOf(email)), []);
    // A retry answers the same order; another attempt finds the trial used.
    assert.equal(
      (
        await post(
          'stripe/subscription/start_trial',
          { subscription_id: monthly.id, confirmation_token: await stripe.token(), idempotency_key: key },
          token,
        )
      ).body.data.order.id,
      trial.id,
    );
    refused(
      await post(
        'stripe/subscription/start_trial',
        { subscription_id: monthly.id, confirmation_token: await stripe.token(), idempotency_key: newKey() },
        token,
      ),
      'subscription_id',
      PAYMENT_MESSAGES.trialUsed,
    );
    // The trial ends: the first charge opens the subscription for 30 days.
    tick(7 * DAY * 1000);
    stripe.double.billing.advance(subscription.id);
    const charged = await settled(trial.id, token);
    assert.equal(charged.expires_at, start + 37 * DAY);
    assert.deepEqual(
      (await devOrders(email))[0]!.transactions.map((t) => [t.status, t.amount, t.label]),
      [['paid', 9.99, 'New subscription']],
    );
  });

  test('a trial card that asks for 3-D Secure: the trial starts once authenticated; a declined card starts none', async () => {
    const { monthly } = await offers();
    const start = async (number: string, token: string) => {
      const res = await post(
        'stripe/subscription/start_trial',
        { subscription_id: monthly.id, confirmation_token: await stripe.token(number), idempotency_key: newKey() },
        token,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return endpoints.startTrial.response.parse(res.body).data;
    };
    const first = await newUser();
    const pending = await start(CARDS.auth, first.token);
    assert.equal(pending.order.status, 'created');
    ok(pending.action?.client_secret.startsWith('seti_'), 'the setup intent’s client secret');
    await stripe.authenticate(pending.action!.client_secret, true);
    const active = await settled(pending.order.id, first.token);
    assert.deepEqual([active.status, active.activity_status], ['paid', 'active']);
    assert.equal(
      endpoints.profile.response.parse((await get('profile', first.token)).body).data.trial_period_used,
      true,
    );

    const second = await newUser();
    const declined = await start(CARDS.declined, second.token);
    assert.deepEqual([declined.order.status, declined.order.error], ['failed', 'Your card was declined.']);
    // The trial is still theirs to start, with another card.
    assert.equal(
      endpoints.profile.response.parse((await get('profile', second.token)).body).data.trial_period_used,
      false,
    );
    assert.equal((await start(CARDS.ok, second.token)).order.status, 'paid');
  });
});

describe('setup intents and the customer portal', () => {
  test('stripe/setup-intent: a client secret of the customer’s setup intent', async () => {
    const { email, token } = await newUser();
    assert.equal((await post('stripe/setup-intent', {})).status, 401);
    const secret = endpoints.setupIntent.response.parse((await post('stripe/setup-intent', {}, token)).body).data
      .client_secret;
    const [, id] = /^(seti_[0-9a-f]+)_secret_[0-9a-f]+$/.exec(secret) ?? [];
    ok(id, `a client secret like Stripe's: ${secret}`);
    assert.equal(stripe.double.ledger.setupIntent(id!).customer, await customerOf(email));
  });

  test('the portal: a Billing Portal session of the customer, its page (cards, plans, invoices) and a safe way back', async () => {
    const { email, token } = await newUser();
    assert.equal((await get('stripe/customer-portal')).status, 401);
    const { monthly } = await offers();
    const sub = await bought({ type: 'subscription', id: monthly.id, confirmation_token: await stripe.token() }, token);
    const back = `${h.server.hostOrigin}/checkout.html?x=1`;
    const res = await get('stripe/customer-portal', token, `return_url=${encodeURIComponent(back)}`);
    const { url } = endpoints.customerPortal.response.parse(res.body).data;
    ok(url.startsWith(`${stripe.double.url}/portal/bps_`), url);
    const call = [...stripe.double.requests].reverse().find((r) => r.path === '/v1/billing_portal/sessions');
    assert.deepEqual([call?.method, call?.key], ['POST', 'secret']);
    const page = await h.call(url);
    assert.equal(page.status, 200);
    ok(!/<script|style=/.test(page.body), 'no inline script or style');
    ok(page.body.includes('VISA •••• 4242'), 'the saved card');
    ok(page.body.includes('renews on'), 'the plan');
    ok(page.body.includes('9.99 USD, paid'), 'the invoice');
    ok(page.body.includes(`<a href="${back.replace('&', '&#38;')}">Return to the site</a>`), page.body);
    // Only http(s) URLs of known origins go back; anything else goes to this server.
    for (const bad of ['https://evil.example/', 'javascript:alert(1)', 'not a url']) {
      const portal = (await get('stripe/customer-portal', token, `return_url=${encodeURIComponent(bad)}`)).body.data
        .url;
      ok((await h.call(portal)).body.includes(`<a href="${h.base}/">Return to the site</a>`), bad);
    }
    // Cancelling the plan there: Stripe's webhook says so, and the order's auto-renewal reads cancelled.
    const [row] = await devOrders(email);
    const cancelled = await h.call(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `action=cancel&subscription=${row!.subscription}`,
      redirect: 'manual',
    });
    assert.equal(cancelled.status, 303);
    assert.equal((await settled(sub.id, token)).auto_renewal, 'cancelled');
    // Removing the card: the customer has none left.
    const pm = (await get('stripe/list-cards', token)).body.data[0].id as string;
    await h.call(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `action=remove&payment_method=${pm}`,
      redirect: 'manual',
    });
    assert.deepEqual((await get('stripe/list-cards', token)).body.data, []);
    // Links left unopened too long show an expired page; an opened session lasts longer.
    const late = (await get('stripe/customer-portal', token)).body.data.url;
    tick(301 * 1000);
    assert.equal((await h.call(late)).status, 404);
    assert.equal((await h.call(url)).status, 200);
  });
});

describe('browser scripts and dev endpoints', () => {
  test('the Stripe.js test double and the tag-manager stand-in are served as scripts', async () => {
    for (const path of ['/stripe-test-double.js', '/gtag-stand-in.js']) {
      for (const origin of [h.base, h.server.hostOrigin]) {
        const res = await h.call(`${origin}${path}`);
        assert.equal(res.status, 200, `${origin}${path}`);
        ok(String(res.headers.get('content-type')).startsWith('text/javascript'), path);
      }
    }
    ok(
      (await h.call('/stripe-test-double.js')).body.includes("Stripe.version = 'endive'"),
      'the version @stripe/stripe-js expects',
    );
  });

  test('gtag pushes are recorded, listed by command and cleared', async () => {
    const settings = endpoints.settings.response.parse((await h.keyless('settings')).body).data;
    assert.equal(settings.gtag_url, `${h.base}/gtag-stand-in.js?id=G-DEMO0000`);
    const fr = endpoints.settings.response.parse((await h.call('/api/settings?channel_key=demo-fr')).body).data;
    assert.equal(fr.gtag_url, `${h.base}/gtag-stand-in.js?id=G-DEMOFR00`, 'each channel its own tag id');
    // A channel without a tag id gets no tag manager.
    await h.post('/__dev/settings?channel_key=demo-fr', { 'google-analytics': null });
    const none = endpoints.settings.response.parse((await h.call('/api/settings?channel_key=demo-fr')).body).data;
    assert.equal(none.gtag_url ?? null, null, 'no tag id, no tag manager');
    await h.call('/__dev/settings?channel_key=demo-fr', { method: 'DELETE' });
    await h.call('/__dev/gtag', { method: 'DELETE' });
    // The stand-in posts to its collector, which needs no secret; reading what it recorded does.
    const push = (body: unknown) =>
      h.call('/gtag-stand-in/collect', {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify(body),
      });
    assert.equal((await push({ command: 'config', name: 'G-DEMO0000', params: null })).status, 201);
    assert.equal(
      (await push({ command: 'event', name: 'purchase', params: { currency: 'USD', value: 9.99 } })).status,
      201,
    );
    assert.equal((await push({ name: 'nothing' })).status, 422);
    const events = (await h.call('/__dev/gtag?kind=event')).body.data;
    assert.deepEqual(
      events.map((e: { body: { name: string; params: { value: number } } }) => [e.body.name, e.body.params.value]),
      [['purchase', 9.99]],
    );
    assert.equal((await h.call('/__dev/gtag')).body.data.length, 2);
    await h.call('/__dev/gtag', { method: 'DELETE' });
    assert.deepEqual((await h.call('/__dev/gtag')).body.data, []);
  });

  test('dev orders list a channel (or one email) with their transactions', async () => {
    const all = (await h.call('/__dev/orders')).body.data as Array<{ email: string }>;
    ok(
      all.some((o) => o.email === 'buyer@demo-sports.example') && all.some((o) => o.email === 'fan@example.com'),
      'the demo channel by default',
    );
    const fr = (await h.call('/__dev/orders?channel_key=demo-fr')).body.data as Array<{ email: string }>;
    ok(fr.length > 0 && fr.every((o) => o.email.endsWith('@sports-demo.example')), 'demo-fr only');
    const buyer = await devOrders('BUYER@demo-sports.example');
    assert.deepEqual(buyer.map((o) => o.status).sort(), ['failed', 'paid']);
    ok(
      buyer.every((o) => o.transactions.length === 1),
      'each with its transaction',
    );
  });
});

describe('partner attribution', () => {
  /** A partner row of the dev analytics page's numbers. */
  interface PartnerRow {
    partner: string | null;
    sessions: number;
    page_views: number;
    video_views: number;
    orders: number;
    paid: number;
    revenue: Record<string, number>;
  }
  const partners = async (since = 0) =>
    (await h.call(`/__dev/analytics?channel_key=demo&since=${since}`)).body.data.partners as PartnerRow[];
  /** A datalake body as the browser posts it (text/plain JSON). */
  const datalake = (path: string, body: Record<string, unknown>) =>
    h.call(`/datalake/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ profile: 'demo-analytics-profile', ...body }),
    });

  test('an order keeps the partner it was made for (a slug, lowercased); anything else is refused and nothing is ordered', async () => {
    const { email, token } = await newUser();
    const paid = await eventProduct('ppv-live');
    const refusedPartner = (res: Answer) => {
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(res.body.errors?.partner, [PAYMENT_MESSAGES.badPartner]);
    };
    for (const partner of ['acme news', 'acme--news', '-acme', 'a'.repeat(41), '<b>acme</b>', 'acme/../x', 42]) {
      refusedPartner(await buy({ ...paid, confirmation_token: await stripe.token(), partner }, token));
      refusedPartner(
        await post(
          'stripe/subscription/start_trial',
          { subscription_id: 1, idempotency_key: newKey(), partner },
          token,
        ),
      );
    }
    assert.deepEqual(await devOrders(email), [], 'no order of a refused partner');
    const created = await bought(
      { ...paid, confirmation_token: await stripe.token(), partner: ' Springfield-Gazette ' },
      token,
    );
    const [order] = await devOrders(email);
    assert.deepEqual([order!.id, order!.partner], [created.id, 'springfield-gazette']);
    // No partner, or a blank one: the order has none.
    const other = await newUser();
    await bought(
      { ...(await eventProduct('ppv-live')), confirmation_token: await stripe.token(), partner: '' },
      other.token,
    );
    assert.equal((await devOrders(other.email))[0]!.partner, null);
  });

  test('a trial keeps its partner too', async () => {
    const { email, token } = await newUser();
    const { monthly } = await offers();
    const trial = await post(
      'stripe/subscription/start_trial',
      {
        subscription_id: monthly.id,
        confirmation_token: await stripe.token(),
        idempotency_key: newKey(),
        partner: 'acme-news',
      },
      token,
    );
    assert.equal(trial.status, 200, JSON.stringify(trial.body));
    const [order] = await devOrders(email);
    assert.deepEqual([order!.status, order!.partner], ['paid', 'acme-news']);
  });

  test('the dev analytics page: sales and viewers per partner, the orders of none last', async () => {
    const since = h.nowMs;
    const slug = `partner-${Date.now().toString(36)}`;
    // Earlier tests' direct orders may fall in the same second: the direct row is compared with itself before.
    const none = (rows: PartnerRow[]) => rows.find((p) => p.partner === null) ?? { orders: 0, paid: 0, page_views: 0 };
    const directBefore = none(await partners(since));
    // Two paid orders and one declined through the partner, one paid directly.
    for (const [number, partner] of [
      [CARDS.ok, slug],
      [CARDS.ok, slug],
      [CARDS.declined, slug],
      [CARDS.ok, undefined],
    ] as const) {
      const { token } = await newUser();
      await bought(
        { ...(await eventProduct('ppv-live')), confirmation_token: await stripe.token(number), partner },
        token,
      );
    }
    await stripe.idle();
    // What the partner's pages sent to the datalake: a session, two page views, a video view; and a page of none.
    const session = (await h.call('/datalake/hash/?profile=demo-analytics-profile')).body.data.hash as string;
    const viewer = { session_uuid: session, user_id: null, user_email: null };
    for (const [path, body] of [
      ['session/', { session, device_type: 'desktop', platform: 'web', partner: slug }],
      ['event/', { ...viewer, event: 'visit_page', page: '/', partner: slug }],
      ['event/', { ...viewer, event: 'visit_page', page: '/live', partner: slug }],
      [
        'video/event/',
        { ...viewer, event: 'first_frame', stream_id: 7, stream_type: 'vod', video_view_uuid: 'v', partner: slug },
      ],
      ['event/', { ...viewer, event: 'visit_page', page: '/' }],
    ] as const)
      assert.equal((await datalake(path, body)).status, 200, path);
    // A partner that is not a slug is refused by the datalake too.
    const bad = await datalake('event/', { ...viewer, event: 'visit_page', partner: 'Not a slug!' });
    assert.equal(bad.status, 422);
    ok(bad.body.errors?.partner, JSON.stringify(bad.body));

    const rows = await partners(since);
    assert.deepEqual(
      rows.find((p) => p.partner === slug),
      {
        partner: slug,
        sessions: 1,
        page_views: 2,
        video_views: 1,
        orders: 3,
        paid: 2,
        revenue: { USD: 2 * 24.99 },
      },
    );
    assert.equal(rows.at(-1)!.partner, null, 'the orders and pages of no partner come last');
    const direct = none(rows);
    assert.deepEqual(
      [
        direct.orders - directBefore.orders,
        direct.paid - directBefore.paid,
        direct.page_views - directBefore.page_views,
      ],
      [1, 1, 1],
    );
  });
});
