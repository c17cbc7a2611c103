/**
 * The shapes of the Stripe objects the double keeps (dev/stripe.ts), as Stripe's API answers them (its current
 * version: a subscription's period on its items, an invoice's subscription under `parent`, its payments listed apart),
 * and the errors it answers with. Only the fields the channel server and the tests read, plus the usual ones.
 */
import { randomBytes } from 'node:crypto';

export type Metadata = Record<string, string>;

/** A Stripe list. */
export interface List<T> {
  object: 'list';
  data: T[];
  has_more: false;
  url: string;
}

export const list = <T>(data: T[], url: string): List<T> => ({ object: 'list', data, has_more: false, url });

interface Base {
  id: string;
  created: number;
  livemode: false;
}

export interface Customer extends Base {
  object: 'customer';
  email: string | null;
  name: string | null;
  metadata: Metadata;
  invoice_settings: { default_payment_method: string | null };
}

export interface CardDetails {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  funding: 'credit';
  country: 'US';
}

export interface PaymentMethod extends Base {
  object: 'payment_method';
  type: 'card';
  card: CardDetails;
  customer: string | null;
  billing_details: { name: string | null; email: string | null };
  metadata: Metadata;
}

export interface ConfirmationToken extends Base {
  object: 'confirmation_token';
  expires_at: number;
  payment_method_preview: { type: 'card'; card: CardDetails; billing_details: PaymentMethod['billing_details'] };
  setup_future_usage: string | null;
  use_stripe_sdk: true;
}

/** A refusal as an intent keeps it (`last_payment_error`, `last_setup_error`). */
export interface LastError {
  type: string;
  code: string;
  decline_code?: string;
  message: string;
  payment_method?: PaymentMethod;
}

/** What the browser must do (3-D Secure): Stripe.js shows the challenge at `stripe_js`. */
export interface NextAction {
  type: 'use_stripe_sdk';
  use_stripe_sdk: { type: 'three_d_secure_redirect'; stripe_js: string };
}

export type IntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';

export interface PaymentIntent extends Base {
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: IntentStatus;
  customer: string | null;
  payment_method: string | null;
  payment_method_types: string[];
  client_secret: string;
  description: string | null;
  metadata: Metadata;
  setup_future_usage: 'off_session' | 'on_session' | null;
  last_payment_error: LastError | null;
  next_action: NextAction | null;
  latest_charge: string | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
}

export interface Charge extends Base {
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  refunded: boolean;
  disputed: boolean;
  captured: true;
  paid: true;
  status: 'succeeded';
  currency: string;
  customer: string | null;
  payment_intent: string;
  payment_method: string;
  metadata: Metadata;
}

export interface Refund extends Base {
  object: 'refund';
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  status: 'succeeded';
  reason: string | null;
  metadata: Metadata;
}

export interface Dispute extends Base {
  object: 'dispute';
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  reason: string;
  status: 'needs_response';
  metadata: Metadata;
}

export interface SetupIntent extends Base {
  object: 'setup_intent';
  status: IntentStatus;
  customer: string | null;
  payment_method: string | null;
  payment_method_types: string[];
  client_secret: string;
  usage: 'off_session';
  metadata: Metadata;
  next_action: NextAction | null;
  last_setup_error: LastError | null;
  cancellation_reason: string | null;
}

export interface Product extends Base {
  object: 'product';
  name: string;
  active: boolean;
  metadata: Metadata;
}

export interface Recurring {
  interval: 'day' | 'week' | 'month' | 'year';
  interval_count: number;
}

export interface Price extends Base {
  object: 'price';
  product: string;
  unit_amount: number;
  currency: string;
  /** Null for a one-time price (a package's). */
  recurring: Recurring | null;
  lookup_key: string | null;
  /** False once archived: it sells nothing new. */
  active: boolean;
  type: 'recurring' | 'one_time';
  metadata: Metadata;
}

export interface Coupon extends Base {
  object: 'coupon';
  amount_off: number | null;
  percent_off: number | null;
  currency: string | null;
  duration: 'once' | 'forever' | 'repeating';
  duration_in_months: number | null;
  name: string | null;
  valid: true;
  metadata: Metadata;
}

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  price: Price;
  quantity: 1;
  subscription: string;
  current_period_start: number;
  current_period_end: number;
}

export type SubscriptionStatus =
  'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled';

export interface Subscription extends Base {
  object: 'subscription';
  customer: string;
  status: SubscriptionStatus;
  currency: string;
  items: List<SubscriptionItem>;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  trial_start: number | null;
  trial_end: number | null;
  latest_invoice: string | null;
  pending_setup_intent: string | null;
  default_payment_method: string | null;
  metadata: Metadata;
  /** The coupons applied (their ids here; Stripe answers Discount objects). */
  discounts: string[];
  start_date: number;
  collection_method: 'charge_automatically';
  payment_settings: { save_default_payment_method: string };
}

export interface InvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string } };
}

export type InvoiceStatus = 'open' | 'paid' | 'void' | 'uncollectible';

export interface Invoice extends Base {
  object: 'invoice';
  customer: string;
  status: InvoiceStatus;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  subtotal: number;
  total: number;
  currency: string;
  billing_reason: 'subscription_create' | 'subscription_cycle';
  attempt_count: number;
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; metadata: Metadata };
    quote_details: null;
  };
  lines: List<InvoiceLine>;
  period_start: number;
  period_end: number;
  status_transitions: { finalized_at: number; paid_at: number | null };
  metadata: Metadata;
}

export interface InvoicePayment extends Base {
  object: 'invoice_payment';
  invoice: string;
  is_default: true;
  amount_requested: number;
  amount_paid: number | null;
  currency: string;
  status: 'open' | 'paid' | 'canceled';
  payment: { type: 'payment_intent'; payment_intent: string };
}

export interface PortalSession extends Base {
  object: 'billing_portal.session';
  customer: string;
  return_url: string;
  url: string;
}

/** An event as Stripe sends it to a webhook endpoint. */
export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
}

/** Stripe's error answer body (`{ error: … }`). */
export interface ErrorBody {
  type: 'card_error' | 'invalid_request_error' | 'idempotency_error' | 'authentication_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  payment_intent?: PaymentIntent;
  setup_intent?: SetupIntent;
}

/** An API call refused: its status and Stripe's error body. */
export class StripeRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

/** `No such …` (404 resource_missing). */
export const missing = (kind: string, id: string, param = 'id') =>
  new StripeRefusal(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });

/** A 400 invalid_request_error. */
export const invalid = (message: string, param?: string, code?: string) =>
  new StripeRefusal(400, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });

/** A new object id with Stripe's prefix (`pi`, `cus`, ...). */
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** A new client secret of an intent. */
export const newSecret = (id: string) => `${id}_secret_${randomBytes(16).toString('hex')}`;

/** The end of a billing period that starts at `from` (UNIX seconds), by the price's interval. */
export function addInterval(from: number, recurring: Recurring): number {
  const count = recurring.interval_count;
  if (recurring.interval === 'day') return from + count * 86400;
  if (recurring.interval === 'week') return from + count * 7 * 86400;
  const next = new Date(from * 1000);
  next.setUTCMonth(next.getUTCMonth() + (recurring.interval === 'year' ? 12 * count : count));
  return Math.floor(next.getTime() / 1000);
}
