/**
 * The checkout store (src/stores/checkout.ts) against the fake world: the purchased-flag rules, the pricing checks
 * (nothing sent when one fails), the totals, the order polling with the fake clock (2 s cadence, paid, failed with
 * the popup flag, a request error stops it, the bounded wait, the resume after a reload), the idempotency key of an
 * attempt, and the tag-manager events (value math, no secrets).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { Package, Pricing, User } from '../../../src/api/contract.js';
import { HttpError } from '../../../src/api/errors.js';
import type { PurchaseComplete } from '../../../src/events/index.js';
import {
  createCheckout,
  type CheckoutState,
  type CheckoutStore,
  type CheckoutTarget,
} from '../../../src/stores/checkout.js';
import { ecommerceParams, track } from '../../../src/stores/checkout/analytics.js';
import { PENDING_TTL_MS, storedAttempt } from '../../../src/stores/checkout/attempts.js';
import { $entitlementsVersion } from '../../../src/stores/commerce/entitlements.js';
import { isPaidActive, isPurchased, packageItem } from '../../../src/stores/commerce/purchases.js';
import { CheckoutError, PaymentFailedError } from '../../../src/stores/commerce/errors.js';
import { offerCards } from '../../../src/stores/commerce/offer-cards.js';
import { MAX_WAIT_MS, POLL_MS, waitForOrder } from '../../../src/stores/commerce/orders.js';
import { fetchPricing, pricingQuery, totalOf, trialDays } from '../../../src/stores/commerce/pricing.js';
import type { StripeElements } from '../../../src/lib/stripe.js';
import { AUTH_FAILED, resetFakeStripe, stripeLog } from '../fake-stripe.js';
import { installWorld, ok, settle, T0, teardown, until, type Recorded, type World } from '../helpers.js';
import { $settings, resetSession, startSession } from '../../../src/stores/session.js';
import { signIn } from '../../../src/stores/sign-in.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import { resetAnalytics } from '../../../src/stores/analytics/reset.js';
import { resetTagManager } from '../../../src/stores/tag-manager.js';
import { keepOuterTracker } from '../../../src/stores/analytics/datalake.js';
import { matchRoute } from '../../../src/lib/routes.js';
import { order } from '../../fixtures/contract.js';

const HOST = 'http://api.test';
const API = `${HOST}/api`;
const KEYS = `${HOST}/keys`;
const TOKEN = 'tok-buyer-secret';
const NOW_S = T0 / 1000;

const user = (fields: Record<string, unknown> = {}) => User.parse({ id: 7, email: 'fan@example.com', ...fields });
const pricing = (fields: Record<string, unknown> = {}) =>
  Pricing.parse({
    type: 'event',
    id: 501,
    name: 'Spring Final',
    price: 12.5,
    base_price: 15,
    service_fee: 0.63,
    discount: 0,
    total: 13.13,
    currency: 'EUR',
    ...fields,
  });

let w: World;

function serveChannel(settings: Record<string, unknown> = {}): void {
  w.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-1' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }))
    .on(
      'GET',
      `${API}/settings`,
      ok({ name: 'Demo', currency: 'EUR', stripe: { publishable_key: 'pk_demo' }, ...settings }),
    )
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country_code: 'US' }));
}

async function startSignedIn(fields: Record<string, unknown> = {}): Promise<void> {
  setConfig(
    { channelKey: 'demo', apiUrl: API, keysUrl: KEYS, analyticsUrl: 'http://api.test' },
    `${HOST}/channel-elements.js`,
  );
  await startSession();
  signIn({ token: TOKEN, user: user(fields) });
}

const calls = (method: string, path: string): Recorded[] => w.server.to(method, `${API}/${path}`);

describe('checkout', () => {
  beforeEach(() => {
    w = installWorld();
    resetFakeStripe();
  });
  afterEach(() => {
    $config.set(undefined);
    resetSession();
    teardown();
  });

  describe('purchased flags', () => {
    it('an event is purchased by a paid, active order for that event only', () => {
      const item = { type: 'event', id: 501 } as const;
      expect(isPurchased(item, [order()])).to.equal(true);
      expect(isPurchased(item, [order({ status: 'Paid' })]), 'any letter case').to.equal(true);
      expect(isPurchased(item, [order({ product: { id: 502 } })]), 'another event').to.equal(false);
      expect(isPurchased(item, [order({ type: 'package' })]), 'another kind').to.equal(false);
      expect(isPurchased(item, [order({ status: 'failed' })])).to.equal(false);
      expect(isPurchased(item, [order({ status: 'created' })])).to.equal(false);
      expect(isPurchased(item, [order({ status: 'Refunded', activity_status: 'inactive' })])).to.equal(false);
      expect(isPurchased(item, [order({ activity_status: 'inactive' })]), 'paid but not active').to.equal(false);
      expect(isPurchased(item, [order({ expires_at: NOW_S - 1 })]), 'expired').to.equal(false);
      expect(isPurchased(item, [])).to.equal(false);
    });

    it('a category package is purchased when every category it covers is covered', () => {
      const pkg = Package.parse({ id: 901, name: 'Hockey and basketball', price: 49, event_categories: [7, 2] });
      const covering = (category: number) =>
        order({ type: 'package', product: { id: 901, event_category_id: category } });
      expect(isPurchased(packageItem(pkg), [covering(7)]), 'one of two').to.equal(false);
      expect(isPurchased(packageItem(pkg), [covering(7), covering(2)])).to.equal(true);
      // An order of another package that covers the category counts too.
      const other = order({ type: 'package', product: { id: 950, event_category_id: 2 } });
      expect(isPurchased(packageItem(pkg), [covering(7), other])).to.equal(true);
      // The package's own order without a category covers all of it.
      expect(isPurchased(packageItem(pkg), [order({ type: 'package', product: { id: 901 } })])).to.equal(true);
      expect(isPurchased(packageItem(pkg), [covering(7), { ...covering(2), status: 'failed' }])).to.equal(false);
    });

    it('a team pass is purchased when every participant is covered, or the one asked about', () => {
      const pass = Package.parse({
        id: 903,
        name: 'Huskies pass',
        price: 25,
        is_team_pass: true,
        participants: [21, 22],
      });
      const team = (id: number) => order({ type: 'package', product: { id: 903, participant_id: id } });
      expect(isPurchased(packageItem(pass), [team(21)])).to.equal(false);
      expect(isPurchased(packageItem(pass, 21), [team(21)])).to.equal(true);
      expect(isPurchased(packageItem(pass, 22), [team(21)])).to.equal(false);
      expect(isPurchased(packageItem(pass), [team(21), team(22)])).to.equal(true);
    });

    it('a subscription is purchased while its order is paid and active', () => {
      const sub = (fields: Record<string, unknown> = {}) =>
        order({
          type: 'subscription',
          product: { id: 31 },
          subscription_status: 'active',
          auto_renewal: 'active',
          ...fields,
        });
      const item = { type: 'subscription', id: 31 } as const;
      expect(isPurchased(item, [sub()])).to.equal(true);
      expect(isPurchased(item, [sub({ auto_renewal: 'cancelled' })]), 'renewal off, still paid').to.equal(true);
      expect(isPurchased(item, [sub({ subscription_status: 'expired' })])).to.equal(false);
      expect(isPurchased(item, [sub({ subscription_status: 'canceled' })])).to.equal(false);
      expect(isPurchased(item, [sub({ product: { id: 32 } })])).to.equal(false);
      expect(isPaidActive(sub({ expires_at: NOW_S + 3600 }))).to.equal(true);
    });

    it('the offers list carries the flags; single-event passes are sold with their event only', () => {
      const cards = offerCards(
        [
          Package.parse({ id: 901, name: 'Hockey', price: 49, event_categories: [7], weight: 2 }),
          Package.parse({ id: 900, name: 'Single', price: 3, type: 'single', weight: 1 }),
        ],
        [{ id: 31, name: 'Monthly', price: 9.99, weight: 0, offer: 'monthly', trial_period: 7 }],
        [order({ type: 'package', product: { id: 901, event_category_id: 7 } })],
      );
      expect(cards.map((c) => [c.type, c.id, c.kind, c.purchased, c.trialDays])).to.deep.equal([
        ['package', 901, 'package', true, 0],
        ['subscription', 31, 'monthly', false, 7],
      ]);
    });
  });

  describe('pricing', () => {
    beforeEach(async () => {
      serveChannel();
      await startSignedIn();
      w.server.on('GET', `${API}/pricing`, ok(pricing()));
    });

    const refusal = async (request: Parameters<typeof fetchPricing>[0]) => {
      const result = await settle(fetchPricing(request));
      expect(result.error).to.be.instanceOf(CheckoutError);
      return (result.error as CheckoutError).message;
    };

    it('refuses without an id, a paid event without its pass, a team pass without a team: nothing is sent', async () => {
      expect(await refusal({ type: 'event', id: undefined })).to.equal('id not selected');
      expect(await refusal({ type: 'package', id: 0 })).to.equal('id not selected');
      expect(await refusal({ type: 'event', id: 501 })).to.equal('A paid event needs a single-event package id');
      expect(await refusal({ type: 'package', id: 903, teamPass: true })).to.equal(
        'Package is TeamPass but team not selected',
      );
      expect(calls('GET', 'pricing')).to.have.length(0);
    });

    it('sends the type, id, pass, team and coupon it has, and nothing empty', async () => {
      await fetchPricing({ type: 'event', id: 501, singleEventPackageId: 900 });
      await fetchPricing({ type: 'package', id: 903, teamPass: true, participantId: 21, coupon: 'SAVE10' });
      await fetchPricing({ type: 'subscription', id: 31, coupon: '' });
      expect(calls('GET', 'pricing').map((r) => ({ ...r.query, api_key: undefined }))).to.deep.equal([
        { type: 'event', id: '501', single_event_package_id: '900', api_key: undefined },
        { type: 'package', id: '903', participant_id: '21', coupon: 'SAVE10', api_key: undefined },
        { type: 'subscription', id: '31', api_key: undefined },
      ]);
      // The token travels in the header only.
      for (const r of calls('GET', 'pricing')) {
        expect(r.headers.authorization).to.equal(`Bearer ${TOKEN}`);
        expect(r.url).not.to.contain(TOKEN);
      }
    });

    it('a free event needs no pass to be priced', () => {
      expect(pricingQuery({ type: 'event', id: 501, paid: false })).to.include({ type: 'event', id: 501 });
    });
  });

  describe('totals and trials', () => {
    it('total = price - discount + service fee, in cents, never below zero', () => {
      expect(totalOf({ price: 12.5, discount: 1.25, service_fee: 0.63 })).to.equal(11.88);
      expect(totalOf({ price: 0.1, discount: 0, service_fee: 0.2 })).to.equal(0.3);
      expect(totalOf({ price: 5, discount: 10, service_fee: 0 })).to.equal(0);
    });

    it('a trial is offered for subscriptions with a trial the user has not used', () => {
      const sub = pricing({ type: 'subscription', id: 31, trial_period: 7 });
      expect(trialDays(sub, user())).to.equal(7);
      expect(trialDays(sub, user({ trial_period_used: true }))).to.equal(0);
      expect(trialDays(pricing({ type: 'subscription', trial_period: 0 }), user())).to.equal(0);
      expect(trialDays(pricing({ trial_period: 7 }), user()), 'not a subscription').to.equal(0);
    });
  });

  describe('polling', () => {
    beforeEach(async () => {
      serveChannel();
      await startSignedIn();
    });
    const created = order({ status: 'created', activity_status: null, reference: 'ORD-70' });
    const polls = () => calls('GET', 'orders/70');

    it('polls every 2 s until paid, then resolves with the order', async () => {
      w.server.on('GET', `${API}/orders/70`, ok(created), ok(created), ok(order({ reference: 'ORD-70' })));
      const wait = settle(waitForOrder(created));
      await w.advance(POLL_MS - 1);
      expect(polls(), 'nothing before 2 s').to.have.length(0);
      await w.advance(1);
      await w.advance(POLL_MS);
      await w.advance(POLL_MS);
      const result = await wait;
      expect(result.value?.status).to.equal('paid');
      expect(polls().map((r) => r.at - polls()[0]!.at)).to.deep.equal([0, POLL_MS, 2 * POLL_MS]);
      await w.advance(10 * POLL_MS);
      expect(polls(), 'no poll after it settled').to.have.length(3);
    });

    it('a failed order rejects with the order and the popup flag', async () => {
      w.server.on(
        'GET',
        `${API}/orders/70`,
        ok(created),
        ok(order({ status: 'failed', activity_status: null, error: 'Your card was declined.' })),
      );
      const wait = settle(waitForOrder(created));
      await w.advance(POLL_MS);
      await w.advance(POLL_MS);
      const { error } = await wait;
      expect(error).to.be.instanceOf(PaymentFailedError);
      expect((error as PaymentFailedError).popup).to.equal(true);
      expect((error as PaymentFailedError).order.error).to.equal('Your card was declined.');
    });

    it('a request error stops polling', async () => {
      w.server.on('GET', `${API}/orders/70`, ok(created), { status: 404, body: { message: 'Order not found' } });
      const wait = settle(waitForOrder(created));
      await w.advance(POLL_MS);
      await w.advance(POLL_MS);
      const { error } = await wait;
      expect(error).to.be.instanceOf(HttpError);
      await w.advance(10 * POLL_MS);
      expect(polls()).to.have.length(2);
    });

    it('the wait is bounded: after 60 s the order is still pending, never failed', async () => {
      w.server.on('GET', `${API}/orders/70`, ok(created));
      const wait = settle(waitForOrder(created));
      for (let t = 0; t < MAX_WAIT_MS; t += POLL_MS) await w.advance(POLL_MS);
      const result = await wait;
      expect(result.value?.status).to.equal('pending');
      expect(result.value?.order.reference).to.equal('ORD-70');
      expect(polls()).to.have.length(MAX_WAIT_MS / POLL_MS);
    });

    it('an order already paid or failed needs no poll', async () => {
      expect((await waitForOrder(order())).status).to.equal('paid');
      expect((await settle(waitForOrder(order({ status: 'failed' })))).error).to.be.instanceOf(PaymentFailedError);
      expect(polls()).to.have.length(0);
    });
  });

  describe('a purchase', () => {
    let store: CheckoutStore;
    let completed: PurchaseComplete[];
    const state = (): CheckoutState => store.$state.get();
    const created = order({ status: 'created', activity_status: null, reference: 'ORD-70' });
    const buys = () => calls('POST', 'stripe/buy');

    beforeEach(async () => {
      serveChannel();
      w.server
        .on(
          'GET',
          `${API}/events/501`,
          ok({
            id: 501,
            name: 'Spring Final',
            type: 'paid',
            event_utc_ts: NOW_S,
            stream_status: 'live',
            single_event_package_id: 900,
          }),
        )
        .on('GET', `${API}/pricing`, ok(pricing()))
        .on(
          'GET',
          `${API}/stripe/list-cards`,
          ok([{ id: 'pm_saved', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 }]),
        )
        .on('POST', `${API}/stripe/buy`, ok({ order: created }));
      await startSignedIn();
      completed = [];
      store = createCheckout({ onComplete: (detail) => completed.push(detail) });
    });
    afterEach(() => store.destroy());

    async function atPayment(target: CheckoutTarget = { type: 'event', id: 501 }): Promise<void> {
      store.setTarget(target);
      await until(() => state().pricing?.status === 'ready', 'the price');
      store.toPayment();
      await until(() => state().cards?.status === 'ready', 'the saved cards');
    }

    /** Stripe's Payment Element (for a price in euros), mounted on a detached node, with a number typed in. */
    async function newCard(number: string): Promise<StripeElements> {
      const node = document.createElement('div');
      const elements = (await store.stripe()).elements({ mode: 'payment', amount: 1313, currency: 'eur' });
      elements.create('payment').mount(node);
      node.querySelector('input')!.value = number;
      return elements;
    }

    /** A subscription with a 7-day trial; start_trial answers `action` (3-D Secure) when given. */
    function serveTrial(action?: string): void {
      w.server
        .on(
          'GET',
          `${API}/subscriptions/31`,
          ok({ id: 31, name: 'All-access monthly', price: 9.99, offer: 'monthly', trial_period: 7 }),
        )
        .on(
          'GET',
          `${API}/pricing`,
          ok(pricing({ type: 'subscription', id: 31, name: 'All-access monthly', trial_period: 7 })),
        )
        .on(
          'POST',
          `${API}/stripe/subscription/start_trial`,
          ok({
            order: order({ type: 'subscription', product: { id: 31 }, status: action ? 'created' : 'active' }),
            action: action ? { client_secret: action } : null,
          }),
        );
    }

    it('pays once with a saved card, polls and completes with ids only', async () => {
      w.server.on('GET', `${API}/orders/70`, ok(created), ok(order({ reference: 'ORD-70' })));
      await atPayment();
      const first = store.pay({ kind: 'saved', id: 'pm_saved' });
      void store.pay({ kind: 'saved', id: 'pm_saved' });
      await first;
      expect(buys(), 'a double press buys once').to.have.length(1);
      const body = buys()[0]!.body as Record<string, unknown>;
      expect(body).to.include({ type: 'event', id: 501, single_event_package_id: 900, payment_method: 'pm_saved' });
      expect(body.idempotency_key).to.match(/^[0-9a-f-]{36}$/);
      expect(body, 'no partner on a page of none').not.to.have.property('partner');
      expect(state().view).to.equal('waiting');
      expect(storedAttempt()?.order?.id, 'kept for a reload').to.equal(70);
      const version = $entitlementsVersion.get();
      await w.advance(POLL_MS);
      expect($entitlementsVersion.get(), 'nothing changed while pending').to.equal(version);
      await w.advance(POLL_MS);
      await until(() => state().view === 'success', 'success');
      expect(completed).to.deep.equal([{ orderId: 70, product: { type: 'event', id: 501 } }]);
      expect($entitlementsVersion.get(), 'players and lists hear that entitlements changed').to.equal(version + 1);
      expect(storedAttempt(), 'the attempt is over').to.equal(undefined);
    });

    it('a team named in advance (the site’s participant_id) is chosen when the team pass offers it', async () => {
      w.server
        .on(
          'GET',
          `${API}/packages/903`,
          ok({ id: 903, name: 'Huskies team pass', price: 25, is_team_pass: true, participants: [21, 22] }),
        )
        .on(
          'GET',
          `${API}/participants`,
          ok([
            { id: 21, name: 'Northfield Huskies' },
            { id: 22, name: 'Lakeside State Lakers' },
          ]),
        );
      const { buyTarget } = await import('../../../src/components/app/pages/Buy.js');
      const target = buyTarget(matchRoute('/buy', { package_id: '903', participant_id: '21' })!);
      expect(target).to.deep.equal({ type: 'package', id: 903, team: 21 });
      store.setTarget(target);
      await until(() => state().pricing?.status === 'ready', 'the price, with no team to choose first');
      expect(state().team).to.equal(21);
      expect(w.server.to('GET', `${API}/pricing`).at(-1)!.query).to.include({ participant_id: '21' });
      // A team the pass does not offer is not chosen: the viewer picks one.
      store.setTarget({ type: 'package', id: 903, team: 77 });
      await until(() => state().view === 'summary' && state().product?.id === 903, 'the summary');
      expect(state().team).to.equal(undefined);
    });

    it('the order names the partner the page is attributed to (here the landing address’s trk, a slug)', async () => {
      w.server.on('GET', `${API}/orders/70`, ok(order()));
      keepOuterTracker('acme-news', true);
      await atPayment();
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      expect(buys()[0]!.body).to.include({ partner: 'acme-news', payment_method: 'pm_saved' });
    });

    it('a new card becomes a ConfirmationToken through Stripe (saved when asked); card data never reaches the API', async () => {
      w.server.on('GET', `${API}/orders/70`, ok(order()));
      await atPayment();
      await store.pay({ kind: 'new', elements: await newCard('4242 4242 4242 4242'), save: true });
      expect(stripeLog.submit, 'the field is validated first').to.equal(1);
      expect(stripeLog.tokens).to.deep.equal([{ id: 'ctoken_4242', setupFutureUsage: 'off_session' }]);
      const body = buys()[0]!.body as Record<string, unknown>;
      expect(body).to.include({ confirmation_token: 'ctoken_4242', save_card: true });
      expect(body).not.to.have.property('payment_method');
      expect(JSON.stringify(w.server.requests.map((r) => [r.url, r.body]))).not.to.contain('4242424242424242');
      expect(stripeLog.nextActions, 'no action asked').to.deep.equal([]);
    });

    it('3-D Secure: the answer’s action runs handleNextAction with its client secret, then the order is polled', async () => {
      w.server
        .on('POST', `${API}/stripe/buy`, ok({ order: created, action: { client_secret: 'pi_1_secret_a' } }))
        .on('GET', `${API}/orders/70`, ok(order({ reference: 'ORD-70' })));
      await atPayment();
      await store.pay({ kind: 'new', elements: await newCard('4000 0025 0000 3155'), save: false });
      expect(stripeLog.nextActions).to.deep.equal(['pi_1_secret_a']);
      expect(stripeLog.tokens[0]!.setupFutureUsage, 'not saved').to.equal(null);
      expect(state().view).to.equal('waiting');
      await w.advance(POLL_MS);
      await until(() => state().view === 'success', 'success');
      expect(completed).to.deep.equal([{ orderId: 70, product: { type: 'event', id: 501 } }]);
    });

    it('3-D Secure failed (or the challenge closed): back at the card step with Stripe’s message; the next Pay is a new attempt', async () => {
      w.server.on('POST', `${API}/stripe/buy`, ok({ order: created, action: { client_secret: 'pi_1_secret_a' } }));
      stripeLog.nextAction = 'fail';
      await atPayment();
      await store.pay({ kind: 'new', elements: await newCard('4000 0027 6000 3184'), save: false });
      expect(state().view).to.equal('payment');
      expect(state().busy).to.equal(false);
      expect((state().payError as Error).message).to.equal(AUTH_FAILED);
      expect(calls('GET', 'orders/70'), 'no wait').to.have.length(0);
      expect(storedAttempt(), 'the attempt is over').to.equal(undefined);
      const first = (buys()[0]!.body as { idempotency_key: string }).idempotency_key;
      stripeLog.nextAction = 'complete';
      w.server
        .on('POST', `${API}/stripe/buy`, ok({ order: { ...created, id: 71 } }))
        .on('GET', `${API}/orders/71`, ok(order({ id: 71 })));
      await store.pay({ kind: 'new', elements: await newCard('4242 4242 4242 4242'), save: false });
      expect((buys()[1]!.body as { idempotency_key: string }).idempotency_key).not.to.equal(first);
      expect(state().view).to.equal('waiting');
    });

    it('an order the server already settled (paid or failed) asks for no action', async () => {
      w.server.on(
        'POST',
        `${API}/stripe/buy`,
        ok({ order: order({ status: 'failed', activity_status: null, error: 'Your card was declined.' }) }),
      );
      await atPayment();
      await store.pay({ kind: 'new', elements: await newCard('4000 0000 0000 0002'), save: false });
      await until(() => state().failure !== undefined, 'the failure popup');
      expect(state().failure?.error).to.equal('Your card was declined.');
      expect(stripeLog.nextActions).to.deep.equal([]);
    });

    it('a card Stripe refuses shows its message and sends no order', async () => {
      await atPayment();
      await store.pay({ kind: 'new', elements: await newCard('1234'), save: false });
      expect((state().payError as Error).message).to.equal('Your card number is incorrect.');
      expect(state().busy).to.equal(false);
      expect(buys()).to.have.length(0);
    });

    it('no card chosen: the refusal message, nothing sent', async () => {
      await atPayment();
      await store.pay(undefined);
      expect((state().payError as CheckoutError).message).to.equal(
        'Please select one of your saved cards or enter new one',
      );
      expect(buys()).to.have.length(0);
    });

    it('the idempotency key is reused on a retry and new after a failed order', async () => {
      await atPayment();
      // The buy's answer is lost twice (the client's own retry included): the viewer presses Pay again.
      w.server.on(
        'POST',
        `${API}/stripe/buy`,
        new TypeError('Failed to fetch'),
        new TypeError('Failed to fetch'),
        ok({ order: created }),
      );
      const first = store.pay({ kind: 'saved', id: 'pm_saved' });
      await w.advance(1_000);
      await first;
      expect(state().payError).to.be.instanceOf(Error);
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      const keys = buys().map((r) => (r.body as { idempotency_key: string }).idempotency_key);
      expect(keys).to.have.length(3);
      expect(new Set(keys).size, 'one key for the attempt').to.equal(1);
      // The order fails: the popup shows it, and the next attempt has a new key.
      w.server.on(
        'GET',
        `${API}/orders/70`,
        ok(order({ status: 'failed', activity_status: null, error: 'Your card was declined.' })),
      );
      await w.advance(POLL_MS);
      await until(() => state().failure !== undefined, 'the failure popup');
      expect(state().view).to.equal('payment');
      expect(state().failure?.error).to.equal('Your card was declined.');
      store.dismissFailure();
      w.server.on('POST', `${API}/stripe/buy`, ok({ order: { ...created, id: 71 } }));
      w.server.on('GET', `${API}/orders/71`, ok(order({ id: 71 })));
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      const last = (buys().at(-1)!.body as { idempotency_key: string }).idempotency_key;
      expect(last).not.to.equal(keys[0]);
    });

    it('a request error stops polling; Retry resumes it', async () => {
      w.server.on('GET', `${API}/orders/70`, { status: 404, body: { message: 'Order not found' } }, ok(order()));
      await atPayment();
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      await w.advance(POLL_MS);
      await until(() => state().view === 'poll-error', 'the poll error');
      await w.advance(5 * POLL_MS);
      expect(calls('GET', 'orders/70')).to.have.length(1);
      store.retryWait();
      await w.advance(POLL_MS);
      await until(() => state().view === 'success', 'success');
    });

    it('the bounded wait ends pending with the order reference', async () => {
      w.server.on('GET', `${API}/orders/70`, ok(created));
      await atPayment();
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      for (let t = 0; t < MAX_WAIT_MS; t += POLL_MS) await w.advance(POLL_MS);
      await until(() => state().view === 'pending', 'pending');
      expect(state().order?.reference).to.equal('ORD-70');
      expect(storedAttempt()?.order?.id, 'a reload still resumes it').to.equal(70);
    });

    it('a reload during the wait resumes it from storage (kept for 1 h)', async () => {
      w.server.on('GET', `${API}/orders/70`, ok(created), ok(order({ reference: 'ORD-70' })));
      await atPayment();
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      store.destroy();
      // A new page: a new checkout for the same attributes.
      store = createCheckout({ onComplete: (detail) => completed.push(detail) });
      store.setTarget({ type: 'event', id: 501 });
      await until(() => state().view === 'waiting', 'the resumed wait');
      expect(state().order?.reference).to.equal('ORD-70');
      await w.advance(POLL_MS);
      await w.advance(POLL_MS);
      await until(() => state().view === 'success', 'success');
      expect(completed).to.deep.equal([{ orderId: 70, product: { type: 'event', id: 501 } }]);
      expect(calls('GET', 'events/501'), 'the product is not reopened during the wait').to.have.length(1);
    });

    it('an order that failed while the page was away reopens the product with the popup and a new attempt', async () => {
      w.server.on(
        'GET',
        `${API}/orders/70`,
        ok(order({ status: 'failed', activity_status: null, error: 'Your card has insufficient funds.' })),
      );
      await atPayment();
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      store.destroy();
      store = createCheckout();
      store.setTarget({ type: 'event', id: 501 });
      await until(() => state().view === 'waiting', 'the resumed wait');
      await w.advance(POLL_MS);
      await until(() => state().view === 'summary' && state().pricing?.status === 'ready', 'the summary again');
      expect(state().failure?.error).to.equal('Your card has insufficient funds.');
      expect(storedAttempt(), 'the attempt is over').to.equal(undefined);
    });

    it('a stored wait older than an hour is not resumed', async () => {
      await atPayment();
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      store.destroy();
      await w.advance(PENDING_TTL_MS + 1);
      store = createCheckout();
      expect(storedAttempt()).to.equal(undefined);
    });

    it('a trial: start_trial with the ConfirmationToken (the server saves the card); no charge', async () => {
      serveTrial();
      await atPayment({ type: 'subscription', id: 31 });
      await store.pay({ kind: 'new', elements: await newCard('4242424242424242'), save: false });
      await until(() => state().view === 'success', 'success');
      expect(stripeLog.tokens).to.deep.equal([{ id: 'ctoken_4242', setupFutureUsage: null }]);
      expect(calls('POST', 'stripe/setup-intent'), 'the server makes the setup intent').to.have.length(0);
      expect(calls('POST', 'stripe/subscription/start_trial')[0]!.body).to.include({
        subscription_id: 31,
        confirmation_token: 'ctoken_4242',
      });
      expect(buys()).to.have.length(0);
      expect(state().bought?.trial).to.equal(true);
      expect(completed).to.deep.equal([{ orderId: 70, product: { type: 'subscription', id: 31 } }]);
    });

    it('a trial with a saved card whose setup asks for 3-D Secure: handleNextAction with the setup intent’s secret', async () => {
      serveTrial('seti_2_secret_b');
      w.server.on(
        'GET',
        `${API}/orders/70`,
        ok(order({ type: 'subscription', product: { id: 31 }, status: 'active' })),
      );
      await atPayment({ type: 'subscription', id: 31 });
      await store.pay({ kind: 'saved', id: 'pm_saved' });
      expect(stripeLog.nextActions).to.deep.equal(['seti_2_secret_b']);
      expect(calls('POST', 'stripe/subscription/start_trial')[0]!.body).to.include({
        subscription_id: 31,
        payment_method: 'pm_saved',
      });
      await w.advance(POLL_MS);
      await until(() => state().view === 'success', 'success');
    });
  });

  describe('tag manager', () => {
    const dataLayer = () => ((window as unknown as { dataLayer?: IArguments[] }).dataLayer ?? []).map((a) => [...a]);
    beforeEach(() => {
      resetAnalytics();
      // A page on localhost (the test runner's) sends analytics only to an analytics URL given explicitly.
      setConfig(
        { channelKey: 'demo', apiUrl: API, keysUrl: KEYS, analyticsUrl: 'http://api.test' },
        `${HOST}/channel-elements.js`,
      );
      delete (window as unknown as { dataLayer?: unknown }).dataLayer;
      delete (window as unknown as { gtag?: unknown }).gtag;
    });
    afterEach(() => {
      $settings.set(undefined);
      document.querySelectorAll('script[src*="gtag"]').forEach((s) => s.remove());
    });

    it('value = price - discount + tax, with currency, fee, tax, coupon and discount', () => {
      const params = ecommerceParams(
        pricing({ price: 20, discount: 2, service_fee: 1.5, coupon: 'SAVE10', total: 19.5 }),
        70,
      );
      expect(params).to.deep.include({
        currency: 'EUR',
        price: 20,
        fee: 1.5,
        tax: 1.5,
        coupon: 'SAVE10',
        discount: 2,
        value: 19.5,
        transaction_id: '70',
      });
    });

    it('loads the tag manager once, lazily, and sends events without secrets; nothing without an id', async () => {
      $settings.set({
        language: 'en',
        currency: 'EUR',
        auth: { remote_auth: false },
        'google-analytics': 'G-TEST1',
      } as never);
      track('view_buy_page', pricing());
      track('purchase', pricing(), 70);
      // Sent once analytics may: at an idle moment, never in the middle of what the viewer is doing.
      await waitUntil(() => dataLayer().filter((a) => a[0] === 'event').length === 2, 'the events', { timeout: 4000 });
      const scripts = [...document.querySelectorAll<HTMLScriptElement>('script[src*="googletagmanager"]')];
      expect(scripts.map((s) => s.src)).to.deep.equal(['https://www.googletagmanager.com/gtag/js?id=G-TEST1']);
      const events = dataLayer().filter((a) => a[0] === 'event');
      expect(events.map((a) => a[1])).to.deep.equal(['view_buy_page', 'purchase']);
      expect(JSON.stringify(dataLayer())).not.to.match(/tok-|pm_|secret|4242/);
      $settings.set({ language: 'en', currency: 'EUR', auth: { remote_auth: false } } as never);
      track('purchase_success', pricing(), 70);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(dataLayer().filter((a) => a[0] === 'event')).to.have.length(2);
    });

    it('uses the channel gtag_url when the page allows its origin', async () => {
      setConfig(
        {
          channelKey: 'demo',
          apiUrl: API,
          keysUrl: KEYS,
          analyticsUrl: 'http://api.test',
          scriptOrigins: 'https://tags.test',
        },
        `${HOST}/channel-elements.js`,
      );
      $settings.set({
        language: 'en',
        currency: 'EUR',
        auth: { remote_auth: false },
        'google-analytics': 'G-LOCAL',
        gtag_url: 'https://tags.test/gtag.js?id=G-LOCAL',
      } as never);
      track('add_to_cart', pricing());
      await waitUntil(() => document.querySelector('script[src*="gtag.js"]'), 'the script', { timeout: 4000 });
      expect([...document.querySelectorAll<HTMLScriptElement>('script[src*="gtag"]')].map((s) => s.src)).to.deep.equal([
        'https://tags.test/gtag.js?id=G-LOCAL',
      ]);
    });

    it('loads no gtag_url of an origin the page does not allow, nor a script URL, and says why', async () => {
      const warnings = w.lines.warn;
      for (const [i, url] of ['https://evil.test/gtag.js', 'javascript:alert(1)', 'data:text/javascript,1'].entries()) {
        resetTagManager();
        $settings.set({
          language: 'en',
          currency: 'EUR',
          auth: { remote_auth: false },
          'google-analytics': `G-BAD${i}`,
          gtag_url: url,
        } as never);
        track('add_to_cart', pricing());
        await waitUntil(() => warnings.length === i + 1, 'the warning', { timeout: 4000 });
        expect(warnings[i]).to.contain('is not loaded: it must come from https://www.googletagmanager.com');
      }
      expect(
        document.querySelectorAll('script[src*="gtag"], script[src^="javascript"], script[src^="data"]'),
      ).to.have.length(0);
      expect(dataLayer().filter((a) => a[0] === 'event')).to.have.length(0);
    });
  });
});
