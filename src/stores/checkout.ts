/**
 * The checkout (spec sections 3, 4, 5, 7 and 9): what a `<channel-checkout>` sells, its price, coupons, saved
 * cards, the card payment and its settlement, trials, and the subscription actions of the profile.
 *
 * - Pricing checks its input first (section 5): without an id, a paid event without its single-event package,
 *   or a team pass without a team, nothing is sent.
 * - A purchase carries an idempotency key made once per attempt: a retry (a lost answer, a reload) sends the
 *   same key, so the server never makes a second order; a failed order ends the attempt.
 * - The order is polled every 2 s: paid resolves, failed rejects with the order and the popup flag, a request
 *   error stops polling. The wait is bounded (60 s): after it, the order is still pending, never "failed".
 *   The pending order is kept for an hour under `checkout.<channel>`, so a reload resumes the wait.
 * - Card data never comes here: Stripe.js turns the card field into a PaymentMethod id (src/lib/stripe.ts).
 * - Tag-manager e-commerce events go out when the channel has a google-analytics id, never blocking anything.
 */
import { atom, type ReadableAtom } from 'nanostores';
import * as z from 'zod/mini';
import {
  PRODUCT_TYPES,
  type Event,
  type Order,
  type Package,
  type Pricing,
  type ProductType,
  type SavedCard,
  type Subscription,
  type User,
} from '../api/contract.js';
import { HttpError, isCancel } from '../api/errors.js';
import { env, sleep } from '../env.js';
import type { PurchaseComplete } from '../events/index.js';
import { tagManager } from '../lib/gtag.js';
import { randomId } from '../lib/ids.js';
import { loadStripeFor, setupPaymentMethod, type StripeCard, type StripeFailure, type StripeLike } from '../lib/stripe.js';
import { participants as participantCatalog } from './catalog.js';
import { $config } from './config.js';
import { $settings, $user, getClient, identified, startSession } from './session.js';

/** Order poll interval (spec section 9). */
export const POLL_MS = 2_000;
/** How long a checkout waits for the order to settle before saying "we'll let you know". */
export const MAX_WAIT_MS = 60_000;
/** How long a pending order is kept for a reload to resume (1 h). */
export const PENDING_TTL_MS = 3_600_000;

// ---------------------------------------------------------------- purchased flags (spec section 4)

/** Something a viewer can hold, as the purchased-flag rules need it. */
export type PurchasableItem =
  | { type: 'event'; id: number }
  | {
      type: 'package';
      id: number;
      /** Categories the package covers. */
      eventCategories?: readonly number[] | undefined;
      teamPass?: boolean | undefined;
      /** Teams a team pass can be bought for. */
      participants?: readonly number[] | undefined;
      /** Team passes: ask about one team only. */
      participantId?: number | undefined;
    }
  | { type: 'subscription'; id: number };

/** A package as a purchasable item (optionally for one team of a team pass). */
export function packageItem(pkg: Package, participantId?: number): PurchasableItem {
  return {
    type: 'package',
    id: pkg.id,
    eventCategories: pkg.event_categories,
    teamPass: pkg.is_team_pass,
    participants: pkg.participants,
    participantId,
  };
}

const ENDED_SUBSCRIPTION = new Set(['expired', 'inactive', 'canceled', 'cancelled']);

/**
 * True for an order that is paid and active now: status paid (or active), activity status active when given,
 * not past its expiry, and for subscriptions not expired, inactive or canceled. Letter case does not matter.
 */
export function isPaidActive(order: Order, now = env().now()): boolean {
  const status = order.status.toLowerCase();
  if (status !== 'paid' && status !== 'active') return false;
  const activity = order.activity_status?.toLowerCase();
  if (activity && activity !== 'active') return false;
  if (order.expires_at && order.expires_at * 1000 <= now) return false;
  if (order.type === 'subscription' && ENDED_SUBSCRIPTION.has(order.subscription_status?.toLowerCase() ?? '')) return false;
  return true;
}

/**
 * The purchased flag (spec section 4): an item is purchased when a paid, active order exists for it. A package
 * counts as purchased when every event category it covers is covered by such orders, or, for a team pass, every
 * participant (or the one asked about). An order of the package itself without a category or team covers all.
 */
export function isPurchased(item: PurchasableItem, orders: readonly Order[]): boolean {
  const held = orders.filter((o) => o.type === item.type && isPaidActive(o));
  if (item.type !== 'package') return held.some((o) => o.product.id === item.id);
  const covers = (pick: (o: Order) => number | null | undefined, value: number) =>
    held.some((o) => pick(o) === value || (o.product.id === item.id && pick(o) == null));
  if (item.teamPass) {
    if (item.participantId !== undefined) return covers((o) => o.product.participant_id, item.participantId);
    const teams = item.participants ?? [];
    if (teams.length === 0) return held.some((o) => o.product.id === item.id);
    return teams.every((team) => covers((o) => o.product.participant_id, team));
  }
  const categories = item.eventCategories ?? [];
  if (categories.length === 0) return held.some((o) => o.product.id === item.id);
  return categories.every((category) => covers((o) => o.product.event_category_id, category));
}

