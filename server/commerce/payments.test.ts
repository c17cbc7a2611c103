/**
 * Tests of checkout and payments on the reference server: pricing and its errors, coupons, purchases that settle by
 * the test card after the delay (on the server's test clock), idempotency, access after a purchase, saved cards,
 * setup intents and trials, auto-renewal cancellation and renewals, the customer portal, the fake Stripe API, the
 * tag-manager stand-in, the dev endpoints, and partner attribution (orders keep their partner; sales and viewers per
 * partner). Answers are parsed with the contract's schemas, as the client parses them. Run: node --import tsx --test server/commerce/payments.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endpoints, type Order } from '../../src/api/contract.js';
import { PAYMENT_MESSAGES } from './payments.js';
import { createTestPayments } from './providers/test.js';
import { PAYMENTS_OFF } from './providers/provider.js';
import { applyPaymentEvent, createSettlement } from './settlement.js';
import { Harness, ok, type Account, type Answer } from '../testing/harness.js';

/** Purchases settle this long (server clock, ms) after stripe/buy; short, so the timer test waits little. */
const SETTLE_MS = 200;
const h = new Harness({ paymentSettleMs: SETTLE_MS });
before(() => h.start());
after(() => h.stop());

const CARDS = { ok: '4242424242424242', declined: '4000000000000002', insufficient: '4000000000009995' };
const DAY = 86400;

const auth = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
const get = (path: string, token?: string, query = '') =>
  h.call(`/api/${path}?api_key=${h.key}${query ? `&${query}` : ''}`, { headers: auth(token) });
const post = (path: string, body: Record<string, unknown>, token?: string) =>
  h.post(`/api/${path}`, { api_key: h.key, ...body }, auth(token));
const pricing = (query: string, token?: string) => get('pricing', token, query);
/** Moves the server clock on by `ms`. */
const tick = (ms: number) => {
  h.nowMs += ms;
};
/**
 * Moves the server clock on by whole days while the viewer keeps coming back every ten days (a token ends 30 days
 * after its last use), so long subscription periods can pass without signing in again.
 */
async function passDays(days: number, token: string): Promise<void> {
  for (let left = days; left > 0; left -= 10) {
    tick(Math.min(10, left) * DAY * 1000);
    assert.equal((await get('profile', token)).status, 200, 'the token stays alive while in use');
  }
}

