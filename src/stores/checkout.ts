/**
 * One checkout's state machine: the offers list, a product, sign-in, the summary with its price, team and coupon,
 * the payment, and the wait for the order. The rules it follows live in the commerce domain (src/stores/commerce:
 * entitlements, offers, pricing, orders); what only a checkout needs lives next to it (src/stores/checkout: the
 * stored attempt, the tag-manager events, Stripe, the product).
 *
 * - A purchase carries the idempotency key of its attempt: a retry (a lost answer, a reload) sends the same key,
 *   so the server never makes a second order; a failed order ends the attempt.
 * - The wait is bounded: after it, the order is still pending, never "failed". A reload resumes the wait.
 * - A paid order (or a started trial) says entitlements changed, so players and lists on the page reload.
 */
import { atom } from 'nanostores';
import { accountApi, type Order } from '../api/account-schemas.js';
import { HttpError, isCancel } from '../api/errors.js';
import type { PurchaseComplete } from '../events/account.js';
import { ready } from '../lib/async.js';
import { track } from './checkout/analytics.js';
import { attemptFor, endAttempt, storeAttempt, storedAttempt } from './checkout/attempts.js';
import { fetchOfferCards, loadProduct, type CheckoutTarget } from './checkout/product.js';
import { placeOrder, type PaymentChoice } from './checkout/purchase.js';
import { channelStripe, nextAction } from './checkout/stripe.js';
import { entitlementsChanged } from './commerce/entitlements.js';
import { CardError, CheckoutError, isPromoRefusal, PaymentFailedError } from './commerce/errors.js';
import { orderOutcome, waitForOrder } from './commerce/orders.js';
import { fetchPricing, pricingQuery, trialDays, type PricingRequest } from './commerce/pricing.js';
import type { CheckoutState, CheckoutStore } from './checkout/types.js';
import { $user, getClient, identified, startSession } from './session.js';

export type { CheckoutTarget, Product } from './checkout/product.js';
export type { OfferCard } from './commerce/offer-cards.js';

export type { CheckoutState, CheckoutStore, CheckoutView } from './checkout/types.js';
export type { PaymentChoice } from './checkout/purchase.js';

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
      const cards = await fetchOfferCards(signal);
      if (current(mine)) patch({ offers: ready(cards) });
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
      // A team named in advance (a link's participant_id) is chosen when the pass offers it.
      const team = next.type === 'package' && product.teams.some((t) => t.id === next.team) ? next.team : undefined;
      patch({ product, team });
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
      // A pricing refusal: it shows and nothing is sent.
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
      const answer = await getClient().call(accountApi.listCards, { cache: false, signal: controller.signal });
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
    if (choice.kind === 'new' && !choice.elements) return patch({ payError: new CheckoutError('card-not-ready') });
    // Set before anything is awaited: a second press (a double click) finds the checkout busy.
    patch({ busy: true, payError: undefined });
    const pricing = state.pricing.value;
    const product = state.product;
    const trial = trialDays(pricing, user) > 0;
    const mine = generation;
    track('begin_checkout', pricing);
    const attempt = attemptFor(
      { type: product.type, id: product.id, name: product.name, participant: state.team, trial },
      user.id,
    );
    let placed: Order | undefined;
    try {
      const coupon = state.coupon.status === 'applied' ? state.coupon.code : undefined;
      const { order, action } = await placeOrder({
        product,
        team: state.team,
        coupon,
        choice,
        trial,
        key: attempt.key,
      });
      placed = order;
      storeAttempt({ ...attempt, order: { id: order.id, reference: order.reference } });
      track('purchase', pricing, order.id);
      // 3-D Secure: Stripe.js shows the bank's challenge; the order's status (webhooks) says the outcome.
      if (action?.client_secret && orderOutcome(order) === 'pending') await nextAction(action.client_secret);
      if (!current(mine)) return;
      void follow(order, { type: product.type, id: product.id, name: product.name, trial });
    } catch (error) {
      if (isCancel(error) || !current(mine)) return;
      if (placed && error instanceof CardError) {
        // The authentication failed or was cancelled: this order fails; the next Pay is a new attempt (new key),
        // from the card step, with Stripe's message.
        endAttempt();
        track('purchase_failed', pricing, placed.id);
      }
      patch({ busy: false, payError: error });
    }
  }

  /** Waits for the order to settle and shows each end: success, the failure popup, pending, a request error. */
  async function follow(
    order: Pick<Order, 'id'> & Partial<Order>,
    bought: NonNullable<CheckoutState['bought']>,
  ): Promise<void> {
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
        patch({
          view: 'success',
          order: { id: outcome.order.id, reference: outcome.order.reference ?? ref.reference },
        });
        track('purchase_success', pricing(), outcome.order.id);
        // What this user may watch changed: no element may reuse an answer cached before the purchase.
        getClient().clearCache();
        entitlementsChanged();
        options.onComplete?.({ orderId: outcome.order.id, product: { type: bought.type, id: bought.id } });
      } else {
        patch({
          view: 'pending',
          order: { id: outcome.order.id, reference: outcome.order.reference ?? ref.reference },
        });
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
      {
        type: stored.product.type,
        id: stored.product.id,
        name: stored.product.name,
        trial: Boolean(stored.product.trial),
      },
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
      if (
        state.fromList &&
        (state.view === 'summary' || state.view === 'sign-in' || state.view === 'free' || state.view === 'load-error')
      ) {
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
        const next =
          target ??
          (state.product ? ({ type: state.product.type, id: state.product.id } as CheckoutTarget) : undefined);
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
        const answer = await getClient().call(accountApi.applyCoupon, {
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
        patch({
          coupon: { status: 'error', code: trimmed, error: refused ? new CheckoutError('promo-invalid') : error },
        });
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