// ---------------------------------------------------------------- errors

/** What a checkout step can refuse before (or instead of) asking the server. */
export type CheckoutErrorCode =
  | 'id-missing'
  | 'package-missing'
  | 'team-missing'
  | 'promo-required'
  | 'promo-invalid'
  | 'select-card'
  | 'card-not-ready'
  | 'no-stripe';

/** English texts of the refusals (spec section 5 where it has one); the UI translates by code. */
const CHECKOUT_MESSAGES: Record<CheckoutErrorCode, string> = {
  'id-missing': 'id not selected',
  'package-missing': 'A paid event needs a single-event package id',
  'team-missing': 'Package is TeamPass but team not selected',
  'promo-required': 'Enter a promo code',
  'promo-invalid': 'Promo code is invalid',
  'select-card': 'Please select one of your saved cards or enter new one',
  'card-not-ready': 'The card field is not ready yet',
  'no-stripe': 'This channel has no Stripe publishable key (settings.stripe.publishable_key)',
};

/** A refusal of the checkout itself (nothing was sent, or the server's answer means this). */
export class CheckoutError extends Error {
  override name = 'CheckoutError';
  constructor(readonly code: CheckoutErrorCode) {
    super(CHECKOUT_MESSAGES[code]);
  }
}

/** Stripe refused the card (createPaymentMethod or confirmCardSetup): its code and message for the viewer. */
export class CardError extends Error {
  override name = 'CardError';
  readonly code: string | undefined;
  constructor(failure: StripeFailure | undefined) {
    super(failure?.message || 'The card was not accepted.');
    this.code = failure?.code;
  }
}

/** The order failed (spec section 8: rejects with the order data and popup=true). */
export class PaymentFailedError extends Error {
  override name = 'PaymentFailedError';
  readonly popup = true;
  constructor(readonly order: Order) {
    super(order.error || 'The payment failed.');
  }
}

// ---------------------------------------------------------------- pricing (spec section 5)

/** What a price is asked for. */
export interface PricingRequest {
  type: ProductType;
  id?: number | undefined;
  /** Events: the single-event package that sells it. */
  singleEventPackageId?: number | undefined;
  /** Events: whether it is paid (a paid event needs its single-event package). Default true. */
  paid?: boolean | undefined;
  /** Packages: a team pass needs a team. */
  teamPass?: boolean | undefined;
  participantId?: number | undefined;
  coupon?: string | undefined;
}

/** The query of `GET pricing`, or the refusal of section 5 (then nothing may be sent). */
export function pricingQuery(request: PricingRequest): Record<string, string | number | undefined> {
  if (!request.id) throw new CheckoutError('id-missing');
  if (request.type === 'event' && request.paid !== false && !request.singleEventPackageId) {
    throw new CheckoutError('package-missing');
  }
  if (request.type === 'package' && request.teamPass && !request.participantId) throw new CheckoutError('team-missing');
  return {
    type: request.type,
    id: request.id,
    single_event_package_id: request.type === 'event' ? request.singleEventPackageId : undefined,
    participant_id: request.type === 'package' && request.teamPass ? request.participantId : undefined,
    coupon: request.coupon || undefined,
  };
}

/** `GET pricing` after the checks of section 5 (a refusal rejects before anything is sent). */
export async function fetchPricing(request: PricingRequest, signal?: AbortSignal): Promise<Pricing> {
  const query = pricingQuery(request);
  const answer = await getClient().call('pricing', { query, signal, cache: false });
  return answer.data;
}

/** Rounds to cents (prices are decimal amounts; float sums like 0.1 + 0.2 must not show). */
const cents = (amount: number) => Math.round(amount * 100) / 100;

/** What the viewer pays: price - discount + service fee (shown as 'Taxes'), never below zero. */
export function totalOf(pricing: Pick<Pricing, 'price' | 'discount' | 'service_fee'>): number {
  return Math.max(0, cents(pricing.price - pricing.discount + pricing.service_fee));
}

/** The trial length this viewer gets for this price: the subscription's, unless the user already used one. */
export function trialDays(pricing: Pricing | undefined, user: User | undefined): number {
  if (!pricing || pricing.type !== 'subscription' || user?.trial_period_used) return 0;
  const days = pricing.trial_period ?? 0;
  return days > 0 ? days : 0;
}

/** Monthly or annual, from a subscription's offer and period (billing periods annual, month, monthly). */
export function subscriptionPeriod(offer: { offer?: string | null | undefined; period?: string | null | undefined }): 'monthly' | 'annual' {
  return /annual|year/i.test(`${offer.offer ?? ''} ${offer.period ?? ''}`) ? 'annual' : 'monthly';
}

// ---------------------------------------------------------------- polling (spec sections 4 and 9)

/** How an order stands: paid (or an active trial), failed, or still pending. */
export function orderOutcome(order: Order): 'paid' | 'failed' | 'pending' {
  const status = order.status.toLowerCase();
  if (status === 'paid' || status === 'active') return 'paid';
  if (status === 'failed') return 'failed';
  return 'pending';
}

