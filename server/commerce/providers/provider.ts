/**
 * The card processor behind checkout, as commerce sees it: one interface, one implementation per channel chosen from
 * configuration and the channel's secrets (app/services.ts), never by a caller. Its implementation is Stripe (stripe.ts, through
 * the official `stripe` SDK: Stripe itself in production, the Stripe double of dev/stripe.ts in dev mode and the
 * tests, reached by the same code), with the channel's own secrets or the server's. Without one (in production, no
 * secret key of the channel's own and no STRIPE_SECRET_KEY) every call that charges, saves or lists cards answers
 * 503 with PAYMENTS_OFF, and so does the webhook endpoint.
 *
 * Card data never reaches it: only what the browser got from Stripe.js (a confirmation token of the Payment
 * Element, or the id of a saved card). What it says about a payment comes back as facts (PaymentFact): the state of
 * the processor's object read from its answer, from a verified webhook or from a read-back, which settlement.ts
 * applies to the order, once.
 */
import type { SavedCard } from '../../../src/api/contract.js';

/** The answer of card calls, and the error of a charge, when no card processor is set up. */
export const PAYMENTS_OFF = 'Card payments are not set up on this server.';

/** What pays: the Payment Element's confirmation token, or one of the buyer's saved cards. */
export type PaymentSource = { confirmationToken: string } | { paymentMethod: string };

/** Where a payment (or a card's setup) stands at the processor. */
export type IntentState =
  | { status: 'succeeded' }
  /** 3-D Secure: the browser finishes it with the intent's client secret (never stored, never logged). */
  | { status: 'requires_action'; clientSecret: string }
  /** Under way (processing, or not confirmed yet). */
  | { status: 'pending' }
  | { status: 'failed'; message: string };

/** A subscription's state at the processor. */
export type SubscriptionStatus =
  'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'paused';

/** The processor's objects an order is paid through; `orderId`/`channel` are what the processor's metadata says. */
export interface PaymentRefs {
  channel?: string | undefined;
  orderId?: number | undefined;
  paymentIntent?: string | undefined;
  subscription?: string | undefined;
  setupIntent?: string | undefined;
}

/** What the processor says about an order, at `at` (UNIX seconds). */
export type PaymentFact =
  /** A one-time payment (an event's or a package's). */
  | { kind: 'payment'; refs: PaymentRefs; state: IntentState; at: number }
  /** A subscription's invoice: a period paid (or not), `first` for the subscription's first charge. */
  | {
      kind: 'invoice';
      refs: PaymentRefs;
      invoice: string;
      paid: boolean;
      /** What was charged, in the currency's major units, and the period it pays for (its end). */
      amount: number;
      currency: string;
      periodEnd: number;
      first: boolean;
      message: string | null;
      at: number;
    }
  /** A subscription as it stands (read back), `readAt` in ms: an older read never overwrites a newer one. */
  | {
      kind: 'subscription';
      refs: PaymentRefs;
      status: SubscriptionStatus;
      cancelAtPeriodEnd: boolean;
      periodEnd: number;
      trialEnd: number | null;
      readAt: number;
      at: number;
    }
  /** A trial's card, saved through the subscription's setup intent. */
  | { kind: 'setup'; refs: PaymentRefs; state: IntentState; paymentMethod: string | null; at: number }
  /** The payment was refunded in full (`invoice`: which of a subscription's). */
  | { kind: 'refund'; refs: PaymentRefs; invoice: string | null; at: number }
  /** The cardholder disputed the payment with their bank. */
  | { kind: 'dispute'; refs: PaymentRefs; reason: string; at: number };

/** A subscription sold: its product, price and period, the coupon's share of the first charge, the trial. */
export interface SubscriptionSale {
  /** The channel's own subscription id and name; monthly (every 30 days) or annual (every 12 months). */
  id: number;
  name: string;
  offer: 'monthly' | 'annual';
  /** Each period's price (fees included), in the currency's major units. */
  amount: number;
  currency: string;
  /** The channel's coupon: what it takes off the first charge, in major units. */
  discount: { code: string; amount: number } | null;
  trialDays: number | null;
  /** The price synced to the processor for it (`subscriptions.processor_price`), used when it matches the sale. */
  price?: string | null | undefined;
}

/** What a sale at the processor made, and where its payment stands. */
export interface Sale {
  refs: PaymentRefs;
  state: IntentState;
  /** A subscription's trial end (UNIX seconds). */
  trialEnd?: number | null;
  /** A trial's card, once saved. */
  paymentMethod?: string | null;
}

/** A webhook whose signature is missing, wrong or too old: answered 400, nothing changes. */
export class WebhookRefused extends Error {}

/** One channel's card processor. */
export interface PaymentProvider {
  /** Its name in configuration and logs. */
  readonly name: string;
  /** A new customer for a viewer (made once per viewer and channel: the caller keeps its id). */
  createCustomer(input: { channel: string; userId: number; email: string }): Promise<string>;
  /** A customer's saved cards, newest first. */
  savedCards(customer: string): Promise<SavedCard[]>;
  /** A one-time payment of an order, created and confirmed at once; `idempotencyKey` makes a retry the same one. */
  pay(input: {
    channel: string;
    orderId: number;
    customer: string;
    amount: number;
    currency: string;
    description: string;
    source: PaymentSource;
    saveCard: boolean;
    idempotencyKey: string;
  }): Promise<Sale>;
  /** A subscription of an order, its first charge confirmed (or, with a trial, its card saved) like a payment. */
  subscribe(input: {
    channel: string;
    orderId: number;
    customer: string;
    sale: SubscriptionSale;
    source: PaymentSource;
    idempotencyKey: string;
  }): Promise<Sale>;
  /** Auto-renewal off (or on again): the subscription then, read back. */
  cancelAtPeriodEnd(subscription: string, cancel: boolean): Promise<PaymentFact[]>;
  /** Makes a saved card the one a subscription renews with (a trial's card, once saved). */
  renewWith(subscription: string, paymentMethod: string): Promise<void>;
  /** Cancels a payment nobody finished (an authentication abandoned). */
  abandon(refs: PaymentRefs): Promise<void>;
  /** A setup intent for the customer: its client secret. */
  createSetupIntent(customer: string): Promise<string>;
  /** A customer portal session: the URL to send the viewer to, leading back to `returnUrl`. */
  portalUrl(customer: string, returnUrl: string): Promise<string>;
  /**
   * A webhook: checked against the channel's signing secret at `receivedAtMs` (WebhookRefused otherwise), and what
   * it says as facts (the objects read back where their order matters).
   */
  webhook(
    raw: Buffer,
    signature: string | undefined,
    receivedAtMs: number,
  ): Promise<{ id: string; type: string; facts: PaymentFact[] }>;
  /** What the processor says now about an order's objects (found by its customer and metadata when not known). */
  readBack(refs: PaymentRefs & { customer?: string | undefined }): Promise<PaymentFact[]>;
  /**
   * The processor's price of a package or a subscription (of this provider's channel): its product made or renamed,
   * the price of this amount (and interval) made, or found and kept, and `previous` (the stored one) archived when
   * it is another. Answers the price's id, which the caller stores as the product's `processor_price`.
   */
  syncPrice?(product: {
    kind: 'package' | 'subscription';
    id: number;
    name: string;
    amount: number;
    currency: string;
    interval?: 'month' | 'year';
    previous?: string | null;
  }): Promise<string>;
}

/** The processor of each channel (by key); undefined for a channel without one. */
export type PaymentProviders = (channelKey: string) => PaymentProvider | undefined;
