/**
 * The card processor as Stripe (provider.ts), through the official `stripe` SDK: api.stripe.com in production, or
 * the Stripe double (dev/stripe.ts) by the SDK's own host, port and protocol options when the account names another
 * API origin (STRIPE_API_URL: a test key on a loopback address only, config.ts). The same code either way.
 *
 * - One Customer per viewer and channel (the caller keeps its id); saved cards are its card payment methods.
 * - Events and packages: a PaymentIntent of the order's total in the currency's minor units (currencies.ts),
 *   created and confirmed at once from the Payment Element's confirmation token or a saved card, under the
 *   purchase's idempotency key; metadata names the channel and the order. `requires_action` (3-D Secure) hands
 *   the intent's client secret back for the browser to finish.
 * - Subscriptions: Stripe Billing. A Product per subscription and a Price per amount and period, found by a stable
 *   lookup key (monthly: every 30 days; annual: every 12 months), the subscription made with
 *   `payment_behavior: default_incomplete` and its first invoice's payment intent confirmed like a purchase; a
 *   trial (`trial_period_days`) saves its card through the subscription's pending setup intent instead. The
 *   channel's coupon becomes a Stripe coupon of the same amount, for the first charge only (as the channel applies
 *   it: duration `once`).
 * - Prices synced by the operator (syncPrice): a Product per package or subscription, renamed with it; a Price per
 *   amount (and period), by the same lookup keys as a sale's, made active again if it comes back; the previous
 *   Price archived. A subscription is sold at its synced Price when that one says the sale's amount and period.
 * - Webhooks are verified with the SDK's `constructEvent` against the channel's signing secret, at the server's
 *   clock; the objects whose state matters are read back from the API (their events may come in any order).
 */
import Stripe from 'stripe';
import type { SavedCard } from '../../../src/api/contract.js';
import { toMinorUnits } from './currencies.js';
import { id, orderIdOf, stateOf, stripeFacts } from './stripe-facts.js';
import {
  WebhookRefused,
  type PaymentFact,
  type PaymentProvider,
  type PaymentRefs,
  type PaymentSource,
  type Sale,
  type SubscriptionSale,
} from './provider.js';

/** A channel's Stripe account, as the server's configuration gives it. */
export interface StripeAccount {
  secretKey: string;
  /** Empty: none (a channel's own key without its own signing secret): every webhook is refused. */
  webhookSecret: string;
  /** Another API origin (the double's), for tests and dev mode. */
  apiUrl?: string | undefined;
}

/** How old a webhook's signature may be (Stripe's default: 5 minutes). */
const SIGNATURE_TOLERANCE_SECONDS = 300;
/** The only payment method types sold: cards (wallets are cards) and Link; no redirect leaves the page. */
const METHOD_TYPES = ['card', 'link'];

/** Only the characters Stripe takes in the ids and lookup keys made here. */
const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');

/** The payment intent a refusal answered with (a declined card: 402 with the intent), if any. */
function refused(error: unknown): Stripe.PaymentIntent | Stripe.SetupIntent | undefined {
  if (!(error instanceof Stripe.errors.StripeError)) return undefined;
  const raw = error.raw as { payment_intent?: Stripe.PaymentIntent; setup_intent?: Stripe.SetupIntent };
  return raw.payment_intent ?? raw.setup_intent;
}

/** A refusal that made nothing (a bad token or card id, a spent token): the payment failed, with Stripe's reason. */
const madeNothing = (error: unknown): error is Stripe.errors.StripeError =>
  error instanceof Stripe.errors.StripeInvalidRequestError && !(error instanceof Stripe.errors.StripeIdempotencyError);

const sourceParams = (source: PaymentSource) =>
  'confirmationToken' in source
    ? { confirmation_token: source.confirmationToken }
    : { payment_method: source.paymentMethod };

/** Whether a Stripe key (secret `sk_`, restricted `rk_` or publishable `pk_`) is a live or a test one. */
export const stripeModeOf = (key: string): 'live' | 'test' | undefined =>
  /^(?:sk|rk|pk)_(live|test)_/.exec(key)?.[1] as 'live' | 'test' | undefined;

/**
 * Why a secret key and the publishable key the browser uses cannot work together (one live, the other test: every
 * confirmation token Stripe.js makes would be refused), or undefined. Never repeats either key.
 */