/** The end of a wait: paid, or still pending when the bounded wait ran out. */
export type WaitOutcome = { status: 'paid'; order: Order } | { status: 'pending'; order: Order };

/** Waits `ms` on the environment's clock; an abort rejects at once. */
/**
 * Follows an order until it settles: `GET orders/{id}` every 2 s. Paid resolves; failed rejects with a
 * PaymentFailedError (the order and the popup flag); a request error rejects with that error (polling stops);
 * after `maxWaitMs` still pending resolves `{ status: 'pending' }`.
 */
export async function waitForOrder(
  order: Pick<Order, 'id'> & Partial<Order>,
  options: { signal?: AbortSignal | undefined; maxWaitMs?: number } = {},
): Promise<WaitOutcome> {
  const full = 'status' in order && order.status !== undefined ? (order as Order) : undefined;
  if (full) {
    const now = orderOutcome(full);
    if (now === 'paid') return { status: 'paid', order: full };
    if (now === 'failed') throw new PaymentFailedError(full);
  }
  const started = env().now();
  const maxWait = options.maxWaitMs ?? MAX_WAIT_MS;
  for (;;) {
    await sleep(POLL_MS, options.signal);
    const answer = await getClient().call('order', { params: { id: order.id }, cache: false, signal: options.signal });
    const current = answer.data;
    const outcome = orderOutcome(current);
    if (outcome === 'paid') return { status: 'paid', order: current };
    if (outcome === 'failed') throw new PaymentFailedError(current);
    if (env().now() - started >= maxWait) return { status: 'pending', order: current };
  }
}

// ---------------------------------------------------------------- the stored attempt

/** What a checkout keeps across reloads: the attempt's key and, once bought, the pending order. */
const StoredAttempt = z.object({
  key: z.string(),
  user: z.number(),
  product: z.object({
    type: z.enum(PRODUCT_TYPES),
    id: z.number(),
    name: z.optional(z.string()),
    participant: z.optional(z.number()),
    trial: z.optional(z.boolean()),
  }),
  order: z.optional(z.object({ id: z.number(), reference: z.optional(z.nullable(z.string())) })),
});
type StoredAttempt = z.infer<typeof StoredAttempt>;

const attemptKey = () => `checkout.${$config.get()?.channelKey ?? ''}`;

/** The stored attempt of this channel, if any is still valid (1 h). */
export function storedAttempt(): StoredAttempt | undefined {
  const parsed = StoredAttempt.safeParse(env().storage.get(attemptKey()));
  return parsed.success ? parsed.data : undefined;
}

function storeAttempt(attempt: StoredAttempt | undefined): void {
  if (attempt) env().storage.set(attemptKey(), attempt, PENDING_TTL_MS);
  else env().storage.remove(attemptKey());
}


const sameProduct = (a: StoredAttempt['product'], b: StoredAttempt['product']) =>
  a.type === b.type && a.id === b.id && (a.participant ?? 0) === (b.participant ?? 0);

/**
 * The idempotency key of this attempt at buying `product`: the stored one while the attempt lasts (retries and
 * reloads send the same key), a new one for another product, user or after the attempt ended.
 */
export function attemptFor(product: StoredAttempt['product'], user: number): StoredAttempt {
  const stored = storedAttempt();
  if (stored && stored.user === user && sameProduct(stored.product, product)) return stored;
  const fresh: StoredAttempt = { key: randomId(), user, product };
  storeAttempt(fresh);
  return fresh;
}

/** Ends the attempt (paid, or failed: the next try gets a new key). */
export function endAttempt(): void {
  storeAttempt(undefined);
}

// ---------------------------------------------------------------- tag manager (spec section 7)

/** The e-commerce events the checkout sends to the tag manager. */
export type TagEvent = 'view_buy_page' | 'add_to_cart' | 'begin_checkout' | 'purchase' | 'purchase_success' | 'purchase_failed';

/**
 * The parameters of an e-commerce event: currency, price, fee and tax (the service fee, shown as 'Taxes'),
 * coupon, discount and value = price - discount + tax. Ids and amounts only: no token, card or personal data.
 */
export function ecommerceParams(pricing: Pricing, transactionId?: number): Record<string, unknown> {
  const tax = pricing.service_fee;
  const params: Record<string, unknown> = {
    currency: pricing.currency || 'USD',
    price: pricing.price,
    fee: pricing.service_fee,
    tax,
    coupon: pricing.coupon || undefined,
    discount: pricing.discount,
    value: cents(pricing.price - pricing.discount + tax),
    items: [{ item_id: `${pricing.type}-${pricing.id}`, item_name: pricing.name, item_category: pricing.type, price: pricing.price }],
  };
  if (transactionId !== undefined) params.transaction_id = String(transactionId);
  return params;
}

/** Sends a checkout event to the tag manager when the channel has one; never throws, never waits. */
export function track(name: TagEvent, pricing: Pricing | undefined, transactionId?: number): void {
  const settings = $settings.get();
  const id = settings?.['google-analytics'];
  if (!id || !pricing) return;
  try {
    tagManager(id, settings.gtag_url)?.('event', name, ecommerceParams(pricing, transactionId));
  } catch (error) {
    env().logger.warn(`channel-elements: the tag manager event ${name} could not be sent: ${String(error)}`);
  }
}