/** A fake Stripe API call, form-encoded like Stripe.js's, with a publishable key. */
function stripe(path: string, params: Record<string, string>, key: string | null = 'pk_test_demo'): Promise<Answer> {
  return h.call(`/__stripe/v1/${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
    },
    body: new URLSearchParams(params).toString(),
  });
}

/** A new payment method for a test card (expiry in the future of the test clock). */
async function card(number: string = CARDS.ok, key = 'pk_test_demo'): Promise<string> {
  const res = await stripe(
    'payment_methods',
    { type: 'card', 'card[number]': number, 'card[exp_month]': '12', 'card[exp_year]': '2040', 'card[cvc]': '123' },
    key,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.id);
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

/** POST stripe/buy; answers the raw answer. */
const buy = (body: Record<string, unknown>, token?: string) =>
  post('stripe/buy', { idempotency_key: newKey(), ...body }, token);

/** A purchase that must be accepted: the order (created). */
async function bought(body: Record<string, unknown>, token: string): Promise<Order> {
  const res = await buy(body, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return endpoints.buy.response.parse(res.body).data.order;
}

async function order(id: number, token: string): Promise<Order> {
  const res = await get(`orders/${id}`, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return endpoints.order.response.parse(res.body).data;
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

/** Orders of the dev endpoint for one email. */
async function devOrders(email: string): Promise<
  Array<
    Order & {
      transactions: Array<{ status: string; amount: number; label: string | null }>;
      card: { last4: string } | null;
      email: string;
      partner: string | null;
    }
  >
> {
  const res = await h.call(`/__dev/orders?channel_key=demo&email=${encodeURIComponent(email)}`);
  assert.equal(res.status, 200);
  return res.body.data;
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
  test('a guest is asked to sign in; the body is checked like pricing', async () => {
    const paid = await eventProduct('ppv-live');
    const guest = await buy({ ...paid, payment_method: await card() });
    assert.equal(guest.status, 401);
    const { token } = await newUser();
    const { team } = await offers();
    refused(
      await buy({ type: 'package', id: team.id, payment_method: await card() }, token),
      'participant_id',
      PAYMENT_MESSAGES.noTeam,
    );
    refused(
      await buy({ type: 'event', id: paid.id, payment_method: await card() }, token),
      'single_event_package_id',
      PAYMENT_MESSAGES.noSingleEventPackage,
    );
    const missing = await post('stripe/buy', { ...paid }, token);
    assert.equal(missing.status, 422);
    assert.deepEqual(Object.keys(missing.body.errors).sort(), ['idempotency_key', 'payment_method']);
  });

  test('4242 settles paid after the delay, the transaction too, and the player unlocks', async () => {
    const { email, token } = await newUser();
    const paid = await eventProduct('ppv-live');
    assert.equal((await event('ppv-live', token)).has_access, false);
    const created = await bought({ ...paid, payment_method: await card(), coupon: 'SAVE10' }, token);
    assert.deepEqual(
      [created.status, created.type, created.product.id, created.price, created.currency],
      ['created', 'event', paid.id, 22.74, 'USD'],
    );
    ok(created.reference, 'an order has a reference to quote');
    // Pending until the server clock reaches the settlement moment.
    tick(SETTLE_MS - 50);
    assert.equal((await order(created.id, token)).status, 'created');
    assert.equal((await event('ppv-live', token)).has_access, false);
    const [pending] = await devOrders(email);
    assert.deepEqual(
      pending!.transactions.map((t) => t.status),
      ['created'],
    );
    tick(50);
    const settled = await order(created.id, token);
    assert.deepEqual([settled.status, settled.activity_status, settled.error ?? null], ['paid', 'active', null]);
    const live = await event('ppv-live', token);
    assert.equal(live.has_access, true);
    ok(Harness.mediaUrl(live, 'live'), 'the stream URL comes with access');
    const [done] = await devOrders(email);
    assert.deepEqual(
      done!.transactions.map((t) => [t.status, t.amount]),
      [['paid', 22.74]],
    );
    assert.equal(done!.card?.last4, '4242');
    const transactions = endpoints.transactions.response.parse((await get('transactions', token)).body).data;
    assert.deepEqual(
      transactions.map((t) => [t.status, t.order_id]),
      [['paid', created.id]],
    );
    // Bought is bought: pricing says so, and another purchase of it is refused.
    assert.equal(
      (await pricing(`type=event&id=${paid.id}&single_event_package_id=${paid.single_event_package_id}`, token)).body
        .data.purchased,
      true,
    );
    const again = await buy({ ...paid, payment_method: await card() }, token);
    assert.equal(again.status, 422);
    assert.equal(again.body.message, PAYMENT_MESSAGES.purchased);
  });

  test('declined and insufficient funds fail with the card message; nothing is paid, no access', async () => {
    for (const [number, message] of [
      [CARDS.declined, 'Your card was declined.'],
      [CARDS.insufficient, 'Your card has insufficient funds.'],
    ] as const) {
      const { email, token } = await newUser();
      const created = await bought({ ...(await eventProduct('paid-live')), payment_method: await card(number) }, token);
      assert.equal(created.status, 'created');
      tick(SETTLE_MS);
      const failed = await order(created.id, token);
      assert.deepEqual([failed.status, failed.activity_status, failed.error], ['failed', 'inactive', message]);
      assert.equal((await event('paid-live', token)).has_access, false);
      const orders = await devOrders(email);
      ok(
        orders.every((o) => o.status !== 'paid'),
        'no order is paid',
      );
      assert.deepEqual(
        orders[0]!.transactions.map((t) => t.status),
        ['failed'],
      );
    }
  });

  test('the same idempotency key answers the same order: one order, one transaction, one charge', async () => {
    const { email, token } = await newUser();
    const paid = await eventProduct('paid-finished');
    const pm = await card();
    const body = { ...paid, payment_method: pm, idempotency_key: newKey() };
    const [first, second] = await Promise.all([post('stripe/buy', body, token), post('stripe/buy', body, token)]);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(first.body.data.order.id, second.body.data.order.id);
    tick(SETTLE_MS);
    // A retry after settlement (a reload) still answers that order, now paid, not "already purchased".
    const replay = await post('stripe/buy', body, token);
    assert.equal(replay.status, 200);
    assert.deepEqual([replay.body.data.order.id, replay.body.data.order.status], [first.body.data.order.id, 'paid']);
    const orders = await devOrders(email);
    assert.equal(orders.length, 1);
    assert.equal(orders[0]!.transactions.length, 1);
    // The key belongs to that purchase: another product with it is refused.
    const { category } = await offers();
    refused(
      await post('stripe/buy', { ...body, type: 'package', id: category.id }, token),
      'idempotency_key',
      PAYMENT_MESSAGES.otherPurchase,
    );
    // Keys are per user: another user's same key is their own purchase.
    const other = await newUser();
    const theirs = await post('stripe/buy', { ...body, payment_method: await card() }, other.token);
    assert.equal(theirs.status, 200);
    assert.notEqual(theirs.body.data.order.id, first.body.data.order.id);
  });

  test('one unattached card sent by three buyers at once pays one order only', async () => {
    const paid = await eventProduct('paid-finished');
    const pm = await card();
    const buyers = await Promise.all([newUser(), newUser(), newUser()]);
    // The lock each purchase takes is on its own buyer's row: only the card's own row can keep them apart.
    const answers = await Promise.all(buyers.map(({ token }) => buy({ ...paid, payment_method: pm }, token)));
    const accepted = answers.filter((res) => res.status === 200);
    assert.equal(accepted.length, 1, JSON.stringify(answers.map((res) => [res.status, res.body.message])));
    for (const res of answers.filter((x) => x.status !== 200)) {
      assert.equal(res.status, 422, JSON.stringify(res.body));
      ok(res.body.errors?.payment_method, `the card is what is refused: ${JSON.stringify(res.body)}`);
    }
    const orders = (await Promise.all(buyers.map(({ email }) => devOrders(email)))).flat();
    assert.equal(orders.length, 1, 'one order in all');
    assert.equal(orders[0]!.transactions.length, 1);
    const winner = buyers[answers.indexOf(accepted[0]!)]!;
    const owner = await h.server.db.get(
      'SELECT u.email FROM payment_methods pm JOIN users u ON u.id = pm.user_id WHERE pm.id = ?',
      [pm],
    );
    assert.equal(owner?.email, winner.email, 'the card is the buyer’s whose order it paid');
  });

  test('a second purchase of a product being paid, under another key (a second device), answers that order', async () => {
    const { email, token } = await newUser();
    const { team } = await offers();
    const pass = { type: 'package', id: team.id, participant_id: team.participants[0] };
    const first = await bought({ ...pass, payment_method: await card() }, token);
    const second = await bought({ ...pass, payment_method: await card() }, token);
    assert.equal(second.id, first.id);
    // Another team of the same pass is another product: its own order.
    const other = await bought({ ...pass, participant_id: team.participants[1], payment_method: await card() }, token);
    assert.notEqual(other.id, first.id);
    tick(SETTLE_MS);
    // Settled, the product is held: a third try is refused as purchased, not answered with the old order.
    assert.equal(
      (await buy({ ...pass, payment_method: await card() }, token)).body.message,
      PAYMENT_MESSAGES.purchased,
    );
    const orders = await devOrders(email);
    assert.deepEqual(
      orders.map((o) => [o.status, o.transactions.length]),
      [
        ['paid', 1],
        ['paid', 1],
      ],
    );
  });

  test('payment methods: unknown, another channel, another user, or spent once are refused', async () => {
    const { token } = await newUser();
    const { category, team } = await offers();
    const pass = { type: 'package', id: category.id };
    refused(
      await buy({ ...pass, payment_method: 'pm_made_up' }, token),
      'payment_method',
      PAYMENT_MESSAGES.badPaymentMethod,
    );
    refused(
      await buy({ ...pass, payment_method: await card(CARDS.ok, 'pk_test_demo_fr') }, token),
      'payment_method',
      PAYMENT_MESSAGES.badPaymentMethod,
    );
    const pm = await card();
    await bought({ ...pass, payment_method: pm }, token);
    // Not saved: spent on that order, like at Stripe.
    refused(
      await buy({ type: 'package', id: team.id, participant_id: team.participants[0], payment_method: pm }, token),
      'payment_method',
      PAYMENT_MESSAGES.spentPaymentMethod,
    );
    const other = await newUser();
    refused(
      await buy({ ...pass, payment_method: pm }, other.token),
      'payment_method',
      PAYMENT_MESSAGES.badPaymentMethod,
    );
  });

  test('settlement also runs on its own timer, without any read', async () => {
    const { email, token } = await newUser();
    const created = await bought({ ...(await eventProduct('paid-live')), payment_method: await card() }, token);
    tick(SETTLE_MS);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 150));
    const row = await h.server.db.get('SELECT status FROM orders WHERE id = ?', [created.id]);
    assert.equal(row?.status, 'paid');
    assert.equal((await devOrders(email))[0]!.status, 'paid');
  });

  test('a team pass unlocks its team only; a category pass its categories', async () => {
    const { token } = await newUser();
    const { team } = await offers();
    const paidLive = await event('paid-live');
    const teamId = paidLive.participants[0]!.id;
    ok(team.participants.includes(teamId), 'the paid live soccer game has a team of the pass');
    await bought({ type: 'package', id: team.id, participant_id: teamId, payment_method: await card() }, token);
    tick(SETTLE_MS);
    assert.equal((await event('paid-live', token)).has_access, true);
    assert.equal((await event('ppv-live', token)).has_access, false);
    const { category } = await offers();
    await bought({ type: 'package', id: category.id, payment_method: await card() }, token);
    tick(SETTLE_MS);
    assert.equal((await event('paid-live-category', token)).has_access, true);
  });
});

describe('saved cards', () => {
  test('save_card keeps a paid card for list-cards; a saved card pays again; the same card is listed once', async () => {
    const { token } = await newUser();
    assert.equal((await get('stripe/list-cards')).status, 401);
    assert.deepEqual(endpoints.listCards.response.parse((await get('stripe/list-cards', token)).body).data, []);
    const { category, team, monthly } = await offers();
    await bought({ ...(await eventProduct('paid-live')), payment_method: await card(), save_card: true }, token);
    assert.deepEqual((await get('stripe/list-cards', token)).body.data, [], 'saved once the payment went through');
    tick(SETTLE_MS);
    const cards = endpoints.listCards.response.parse((await get('stripe/list-cards', token)).body).data;
    assert.deepEqual(
      cards.map((c) => [c.brand, c.last4, c.exp_month, c.exp_year]),
      [['visa', '4242', 12, 2040]],
    );
    ok(/^pm_/.test(cards[0]!.id), 'a saved card is a payment method id');
    // A saved card pays again (it is the customer's, not spent).
    const again = await bought(
      { ...(await eventProduct('ppv-live')), payment_method: cards[0]!.id, save_card: true },
      token,
    );
    tick(SETTLE_MS);
    assert.equal((await order(again.id, token)).status, 'paid');
    // The same card entered again and saved again is still one card.
    await bought({ type: 'package', id: category.id, payment_method: await card(), save_card: '1' }, token);
    tick(SETTLE_MS);
    assert.equal((await get('stripe/list-cards', token)).body.data.length, 1);
    // A declined card is never saved.
    await bought(
      {
        type: 'package',
        id: team.id,
        participant_id: team.participants[0],
        payment_method: await card(CARDS.declined),
        save_card: true,
      },
      token,
    );
    tick(SETTLE_MS);
    assert.equal((await get('stripe/list-cards', token)).body.data.length, 1);
    const sub = await bought({ type: 'subscription', id: monthly.id, payment_method: cards[0]!.id }, token);
    tick(SETTLE_MS);
    assert.equal((await order(sub.id, token)).status, 'paid');
  });
});

describe('subscriptions', () => {
  test('a bought subscription runs 30 days, renews by charging its card, and auto-renewal cancels (processing, then finished)', async () => {
    const { email, token } = await newUser();
    const { monthly } = await offers();
    const created = await bought({ type: 'subscription', id: monthly.id, payment_method: await card() }, token);
    tick(SETTLE_MS);
    const paid = await order(created.id, token);
    const start = Math.floor(h.nowMs / 1000);
    assert.deepEqual([paid.status, paid.subscription_status, paid.auto_renewal], ['paid', 'active', 'active']);
    ok(Math.abs(paid.expires_at! - (start + 30 * DAY)) <= 1, 'monthly: 30 days');
    assert.equal((await event('ppv-live', token)).has_access, true);
    // The period ends: the card is charged again for the next 30 days.
    await passDays(31, token);
    const renewed = await order(created.id, token);
    ok(Math.abs(renewed.expires_at! - (start + 60 * DAY)) <= 1, 'renewed for another 30 days');
    assert.deepEqual(
      (await devOrders(email))[0]!.transactions.map((t) => [t.status, t.label]),
      [
        ['paid', 'New subscription'],
        ['paid', 'Subscription Renewal'],
      ],
    );

    assert.equal((await post('stripe/unsubscribe', { order_id: created.id })).status, 401);
    const first = await post('stripe/unsubscribe', { order_id: created.id }, token);
    assert.deepEqual(endpoints.unsubscribe.response.parse(first.body).data, { status: 'processing' });
    assert.equal((await post('stripe/unsubscribe', { order_id: created.id }, token)).body.data.status, 'processing');
    assert.equal((await order(created.id, token)).auto_renewal, 'active');
    tick(1000);
    assert.equal((await order(created.id, token)).auto_renewal, 'cancelled');
    assert.equal((await post('stripe/unsubscribe', { order_id: created.id }, token)).body.data.status, 'finished');
    // Access lasts to the end of the period paid for, then the subscription expires.
    assert.equal((await event('ppv-live', token)).has_access, true);
    await passDays(30, token);
    const ended = await order(created.id, token);
    assert.deepEqual([ended.activity_status, ended.subscription_status], ['inactive', 'expired']);
    assert.equal((await event('ppv-live', token)).has_access, false);
  });

  test('unsubscribe: only one own active subscription order; the seeded subscriber keeps access to the period end', async () => {
    const { token } = await newUser();
    assert.equal((await post('stripe/unsubscribe', { order_id: 999999 }, token)).status, 404);
    assert.equal((await post('stripe/unsubscribe', {}, token)).status, 422);
    const buyerOrders = endpoints.orders.response.parse((await h.api('orders', 'buyer')).body).data;
    const eventOrder = buyerOrders.find((o) => o.type === 'event')!;
    assert.equal((await post('stripe/unsubscribe', { order_id: eventOrder.id }, await h.token('buyer'))).status, 404);
    const [sub] = endpoints.orders.response.parse((await h.api('orders', 'subscriber')).body).data;
    assert.equal((await post('stripe/unsubscribe', { order_id: sub!.id }, token)).status, 404, "someone else's order");
    const subscriber = await h.token('subscriber');
    assert.equal((await post('stripe/unsubscribe', { order_id: sub!.id }, subscriber)).body.data.status, 'processing');
    tick(1000);
    const cancelled = endpoints.orders.response.parse((await h.api('orders', 'subscriber')).body).data[0]!;
    assert.equal(cancelled.auto_renewal, 'cancelled');
    ok(
      cancelled.expires_at! > h.nowMs / 1000 && cancelled.expires_at! <= h.nowMs / 1000 + 30 * DAY,
      'access until the end of the paid period',
    );
    assert.equal((await h.event('ppv-live', 'subscriber')).has_access, true);
  });
});

describe('payment events (what a processor says about an order, as a webhook will)', () => {
  test('an event is applied once: the same one again, or one about a period the order is not at, changes nothing', async () => {
    const { email, token } = await newUser();
    const { monthly } = await offers();
    const created = await bought({ type: 'subscription', id: monthly.id, payment_method: await card() }, token);
    const provider = createTestPayments(h.server.db);
    const now = Math.floor(h.nowMs / 1000);
    const paid = { type: 'purchase_paid', orderId: created.id, at: now } as const;
    // Delivered twice (a retried webhook), and then the failure of the same purchase, late: the first one counts.
    assert.equal(await applyPaymentEvent(h.server.db, provider, paid, now), true);
    assert.equal(await applyPaymentEvent(h.server.db, provider, paid, now), false);
    const late = { type: 'purchase_failed', orderId: created.id, at: now, message: 'Your card was declined.' } as const;
    assert.equal(await applyPaymentEvent(h.server.db, provider, late, now), false);
    // The settling timer finds nothing left to charge.
    tick(SETTLE_MS);
    const settled = await order(created.id, token);
    assert.deepEqual([settled.status, settled.subscription_status, settled.error ?? null], ['paid', 'active', null]);
    // A renewal names its period by its start: only the period the order is at renews, once.
    const end = settled.expires_at!;
    const renewal = { type: 'renewal_paid', orderId: created.id, at: end } as const;
    assert.equal(await applyPaymentEvent(h.server.db, provider, { ...renewal, at: end - DAY }, now), false);
    assert.equal(await applyPaymentEvent(h.server.db, provider, renewal, now), true);
    assert.equal(await applyPaymentEvent(h.server.db, provider, renewal, now), false);
    ok(Math.abs((await order(created.id, token)).expires_at! - (end + 30 * DAY)) <= 1, 'one more period');
    assert.deepEqual(
      (await devOrders(email))[0]!.transactions.map((t) => [t.status, t.label]),
      [
        ['paid', 'New subscription'],
        ['paid', 'Subscription Renewal'],
      ],
    );
  });

  test('without a card processor, what falls due fails with the reason instead of waiting for ever', async () => {
    const { email, token } = await newUser();
    const { monthly } = await offers();
    const created = await bought({ type: 'subscription', id: monthly.id, payment_method: await card() }, token);
    // A start with no processor (production today) settling the database a start with one left a purchase in.
    const none = createSettlement(h.server.db, () => h.nowMs, undefined);
    try {
      tick(SETTLE_MS);
      await none.settle();
    } finally {
      none.stop();
    }
    const failed = await order(created.id, token);
    assert.deepEqual([failed.status, failed.activity_status, failed.error], ['failed', 'inactive', PAYMENTS_OFF]);
    assert.deepEqual(
      (await devOrders(email))[0]!.transactions.map((t) => t.status),
      ['failed'],
    );
  });
});

describe('setup intents and trials', () => {
  test('a confirmed setup intent starts the trial once; it runs the trial days, then the card is charged', async () => {
    const { email, token } = await newUser();
    const { monthly, annual } = await offers();
    assert.equal((await post('stripe/setup-intent', {})).status, 401);
    const secret = endpoints.setupIntent.response.parse((await post('stripe/setup-intent', {}, token)).body).data
      .client_secret;
    const [, id] = /^(seti_[0-9a-f]+)_secret_[0-9a-f]+$/.exec(secret) ?? [];
    ok(id, `a client secret like Stripe's: ${secret}`);
    // A trial needs a card: none, or one that went through no setup intent.
    refused(
      await post('stripe/subscription/start_trial', { subscription_id: monthly.id, idempotency_key: newKey() }, token),
      'payment_method',
      'A trial needs a card.',
    );
    refused(
      await post(
        'stripe/subscription/start_trial',
        { subscription_id: monthly.id, payment_method: await card(), idempotency_key: newKey() },
        token,
      ),
      'payment_method',
      PAYMENT_MESSAGES.trialNeedsCard,
    );
    assert.equal(
      (
        await stripe(`setup_intents/${id}/confirm`, {
          client_secret: `${id}_secret_wrong`,
          payment_method: await card(),
        })
      ).status,
      404,
    );
    const confirmed = await stripe(`setup_intents/${id}/confirm`, {
      client_secret: secret,
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': CARDS.ok,
      'payment_method_data[card][exp_month]': '11',
      'payment_method_data[card][exp_year]': '41',
      'payment_method_data[card][cvc]': '321',
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.deepEqual(
      [confirmed.body.id, confirmed.body.object, confirmed.body.status],
      [id, 'setup_intent', 'succeeded'],
    );
    const pm = String(confirmed.body.payment_method);
    const again = await stripe(`setup_intents/${id}/confirm`, { client_secret: secret, payment_method: pm });
    assert.deepEqual([again.status, again.body.error.code], [400, 'setup_intent_unexpected_state']);
    // The card is the customer's now.
    assert.deepEqual(
      (await get('stripe/list-cards', token)).body.data.map((c: { id: string; exp_year: number }) => [
        c.id,
        c.exp_year,
      ]),
      [[pm, 2041]],
    );

    refused(
      await post(
        'stripe/subscription/start_trial',
        { subscription_id: annual.id, payment_method: pm, idempotency_key: newKey() },
        token,
      ),
      'subscription_id',
      PAYMENT_MESSAGES.noTrial,
    );
    const key = newKey();
    const res = await post(
      'stripe/subscription/start_trial',
      { subscription_id: monthly.id, payment_method: pm, idempotency_key: key },
      token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const trial = endpoints.startTrial.response.parse(res.body).data.order;
    const now = Math.floor(h.nowMs / 1000);
    assert.deepEqual(
      [trial.type, trial.status, trial.activity_status, trial.auto_renewal, trial.price],
      ['subscription', 'paid', 'active', 'active', 0],
    );
    assert.equal(trial.expires_at, now + 7 * DAY);
    assert.equal((await event('ppv-live', token)).has_access, true);
    assert.equal(endpoints.profile.response.parse((await get('profile', token)).body).data.trial_period_used, true);
    assert.equal((await pricing(`type=subscription&id=${monthly.id}`, token)).body.data.trial_period, 0);
    // A retry answers the same order; another attempt finds the trial used.
    assert.equal(
      (
        await post(
          'stripe/subscription/start_trial',
          { subscription_id: monthly.id, payment_method: pm, idempotency_key: key },
          token,
        )
      ).body.data.order.id,
      trial.id,
    );
    refused(
      await post(
        'stripe/subscription/start_trial',
        { subscription_id: monthly.id, payment_method: pm, idempotency_key: newKey() },
        token,
      ),
      'subscription_id',
      'The trial has already been used.',
    );
    // The trial ends: the first charge opens the subscription.
    tick(7 * DAY * 1000 + 1000);
    const charged = await order(trial.id, token);
    assert.equal(charged.expires_at, now + 37 * DAY);
    assert.deepEqual(
      (await devOrders(email))[0]!.transactions.map((t) => [t.status, t.amount, t.label]),
      [['paid', 9.99, 'New subscription']],
    );
  });

  test('the declined card fails the setup intent; a trial with it cannot start', async () => {
    const { token } = await newUser();
    const { monthly } = await offers();
    const secret = (await post('stripe/setup-intent', {}, token)).body.data.client_secret as string;
    const id = secret.split('_secret_')[0]!;
    const declined = await stripe(`setup_intents/${id}/confirm`, {
      client_secret: secret,
      payment_method: await card(CARDS.declined),
    });
    assert.equal(declined.status, 402);
    assert.deepEqual(
      [declined.body.error.type, declined.body.error.code, declined.body.error.message],
      ['card_error', 'card_declined', 'Your card was declined.'],
    );
    assert.equal(declined.body.error.setup_intent.status, 'requires_payment_method');
    refused(
      await post(
        'stripe/subscription/start_trial',
        {
          subscription_id: monthly.id,
          payment_method: declined.body.error.setup_intent.payment_method ?? '',
          idempotency_key: newKey(),
        },
        token,
      ),
      'payment_method',
      PAYMENT_MESSAGES.trialNeedsCard,
    );
    // The subscriber used their trial already.
    const subscriber = await h.token('subscriber');
    const theirs = (await post('stripe/setup-intent', {}, subscriber)).body.data.client_secret as string;
    const ok2 = await stripe(`setup_intents/${theirs.split('_secret_')[0]}/confirm`, {
      client_secret: theirs,
      payment_method: await card(),
    });
    refused(
      await post(
        'stripe/subscription/start_trial',
        { subscription_id: monthly.id, payment_method: ok2.body.payment_method, idempotency_key: newKey() },
        subscriber,
      ),
      'subscription_id',
      PAYMENT_MESSAGES.trialUsed,
    );
  });
});

describe('customer portal', () => {
  test('a one-time session URL to a page listing the saved cards, with Remove and a safe way back', async () => {
    const { token } = await newUser();
    assert.equal((await get('stripe/customer-portal')).status, 401);
    const { category } = await offers();
    await bought({ type: 'package', id: category.id, payment_method: await card(), save_card: true }, token);
    tick(SETTLE_MS);
    const back = `${h.server.hostOrigin}/checkout.html?x=1`;
    const res = await get('stripe/customer-portal', token, `return_url=${encodeURIComponent(back)}`);
    const { url } = endpoints.customerPortal.response.parse(res.body).data;
    ok(url.startsWith(`${h.base}/__stripe/portal/bps_`), url);
    const other = endpoints.customerPortal.response.parse((await get('stripe/customer-portal', token)).body).data.url;
    assert.notEqual(other, url, 'a new session each time');
    const page = await h.call(url);
    assert.equal(page.status, 200);
    ok(String(page.headers.get('content-type')).startsWith('text/html'), 'HTML');
    ok(page.headers.get('content-security-policy')?.includes("script-src 'self'"), 'the demo CSP');
    ok(!/<script|style=/.test(page.body), 'no inline script or style');
    ok(page.body.includes('VISA •••• 4242'), 'lists the saved card');
    ok(page.body.includes(`<a href="${back.replace('&', '&#38;')}">Return to the site</a>`), page.body);
    // Only http(s) URLs of known origins go back; anything else goes to this server.
    for (const bad of ['https://evil.example/', 'javascript:alert(1)', 'not a url']) {
      const portal = (await get('stripe/customer-portal', token, `return_url=${encodeURIComponent(bad)}`)).body.data
        .url;
      ok((await h.call(portal)).body.includes(`<a href="${h.base}/">Return to the site</a>`), bad);
    }
    // Remove a card.
    const pm = (await get('stripe/list-cards', token)).body.data[0].id as string;
    const removed = await h.call(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `payment_method=${pm}`,
      redirect: 'manual',
    });
    assert.equal(removed.status, 303);
    assert.equal(removed.headers.get('location'), `${url}?removed=1`);
    assert.deepEqual((await get('stripe/list-cards', token)).body.data, []);
    ok((await h.call(`${url}?removed=1`)).body.includes('No saved cards.'), 'the page shows no card');
    // Unknown sessions, and links left unopened too long, show an expired page.
    assert.equal((await h.call(`${h.base}/__stripe/portal/bps_${'0'.repeat(48)}`)).status, 404);
    const late = (await get('stripe/customer-portal', token)).body.data.url;
    tick(301 * 1000);
    assert.equal((await h.call(late)).status, 404);
    assert.equal((await h.call(url)).status, 200, 'an opened session lasts longer');
  });
});