export function keysDisagree(secretKey: string, publishableKey: string | undefined): string | undefined {
  if (!publishableKey) return undefined;
  const secret = stripeModeOf(secretKey);
  const publishable = stripeModeOf(publishableKey);
  if (!secret || !publishable || secret === publishable) return undefined;
  return `the Stripe secret key is a ${secret} key but the publishable key (stripe.publishable_key) a ${publishable} one`;
}

/** Stripe's recurring period of a channel's offer: monthly is every 30 days, annual every 12 months. */
const recurringOf = (offer: 'monthly' | 'annual') =>
  offer === 'annual'
    ? { interval: 'month' as const, interval_count: 12 }
    : { interval: 'day' as const, interval_count: 30 };

/** Stripe's answer to an object that does not exist. */
const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';

/**
 * The Stripe processor of one channel's account; `now` is the server's clock (ms); `channel` the key of the channel
 * it sells for, `sellsFor` (syncPrice needs it: products and prices are named after the channel).
 */
export function createStripeProvider(
  account: StripeAccount,
  now: () => number = Date.now,
  sellsFor?: string,
): PaymentProvider {
  const api = account.apiUrl ? new URL(account.apiUrl) : undefined;
  const stripe = new Stripe(account.secretKey, {
    ...(api
      ? {
          host: api.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: Number(api.port) || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'channel-server' },
  });
  const seconds = () => Math.floor(now() / 1000);
  const { factsOf, intentFacts, subscriptionFacts } = stripeFacts(stripe, now);

  /** The channel's Product of a package or a subscription: made once (whoever asks first), renamed when `name` says. */
  async function productOf(owner: string, kind: 'package' | 'subscription', id: number, name?: string) {
    const productId = slug(`channel_${owner}_${kind}_${id}`);
    try {
      const found = await stripe.products.retrieve(productId);
      if (name !== undefined && found.name !== name) await stripe.products.update(productId, { name });
    } catch (error) {
      if (!isMissing(error)) throw error;
      await stripe.products.create(
        { id: productId, name: name ?? `${kind} ${id}`, metadata: { channel: owner, [`${kind}_id`]: String(id) } },
        { idempotencyKey: `product:${productId}` },
      );
    }
    return productId;
  }

  /**
   * The Price of a product's amount (and period), found by its lookup key (made active again if it was archived) or
   * made, once whoever asks first. Prices never change at Stripe: another amount is another Price.
   */
  async function priceFor(
    owner: string,
    item: { kind: 'package' | 'subscription'; id: number; name: string; amount: number; currency: string },
    offer?: 'monthly' | 'annual',
  ): Promise<string> {
    const amount = toMinorUnits(item.amount, item.currency);
    const currency = item.currency.toLowerCase();
    const lookup = slug(`channel_${owner}_${item.kind}_${item.id}${offer ? `_${offer}` : ''}_${amount}_${currency}`);
    const found = (await stripe.prices.list({ lookup_keys: [lookup], limit: 1 })).data[0];
    if (found) {
      if (!found.active) await stripe.prices.update(found.id, { active: true });
      return found.id;
    }
    const product = await productOf(owner, item.kind, item.id, item.name);
    const price = await stripe.prices.create(
      {
        product,
        unit_amount: amount,
        currency,
        ...(offer ? { recurring: recurringOf(offer) } : {}),
        lookup_key: lookup,
        metadata: { channel: owner, [`${item.kind}_id`]: String(item.id), ...(offer ? { offer } : {}) },
      },
      { idempotencyKey: `price:${lookup}` },
    );
    return price.id;
  }

  /**
   * The Price a subscription is sold at: the one synced for it (`sale.price`) when it is active and says the sale's
   * amount, currency and period; else the one of its lookup key.
   */
  async function priceOf(owner: string, sale: SubscriptionSale): Promise<string> {
    if (sale.price) {
      try {
        const stored = await stripe.prices.retrieve(sale.price);
        const recurring = recurringOf(sale.offer);
        if (
          stored.active &&
          stored.unit_amount === toMinorUnits(sale.amount, sale.currency) &&
          stored.currency === sale.currency.toLowerCase() &&
          stored.recurring?.interval === recurring.interval &&
          stored.recurring.interval_count === recurring.interval_count
        )
          return stored.id;
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    return priceFor(owner, { kind: 'subscription', ...sale }, sale.offer);
  }

  /** The Stripe coupon of a channel's coupon on a first charge: the same amount off, once. */
  async function couponOf(channel: string, sale: SubscriptionSale): Promise<string | undefined> {
    if (!sale.discount || sale.discount.amount <= 0) return undefined;
    const amount = toMinorUnits(sale.discount.amount, sale.currency);
    const currency = sale.currency.toLowerCase();
    const couponId = slug(`channel_${channel}_${sale.discount.code}_${amount}_${currency}`);
    try {
      return (await stripe.coupons.retrieve(couponId)).id;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.code !== 'resource_missing') throw error;
    }
    const coupon = await stripe.coupons.create(
      { id: couponId, amount_off: amount, currency, duration: 'once', name: sale.discount.code, metadata: { channel } },
      { idempotencyKey: `coupon:${couponId}` },
    );
    return coupon.id;
  }

  return {
    name: 'stripe',

    async createCustomer({ channel, userId, email }) {
      const customer = await stripe.customers.create(
        { email, metadata: { channel, user_id: String(userId) } },
        { idempotencyKey: `customer:${channel}:${userId}` },
      );
      return customer.id;
    },

    async savedCards(customer): Promise<SavedCard[]> {
      const methods = await stripe.customers.listPaymentMethods(customer, { type: 'card', limit: 100 });
      return methods.data
        .filter((m) => m.card)
        .sort((a, b) => b.created - a.created)
        .map((m) => ({
          id: m.id,
          brand: m.card!.brand,
          last4: m.card!.last4,
          exp_month: m.card!.exp_month,
          exp_year: m.card!.exp_year,
        }));
    },

    async pay(input): Promise<Sale> {
      const refs: PaymentRefs = { channel: input.channel, orderId: input.orderId };
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
          {
            amount: toMinorUnits(input.amount, input.currency),
            currency: input.currency.toLowerCase(),
            customer: input.customer,
            description: input.description,
            metadata: { channel: input.channel, order_id: String(input.orderId) },
            allowed_payment_method_types: METHOD_TYPES,
            ...(input.saveCard ? { setup_future_usage: 'off_session' as const } : {}),
            ...sourceParams(input.source),
            confirm: true,
          },
          { idempotencyKey: input.idempotencyKey },
        );
      } catch (error) {
        const answered = refused(error);
        if (answered?.object === 'payment_intent')
          return { refs: { ...refs, paymentIntent: answered.id }, state: stateOf(answered) };
        if (madeNothing(error)) return { refs, state: { status: 'failed', message: error.message } };
        throw error;
      }
      return { refs: { ...refs, paymentIntent: intent.id }, state: stateOf(intent) };
    },

    async subscribe({ channel, orderId, customer, sale, source, idempotencyKey }): Promise<Sale> {
      const price = await priceOf(channel, sale);
      const coupon = await couponOf(channel, sale);
      let sub: Stripe.Subscription;
      try {
        sub = await stripe.subscriptions.create(
          {
            customer,
            items: [{ price }],
            payment_behavior: 'default_incomplete',
            payment_settings: {
              save_default_payment_method: 'on_subscription',
              payment_method_types: ['card', 'link'],
            },
            ...(sale.trialDays ? { trial_period_days: sale.trialDays } : {}),
            ...(coupon ? { discounts: [{ coupon }] } : {}),
            metadata: { channel, order_id: String(orderId) },
            expand: ['latest_invoice.payments', 'pending_setup_intent'],
          },
          { idempotencyKey: `${idempotencyKey}:subscription` },
        );
      } catch (error) {
        if (madeNothing(error))
          return { refs: { channel, orderId }, state: { status: 'failed', message: error.message } };
        throw error;
      }
      const refs: PaymentRefs = { channel, orderId, subscription: sub.id };
      const setup = id(sub.pending_setup_intent);
      const confirm = async (run: () => Promise<Stripe.PaymentIntent | Stripe.SetupIntent>) => {
        try {
          return stateOf(await run());
        } catch (error) {
          const answered = refused(error);
          if (answered) return stateOf(answered);
          if (madeNothing(error)) return { status: 'failed' as const, message: error.message };
          throw error;
        }
      };
      if (setup) {
        let paymentMethod: string | null = null;
        const state = await confirm(async () => {
          const confirmed = await stripe.setupIntents.confirm(setup, sourceParams(source), {
            idempotencyKey: `${idempotencyKey}:setup`,
          });
          paymentMethod = id(confirmed.payment_method) ?? null;
          return confirmed;
        });
        return { refs: { ...refs, setupIntent: setup }, state, trialEnd: sub.trial_end, paymentMethod };
      }
      const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
      const intent = id(invoice?.payments?.data[0]?.payment.payment_intent);
      if (!intent)
        return {
          refs,
          state: { status: sub.status === 'incomplete' ? 'pending' : 'succeeded' },
          trialEnd: sub.trial_end,
        };
      const state = await confirm(() =>
        stripe.paymentIntents.confirm(intent, sourceParams(source), { idempotencyKey: `${idempotencyKey}:confirm` }),
      );
      return { refs: { ...refs, paymentIntent: intent }, state, trialEnd: sub.trial_end };
    },

    async cancelAtPeriodEnd(subscription, cancel) {
      await stripe.subscriptions.update(subscription, { cancel_at_period_end: cancel });
      return subscriptionFacts(subscription, false);
    },

    async renewWith(subscription, paymentMethod) {
      await stripe.subscriptions.update(subscription, { default_payment_method: paymentMethod });
    },

    async abandon(refs) {
      if (!refs.paymentIntent) return;
      try {
        await stripe.paymentIntents.cancel(refs.paymentIntent, { cancellation_reason: 'abandoned' });
      } catch (error) {
        // Finished meanwhile (paid, or cancelled already): the read-back that follows says which.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
    },

    async createSetupIntent(customer) {
      const intent = await stripe.setupIntents.create({
        customer,
        usage: 'off_session',
        allowed_payment_method_types: ['card'],
      });
      return intent.client_secret!;
    },

    async portalUrl(customer, returnUrl) {
      return (await stripe.billingPortal.sessions.create({ customer, return_url: returnUrl })).url;
    },

    async webhook(raw, signature, receivedAtMs) {
      // A channel's own key without its own signing secret: nothing to check against (an empty secret would sign).
      if (!account.webhookSecret) throw new WebhookRefused('No webhook signing secret is set for this channel.');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          raw,
          signature ?? '',
          account.webhookSecret,
          SIGNATURE_TOLERANCE_SECONDS,
          undefined,
          receivedAtMs,
        );
      } catch {
        throw new WebhookRefused('The signature is missing, wrong or too old.');
      }
      return { id: event.id, type: event.type, facts: await factsOf(event) };
    },

    async syncPrice(product) {
      if (!sellsFor) throw new Error('syncPrice: this Stripe processor was made for no channel');
      await productOf(sellsFor, product.kind, product.id, product.name);
      const offer = product.kind === 'subscription' ? (product.interval === 'year' ? 'annual' : 'monthly') : undefined;
      const price = await priceFor(sellsFor, product, offer);
      if (product.previous && product.previous !== price) {
        try {
          await stripe.prices.update(product.previous, { active: false });
        } catch (error) {
          // Gone already (or made in another account): nothing to archive.
          if (!isMissing(error)) throw error;
        }
      }
      return price;
    },

    async readBack(refs) {
      const facts: PaymentFact[] = [];
      let subscription = refs.subscription;
      let intent = refs.paymentIntent;
      // Not known yet (the process died between Stripe's answer and its commit): found by the order's metadata.
      if (!subscription && !intent && refs.customer && refs.orderId !== undefined) {
        const ours = (metadata: Stripe.Metadata) =>
          metadata.channel === refs.channel && orderIdOf(metadata) === refs.orderId;
        subscription = (
          await stripe.subscriptions.list({ customer: refs.customer, status: 'all', limit: 100 })
        ).data.find((s) => ours(s.metadata))?.id;
        if (!subscription)
          intent = (await stripe.paymentIntents.list({ customer: refs.customer, limit: 100 })).data.find((i) =>
            ours(i.metadata),
          )?.id;
      }
      if (subscription) facts.push(...(await subscriptionFacts(subscription, true)));
      else if (intent) facts.push(...(await intentFacts(intent)));
      // A trial's card setup (no longer the subscription's pending one once it succeeded), before the subscription.
      if (refs.setupIntent && !facts.some((f) => f.kind === 'setup' && f.refs.setupIntent === refs.setupIntent)) {
        const setup = await stripe.setupIntents.retrieve(refs.setupIntent);
        const setupRefs = { channel: refs.channel, orderId: refs.orderId, subscription, setupIntent: setup.id };
        facts.unshift({
          kind: 'setup',
          refs: setupRefs,
          state: stateOf(setup),
          paymentMethod: id(setup.payment_method) ?? null,
          at: seconds(),
        });
      }
      return facts;
    },
  };
}