// ---------------------------------------------------------------- Stripe

/** The channel's Stripe.js, loaded on first use with its publishable key. */
export function channelStripe(): Promise<StripeLike> {
  const key = $settings.get()?.stripe?.publishable_key;
  if (!key) {
    env().logger.error(
      'channel-elements: card payments need the Stripe publishable key in the channel settings (stripe.publishable_key).',
    );
    return Promise.reject(new CheckoutError('no-stripe'));
  }
  return loadStripeFor(key);
}

// ---------------------------------------------------------------- subscription actions (profile)

/** Cancels a subscription's auto-renewal (`POST stripe/unsubscribe`): answers processing, then finished. */
export async function cancelAutoRenewal(orderId: number): Promise<'processing' | 'finished'> {
  const answer = await getClient().call('unsubscribe', { body: { order_id: orderId }, cache: false, retries: 0 });
  return answer.data.status;
}

/** Follows a cancellation until the order's auto-renewal reads cancelled (polled every 2 s, bounded). */
export async function cancellationFinished(orderId: number, signal?: AbortSignal): Promise<Order | undefined> {
  const started = env().now();
  while (env().now() - started < MAX_WAIT_MS) {
    await sleep(POLL_MS, signal);
    const answer = await getClient().call('order', { params: { id: orderId }, cache: false, signal });
    if (answer.data.auto_renewal !== 'active') return answer.data;
  }
  return undefined;
}

/** Where the viewer manages cards and invoices (`GET stripe/customer-portal`). */
export async function customerPortalUrl(): Promise<string> {
  // The portal's way back leads to this page.
  const back = typeof location === 'undefined' ? undefined : location.href.split('#')[0];
  const answer = await getClient().call('customerPortal', { query: { return_url: back }, cache: false });
  return answer.data.url;
}

// ---------------------------------------------------------------- one checkout

/** What a checkout is asked to sell. */
export type CheckoutTarget =
  | { type: 'event'; id: number; packageId?: number | undefined }
  | { type: 'package'; id: number }
  | { type: 'subscription'; id: number };

/** One offer of the list (the /packages screen). */
export interface OfferCard {
  type: 'package' | 'subscription';
  id: number;
  name: string;
  price: number;
  basePrice?: number | undefined;
  description?: string | undefined;
  kind: 'package' | 'team' | 'monthly' | 'annual';
  trialDays: number;
  purchased: boolean;
}

/** What the checkout sells, once loaded. */
export interface Product {
  type: ProductType;
  id: number;
  name: string;
  /** Events: the event itself (for its title) and the single-event package that sells it. */
  event?: Event | undefined;
  packageId?: number | undefined;
  /** Events: false for free and register events (nothing to buy). */
  paid: boolean;
  teamPass: boolean;
  /** Team passes: the teams to choose from. */
  teams: { id: number; name: string }[];
  period?: 'monthly' | 'annual' | undefined;
}

/** A value that loads. */
export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: unknown };

/** The screens of a checkout. */
export type CheckoutView =
  | 'idle'
  | 'offers'
  | 'loading'
  | 'load-error'
  | 'free'
  | 'sign-in'
  | 'summary'
  | 'payment'
  | 'waiting'
  | 'success'
  | 'pending'
  | 'poll-error';

/** A checkout's state: the screen, and what it shows. */
export interface CheckoutState {
  view: CheckoutView;
  /** The viewer chose from the offers list: Back returns to it. */
  fromList: boolean;
  offers?: Loadable<OfferCard[]> | undefined;
  product?: Product | undefined;
  loadError?: unknown;
  /** Team passes: the chosen team. */
  team?: number | undefined;
  pricing?: Loadable<Pricing> | undefined;
  coupon: { status: 'idle' | 'busy' | 'applied' | 'error'; code?: string | undefined; error?: unknown };
  cards?: Loadable<SavedCard[]> | undefined;
  /** A payment is being sent (Pay is disabled; a second press does nothing). */
  busy: boolean;
  payError?: unknown;
  /** A failed order, shown in a popup until dismissed. */
  failure?: Order | undefined;
  /** The order being waited on, or settled. */
  order?: { id: number; reference?: string | null | undefined } | undefined;
  /** What the order is for (also known after a reload). */
  bought?: { type: ProductType; id: number; name?: string | undefined; trial: boolean } | undefined;
  pollError?: unknown;
}

/** How the viewer pays: a saved card, or the card field (and whether to save it). */
export type PaymentChoice = { kind: 'saved'; id: string } | { kind: 'new'; card: StripeCard | undefined; save: boolean };