describe('the fake Stripe API', () => {
  const fields = (number: string, extra: Record<string, string> = {}) => ({
    type: 'card',
    'card[number]': number,
    'card[exp_month]': '12',
    'card[exp_year]': '2040',
    'card[cvc]': '123',
    ...extra,
  });

  test('payment methods: the test cards, a PaymentMethod shape; the card number is never stored', async () => {
    const res = await stripe(
      'payment_methods',
      fields('4242 4242 4242 4242', { 'billing_details[name]': 'Sam Shopper' }),
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.body.object, 'payment_method');
    ok(/^pm_[0-9a-f]+$/.test(res.body.id), res.body.id);
    assert.deepEqual(
      [res.body.card.brand, res.body.card.last4, res.body.card.exp_month, res.body.card.exp_year],
      ['visa', '4242', 12, 2040],
    );
    assert.equal(res.body.billing_details.name, 'Sam Shopper');
    // JSON bodies too, and two-digit years.
    const json = await h.call('/__stripe/v1/payment_methods', {
      method: 'POST',
      headers: { Authorization: 'Bearer pk_test_demo', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        type: 'card',
        card: { number: CARDS.insufficient, exp_month: 1, exp_year: 35, cvc: '999' },
      }),
    });
    assert.deepEqual([json.status, json.body.card.last4, json.body.card.exp_year], [200, '9995', 2035]);
    const stored = JSON.stringify(await h.server.db.all('SELECT * FROM payment_methods'));
    ok(!stored.includes(CARDS.ok) && !stored.includes(CARDS.insufficient), 'no card number in the database');
  });

  test('card errors like Stripe: 402 card_error with the code and message; keys and types checked', async () => {
    const cases: Array<[Record<string, string>, string, string]> = [
      [fields('4242 4242'), 'incomplete_number', 'Your card number is incomplete.'],
      [fields('4242424242424241'), 'invalid_number', 'Your card number is invalid.'],
      [fields('4111111111111111'), 'incorrect_number', 'Your card number is incorrect.'],
      [fields(CARDS.ok, { 'card[exp_year]': '' }), 'incomplete_expiry', "Your card's expiration date is incomplete."],
      [
        fields(CARDS.ok, { 'card[exp_month]': '13' }),
        'invalid_expiry_month',
        "Your card's expiration month is invalid.",
      ],
      [
        fields(CARDS.ok, { 'card[exp_year]': '2020' }),
        'invalid_expiry_year',
        "Your card's expiration year is in the past.",
      ],
      [
        fields(CARDS.ok, { 'card[exp_year]': '2030', 'card[exp_month]': '1' }),
        'invalid_expiry_month',
        "Your card's expiration date is in the past.",
      ],
      [fields(CARDS.ok, { 'card[cvc]': '' }), 'incomplete_cvc', "Your card's security code is incomplete."],
      [fields(CARDS.ok, { 'card[cvc]': '12' }), 'incomplete_cvc', "Your card's security code is incomplete."],
    ];
    for (const [params, code, message] of cases) {
      const res = await stripe('payment_methods', params);
      assert.equal(res.status, 402, `${code}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(
        [res.body.error.type, res.body.error.code, res.body.error.message],
        ['card_error', code, message],
      );
      ok(String(res.body.error.param).startsWith('card['), 'names the field');
    }
    const sepa = await stripe('payment_methods', { ...fields(CARDS.ok), type: 'sepa_debit' });
    assert.deepEqual([sepa.status, sepa.body.error.type], [400, 'invalid_request_error']);
    assert.equal((await stripe('payment_methods', fields(CARDS.ok), null)).status, 401);
    const wrong = await stripe('payment_methods', fields(CARDS.ok), 'pk_test_nobody_knows');
    assert.equal(wrong.status, 401);
    ok(!JSON.stringify(wrong.body).includes('pk_test_nobody_knows'), 'the key is masked');
    assert.equal((await h.call('/__stripe/v1/customers')).status, 405);
    assert.equal((await stripe('customers', {})).status, 404);
  });

  test('payment intents confirm by the card, recording nothing', async () => {
    const paid = await stripe('payment_intents/pi_123/confirm', {
      client_secret: 'pi_123_secret_abc',
      payment_method: await card(),
    });
    assert.deepEqual([paid.status, paid.body.object, paid.body.status], [200, 'payment_intent', 'succeeded']);
    const poor = await stripe('payment_intents/pi_123/confirm', {
      client_secret: 'pi_123_secret_abc',
      payment_method: await card(CARDS.insufficient),
    });
    assert.deepEqual(
      [poor.status, poor.body.error.decline_code, poor.body.error.message],
      [402, 'insufficient_funds', 'Your card has insufficient funds.'],
    );
    assert.equal(
      (
        await stripe('payment_intents/pi_123/confirm', {
          client_secret: 'pi_999_secret_abc',
          payment_method: await card(),
        })
      ).status,
      404,
    );
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
      refusedPartner(await buy({ ...paid, payment_method: await card(), partner }, token));
      refusedPartner(
        await post(
          'stripe/subscription/start_trial',
          { subscription_id: 1, idempotency_key: newKey(), partner },
          token,
        ),
      );
    }
    assert.deepEqual(await devOrders(email), [], 'no order of a refused partner');
    const created = await bought({ ...paid, payment_method: await card(), partner: ' Springfield-Gazette ' }, token);
    const [order] = await devOrders(email);
    assert.deepEqual([order!.id, order!.partner], [created.id, 'springfield-gazette']);
    // No partner, or a blank one: the order has none.
    const other = await newUser();
    await bought({ ...(await eventProduct('ppv-live')), payment_method: await card(), partner: '' }, other.token);
    assert.equal((await devOrders(other.email))[0]!.partner, null);
  });

  test('a trial keeps its partner too', async () => {
    const { email, token } = await newUser();
    const { monthly } = await offers();
    const secret = String((await post('stripe/setup-intent', {}, token)).body.data.client_secret);
    const id = secret.split('_secret_')[0]!;
    const confirmed = await stripe(`setup_intents/${id}/confirm`, {
      client_secret: secret,
      payment_method: await card(),
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    const trial = await post(
      'stripe/subscription/start_trial',
      {
        subscription_id: monthly.id,
        payment_method: String(confirmed.body.payment_method),
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
    // Earlier tests' direct orders may fall in the same second: the direct row is compared with itself before (with
    // those orders settled).
    tick(SETTLE_MS);
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
      await bought({ ...(await eventProduct('ppv-live')), payment_method: await card(number), partner }, token);
    }
    // Before settling: ordered, nothing paid yet.
    const pending = (await partners(since)).find((p) => p.partner === slug)!;
    assert.deepEqual([pending.orders, pending.paid, pending.revenue], [3, 0, {}]);
    tick(SETTLE_MS);
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