/** A checkout's store and actions. */
export interface CheckoutStore {
  $state: ReadableAtom<CheckoutState>;
  /** What the element's attributes ask to sell (undefined: the offers list). */
  setTarget(target: CheckoutTarget | undefined): void;
  /** The viewer chose an offer (from the list, or a paywall's `channel-purchase-request`). */
  select(target: CheckoutTarget, fromList: boolean): boolean;
  /** Back: from payment to the summary, from a listed offer's summary to the list. */
  back(): void;
  /** Loads again what failed to load (offers, product, price, saved cards). */
  retry(): void;
  chooseTeam(id: number | undefined): void;
  applyCoupon(code: string): Promise<void>;
  removeCoupon(): void;
  toPayment(): void;
  /** The channel's Stripe.js (for the card field). */
  stripe(): Promise<StripeLike>;
  pay(choice: PaymentChoice | undefined): Promise<void>;
  dismissFailure(): void;
  /** Polls again after a request error, or after the bounded wait ended. */
  retryWait(): void;
  destroy(): void;
}

const BLANK: CheckoutState = { view: 'idle', fromList: false, coupon: { status: 'idle' }, busy: false };

/** Creates one checkout's store. `onComplete` hears each paid order once (the element fires its event). */
export function createCheckout(options: { onComplete?: (detail: PurchaseComplete) => void } = {}): CheckoutStore {
  const $state = atom<CheckoutState>(BLANK);
  const patch = (next: Partial<CheckoutState>) => $state.set({ ...$state.get(), ...next });
  let target: CheckoutTarget | undefined;
  let destroyed = false;
  /** Bumped by every new screen: late answers of an older one are dropped. */
  let generation = 0;
  let controller = new AbortController();
  let pricingGeneration = 0;
  let waitController: AbortController | undefined;
  /** A purchase is being followed: new targets wait until it is done. */
  let following = false;
  let viewed: string | undefined;

  const fresh = () => {
    generation++;
    controller.abort();
    controller = new AbortController();
    return { mine: generation, signal: controller.signal };
  };
  const current = (mine: number) => mine === generation && !destroyed;

  // ------------------------------------------------ offers list

  async function openOffers(): Promise<void> {
    const { mine, signal } = fresh();
    $state.set({ ...BLANK, view: 'offers', offers: { status: 'loading' } });
    await loadOffers(mine, signal);
  }

  async function loadOffers(mine: number, signal: AbortSignal): Promise<void> {
    try {
      await startSession();
      const api = getClient();
      const [packages, subscriptions] = await Promise.all([
        api.call('packages', { query: { no_limit: 1 }, signal }),
        api.call('subscriptions', { query: { no_limit: 1 }, signal }),
        identified(),
      ]);
      const orders = await userOrders(signal);
      if (!current(mine)) return;
      patch({ offers: { status: 'ready', value: offerCards(packages.data, subscriptions.data, orders) } });
    } catch (error) {
      if (!isCancel(error) && current(mine)) patch({ offers: { status: 'error', error } });
    }
  }

  // ------------------------------------------------ one product

  async function open(next: CheckoutTarget, fromList: boolean): Promise<void> {
    const { mine, signal } = fresh();
    $state.set({ ...BLANK, view: 'loading', fromList });
    try {
      await startSession();
      const [product] = await Promise.all([loadProduct(next, signal), identified()]);
      if (!current(mine)) return;
      patch({ product });
      proceed();
    } catch (error) {
      if (!isCancel(error) && current(mine)) patch({ view: 'load-error', loadError: error });
    }
  }

  /** After the product (or a sign-in): free, sign-in or the summary. */
  function proceed(): void {
    const { product } = $state.get();
    if (!product) return;
    if (!product.paid) return patch({ view: 'free' });
    if (!$user.get()) return patch({ view: 'sign-in', pricing: undefined, cards: undefined });
    patch({ view: 'summary' });
    void loadPricing();
  }

  async function loadPricing(): Promise<void> {
    const state = $state.get();
    const product = state.product;
    if (!product) return;
    const mine = ++pricingGeneration;
    const signal = controller.signal;
    const request: PricingRequest = {
      type: product.type,
      id: product.id,
      singleEventPackageId: product.packageId,
      paid: product.paid,
      teamPass: product.teamPass,
      participantId: state.team,
      coupon: state.coupon.status === 'applied' ? state.coupon.code : undefined,
    };
    try {
      pricingQuery(request);
    } catch (error) {
      // Section 5: the refusal shows and nothing is sent.
      patch({ pricing: { status: 'error', error } });
      return;
    }
    patch({ pricing: { status: 'loading' } });
    try {
      const pricing = await fetchPricing(request, signal);
      if (mine !== pricingGeneration || destroyed) return;
      patch({ pricing: { status: 'ready', value: pricing } });
      const seen = `${pricing.type}-${pricing.id}`;
      if (viewed !== seen) {
        viewed = seen;
        track('view_buy_page', pricing);
      }
    } catch (error) {
      if (isCancel(error) || mine !== pricingGeneration || destroyed) return;
      // A coupon the server no longer takes: drop it and price without.
      if (request.coupon && isPromoRefusal(error)) {
        patch({ coupon: { status: 'error', error: new CheckoutError('promo-invalid') } });
        return void loadPricing();
      }
      patch({ pricing: { status: 'error', error } });
    }
  }

  async function loadCards(): Promise<void> {
    const mine = generation;
    patch({ cards: { status: 'loading' } });
    try {
      const answer = await getClient().call('listCards', { cache: false, signal: controller.signal });
      if (current(mine)) patch({ cards: { status: 'ready', value: answer.data } });
    } catch (error) {
      if (!isCancel(error) && current(mine)) patch({ cards: { status: 'error', error } });
    }
  }

  // ------------------------------------------------ paying

  async function pay(choice: PaymentChoice | undefined): Promise<void> {
    const state = $state.get();
    const user = $user.get();
    if (state.busy || state.view !== 'payment' || state.pricing?.status !== 'ready' || !state.product || !user) return;
    if (!choice) return patch({ payError: new CheckoutError('select-card') });
    if (choice.kind === 'new' && !choice.card) return patch({ payError: new CheckoutError('card-not-ready') });
    // Set before anything is awaited: a second press (a double click) finds the checkout busy.
    patch({ busy: true, payError: undefined });
    const pricing = state.pricing.value;
    const product = state.product;
    const trial = trialDays(pricing, user) > 0;
    const mine = generation;
    track('begin_checkout', pricing);
    const attempt = attemptFor({ type: product.type, id: product.id, name: product.name, participant: state.team, trial }, user.id);
    try {
      const api = getClient();
      let order: Order;
      if (trial) {
        // A trial needs a card confirmed for later charges, a saved one too (a setup intent, no charge now).
        const method = await confirmSetup(choice.kind === 'saved' ? choice.id : { card: choice.card! });
        const answer = await api.call('startTrial', {
          body: { subscription_id: product.id, payment_method: method, idempotency_key: attempt.key },
          cache: false,
        });
        order = answer.data.order;
      } else {
        const method = choice.kind === 'saved' ? choice.id : await paymentMethod(choice.card!);
        const answer = await api.call('buy', {
          body: {
            type: product.type,
            id: product.id,
            single_event_package_id: product.type === 'event' ? product.packageId : undefined,
            participant_id: product.teamPass ? state.team : undefined,
            coupon: state.coupon.status === 'applied' ? state.coupon.code : undefined,
            payment_method: method,
            save_card: choice.kind === 'new' ? choice.save : undefined,
            idempotency_key: attempt.key,
          },
          cache: false,
        });
        order = answer.data.order;
      }
      storeAttempt({ ...attempt, order: { id: order.id, reference: order.reference } });
      track('purchase', pricing, order.id);
      if (!current(mine)) return;
      void follow(order, { type: product.type, id: product.id, name: product.name, trial });
    } catch (error) {
      if (isCancel(error) || !current(mine)) return;
      patch({ busy: false, payError: error });
    }
  }

  async function paymentMethod(card: StripeCard): Promise<string> {
    const stripe = await channelStripe();
    const result = await stripe.createPaymentMethod({ type: 'card', card });
    if (result.error || !result.paymentMethod) throw new CardError(result.error);
    return result.paymentMethod.id;
  }

  /** A setup intent confirmed with the card field or a saved card: the PaymentMethod a trial charges later. */
  async function confirmSetup(card: { card: StripeCard } | string): Promise<string> {
    const api = getClient();
    const intent = await api.call('setupIntent', { body: {}, cache: false });
    const stripe = await channelStripe();
    const result = await stripe.confirmCardSetup(intent.data.client_secret, { payment_method: card });
    const method = setupPaymentMethod(result.setupIntent);
    if (result.error || !method) throw new CardError(result.error);
    return method;
  }

  /** Waits for the order to settle and shows each end: success, the failure popup, pending, a request error. */
  async function follow(order: Pick<Order, 'id'> & Partial<Order>, bought: NonNullable<CheckoutState['bought']>): Promise<void> {
    following = true;
    waitController?.abort();
    const wait = (waitController = new AbortController());
    const ref = { id: order.id, reference: order.reference ?? $state.get().order?.reference };
    patch({ view: 'waiting', busy: false, order: ref, bought, pollError: undefined, failure: undefined });
    const pricing = () => {
      const p = $state.get().pricing;
      return p?.status === 'ready' ? p.value : undefined;
    };
    try {
      const outcome = await waitForOrder(order, { signal: wait.signal });
      if (wait.signal.aborted || destroyed) return;
      if (outcome.status === 'paid') {
        endAttempt();
        following = false;
        patch({ view: 'success', order: { id: outcome.order.id, reference: outcome.order.reference ?? ref.reference } });
        track('purchase_success', pricing(), outcome.order.id);
        // What this user may watch changed: no element may reuse an answer cached before the purchase.
        getClient().clearCache();
        options.onComplete?.({ orderId: outcome.order.id, product: { type: bought.type, id: bought.id } });
      } else {
        patch({ view: 'pending', order: { id: outcome.order.id, reference: outcome.order.reference ?? ref.reference } });
      }
    } catch (error) {
      if (isCancel(error) || wait.signal.aborted || destroyed) return;
      if (error instanceof PaymentFailedError) {
        // The attempt is over: the next Pay makes a new order with a new key.
        endAttempt();
        following = false;
        track('purchase_failed', pricing(), error.order.id);
        // After a reload there is no payment step to return to: open the product again.
        const state = $state.get();
        if (state.product && state.pricing?.status === 'ready') {
          patch({ view: 'payment', failure: error.order, busy: false });
          if (state.cards?.status !== 'ready') void loadCards();
        } else {
          patch({ failure: error.order });
          const next = target ?? { type: bought.type, id: bought.id };
          void open(next as CheckoutTarget, false).then(() => patch({ failure: error.order }));
        }
        return;
      }
      patch({ view: 'poll-error', pollError: error });
    }
  }

  /** A reload during the wait: the stored pending order of this user is followed again. */
  async function resume(): Promise<boolean> {
    const stored = storedAttempt();
    if (!stored?.order) return false;
    await startSession();
    await identified();
    const user = $user.get();
    if (destroyed || !user || user.id !== stored.user || !stored.order) return false;
    fresh();
    void follow(
      { id: stored.order.id, reference: stored.order.reference },
      { type: stored.product.type, id: stored.product.id, name: stored.product.name, trial: Boolean(stored.product.trial) },
    );
    return true;
  }

  // ------------------------------------------------ reactions

  const unbindUser = $user.listen((user, old) => {
    const state = $state.get();
    if (state.view === 'offers') {
      const { mine, signal } = fresh();
      void loadOffers(mine, signal);
      return;
    }
    if (!user && (state.view === 'summary' || state.view === 'payment')) {
      return patch({ view: 'sign-in', pricing: undefined, cards: undefined, busy: false, payError: undefined });
    }
    if (user && state.view === 'sign-in') return proceed();
    // Another viewer on the same page (a sign-in in another tab): prices depend on who asks.
    if (user && old && user.id !== old.id && (state.view === 'summary' || state.view === 'payment')) {
      patch({ view: 'summary', cards: undefined });
      void loadPricing();
    }
  });

  const resumed = resume().catch(() => false);

  return {
    $state,
    setTarget(next) {
      target = next;
      void resumed.then(() => {
        // A purchase being followed (a reload during the wait) keeps the screen until it is done.
        if (destroyed || following || target !== next) return;
        if (next) void open(next, false);
        else void openOffers();
      });
    },
    select(next, fromList) {
      if (following || $state.get().busy) return false;
      void open(next, fromList);
      return true;
    },
    back() {
      const state = $state.get();
      if (state.busy) return;
      if (state.view === 'payment') {
        patch({ view: 'summary', payError: undefined, failure: undefined });
        return;
      }
      if (state.fromList && (state.view === 'summary' || state.view === 'sign-in' || state.view === 'free' || state.view === 'load-error')) {
        void openOffers();
      }
    },
    retry() {
      const state = $state.get();
      if (state.view === 'offers') {
        patch({ offers: { status: 'loading' } });
        const { mine, signal } = fresh();
        void loadOffers(mine, signal);
      } else if (state.view === 'load-error') {
        const next = target ?? (state.product ? ({ type: state.product.type, id: state.product.id } as CheckoutTarget) : undefined);
        if (next) void open(next, state.fromList);
      } else if (state.view === 'summary') {
        void loadPricing();
      } else if (state.view === 'payment' && state.cards?.status === 'error') {
        void loadCards();
      }
    },
    chooseTeam(id) {
      const state = $state.get();
      if (state.view !== 'summary' || state.team === id) return;
      patch({ team: id });
      void loadPricing();
    },
    async applyCoupon(code) {
      const state = $state.get();
      const product = state.product;
      const trimmed = code.trim();
      if (state.view !== 'summary' || !product || state.coupon.status === 'busy') return;
      if (!trimmed) return patch({ coupon: { status: 'error', code: '', error: new CheckoutError('promo-required') } });
      const mine = generation;
      patch({ coupon: { status: 'busy', code: trimmed } });
      try {
        const answer = await getClient().call('applyCoupon', {
          query: { code: trimmed, type: product.type, id: product.id },
          cache: false,
          signal: controller.signal,
        });
        if (!current(mine)) return;
        patch({ coupon: { status: 'applied', code: answer.data.code } });
        void loadPricing();
      } catch (error) {
        if (isCancel(error) || !current(mine)) return;
        const refused = error instanceof HttpError && error.status === 422;
        patch({ coupon: { status: 'error', code: trimmed, error: refused ? new CheckoutError('promo-invalid') : error } });
      }
    },
    removeCoupon() {
      const state = $state.get();
      if (state.view !== 'summary' || state.coupon.status === 'busy') return;
      patch({ coupon: { status: 'idle' } });
      void loadPricing();
    },
    toPayment() {
      const state = $state.get();
      if (state.view !== 'summary' || state.pricing?.status !== 'ready' || state.pricing.value.purchased) return;
      patch({ view: 'payment', payError: undefined, failure: undefined });
      track('add_to_cart', state.pricing.value);
      if (state.cards?.status !== 'ready') void loadCards();
    },
    stripe: channelStripe,
    pay,
    dismissFailure() {
      patch({ failure: undefined });
    },
    retryWait() {
      const state = $state.get();
      if ((state.view !== 'poll-error' && state.view !== 'pending') || !state.order || !state.bought) return;
      void follow({ id: state.order.id, reference: state.order.reference }, state.bought);
    },
    destroy() {
      destroyed = true;
      controller.abort();
      waitController?.abort();
      unbindUser();
    },
  };
}

/** The user's orders for the purchased flags; none for a guest (or when they cannot be had). */
async function userOrders(signal: AbortSignal): Promise<Order[]> {
  if (!$user.get()) return [];
  try {
    return (await getClient().call('orders', { query: { no_limit: 1 }, signal, cache: false })).data;
  } catch (error) {
    if (isCancel(error)) throw error;
    return [];
  }
}

/** The offers list: packages then subscriptions, each by weight then price, with their purchased flags. */
export function offerCards(packages: readonly Package[], subscriptions: readonly Subscription[], orders: readonly Order[]): OfferCard[] {
  const byWeight = <T extends { weight: number; price: number }>(a: T, b: T) => a.weight - b.weight || a.price - b.price;
  const card = (
    offer: Package | Subscription,
    fields: Pick<OfferCard, 'type' | 'kind' | 'trialDays' | 'purchased'>,
  ): OfferCard => ({
    id: offer.id,
    name: offer.name,
    price: offer.price,
    basePrice: offer.base_price ?? undefined,
    description: offer.description ?? undefined,
    ...fields,
  });
  return [
    // A single-event pass is sold with its event (the player's paywall, event-id), not on its own.
    ...[...packages].filter((p) => p.type !== 'single').sort(byWeight).map((p) =>
      card(p, {
        type: 'package',
        kind: p.is_team_pass ? 'team' : 'package',
        trialDays: 0,
        purchased: isPurchased(packageItem(p), orders),
      }),
    ),
    ...[...subscriptions].sort(byWeight).map((s) =>
      card(s, {
        type: 'subscription',
        kind: subscriptionPeriod(s),
        trialDays: s.trial_period && s.trial_period > 0 ? s.trial_period : 0,
        purchased: isPurchased({ type: 'subscription', id: s.id }, orders),
      }),
    ),
  ];
}

/** Loads what a target sells: the event (and its pass), the package (and its teams) or the subscription. */
async function loadProduct(target: CheckoutTarget, signal: AbortSignal): Promise<Product> {
  const api = getClient();
  if (target.type === 'event') {
    const event = (await api.call('event', { params: { id: target.id }, signal, cache: false })).data;
    return {
      type: 'event',
      id: event.id,
      name: event.name,
      event,
      packageId: target.packageId ?? event.single_event_package_id ?? undefined,
      paid: event.type !== 'free' && event.type !== 'register',
      teamPass: false,
      teams: [],
    };
  }
  if (target.type === 'package') {
    const pkg = (await api.call('package', { params: { id: target.id }, signal })).data;
    let teams: Product['teams'] = [];
    if (pkg.is_team_pass) {
      const all = await participantCatalog.load().catch(() => []);
      const ids = pkg.participants.length ? pkg.participants : all.map((p) => p.id);
      teams = ids.map((id) => ({ id, name: all.find((p) => p.id === id)?.name ?? `#${id}` }));
    }
    return { type: 'package', id: pkg.id, name: pkg.name, paid: true, teamPass: pkg.is_team_pass, teams };
  }
  const subscription = (await api.call('subscription', { params: { id: target.id }, signal })).data;
  return {
    type: 'subscription',
    id: subscription.id,
    name: subscription.name,
    paid: true,
    teamPass: false,
    teams: [],
    period: subscriptionPeriod(subscription),
  };
}

/** A 422 that says the promo code is wrong (spec section 8: 'Wrong promo code'). */
function isPromoRefusal(error: unknown): boolean {
  return error instanceof HttpError && error.status === 422 && /promo/i.test(error.message);
}

/** The translation key of a known card message (Stripe codes, or the order's error text), else undefined. */
export function cardMessageKey(error: { code?: string | undefined; message?: string | undefined } | string): string | undefined {
  const code = typeof error === 'string' ? undefined : error.code;
  const message = typeof error === 'string' ? error : (error.message ?? '');
  const known: [string, RegExp, string][] = [
    ['card_declined', /card was declined/i, 'declined'],
    ['insufficient_funds', /insufficient funds/i, 'insufficientFunds'],
    ['incorrect_number', /card number is incorrect/i, 'incorrectNumber'],
    ['incomplete_number', /card number is incomplete/i, 'incompleteNumber'],
    ['incomplete_expiry', /expiration date is incomplete/i, 'incompleteExpiry'],
    ['incomplete_cvc', /security code is incomplete/i, 'incompleteCvc'],
    ['expired_card', /card has expired/i, 'expired'],
    ['incorrect_cvc', /security code is incorrect/i, 'incorrectCvc'],
  ];
  const hit = known.find(([c, pattern]) => c === code || pattern.test(message));
  return hit ? `checkout:card.${hit[2]}` : undefined;
}

