/* eslint-disable max-lines -- Billing's state machine (subscriptions and the invoices of their periods) is one unit */
/**
 * The Stripe double's Billing (dev/stripe.ts): products, prices (found by lookup key), coupons, subscriptions and
 * their invoices, as Stripe runs them. A subscription made with `payment_behavior: default_incomplete` waits for its
 * first invoice's payment intent to be confirmed (incomplete, then active); with a trial it starts `trialing`, with a
 * paid invoice of nothing and a pending setup intent to save the card with. At the end of a period (`advance`, or
 * `tick` for every subscription whose period ended on the double's clock) it bills the next one off-session with its
 * default card (paid: active; refused: past_due), or ends when it was to cancel at the period's end.
 */
import type { Ledger, LedgerObserver } from './stripe-ledger.js';
import {
  addInterval,
  invalid,
  list,
  missing,
  newId,
  type Coupon,
  type Invoice,
  type InvoicePayment,
  type Metadata,
  type PaymentIntent,
  type Price,
  type Product,
  type Recurring,
  type SetupIntent,
  type Subscription,
} from './stripe-objects.js';

/** What billing needs around it. */
export interface BillingContext {
  now(): number;
  emit(type: string, object: unknown, previous?: Record<string, unknown>): void;
}

/** At most this many periods are billed at once (a clock moved years ahead). */
const MAX_PERIODS = 36;

export class Billing implements LedgerObserver {
  readonly products = new Map<string, Product>();
  readonly prices = new Map<string, Price>();
  readonly coupons = new Map<string, Coupon>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly invoices = new Map<string, Invoice>();
  readonly invoicePayments = new Map<string, InvoicePayment>();

  constructor(
    private readonly ledger: Ledger,
    private readonly ctx: BillingContext,
  ) {
    ledger.observer = this;
  }

  private now(): number {
    return Math.floor(this.ctx.now() / 1000);
  }

  // ------------------------------------------------------------------ catalogue

  createProduct(params: { id?: string; name: string; metadata?: Metadata }): Product {
    const id = params.id ?? newId('prod');
    if (this.products.has(id)) throw invalid(`Product already exists.`, 'id', 'resource_already_exists');
    const product: Product = {
      id,
      object: 'product',
      name: params.name,
      active: true,
      metadata: params.metadata ?? {},
      created: this.now(),
      livemode: false,
    };
    this.products.set(id, product);
    this.ctx.emit('product.created', product);
    return product;
  }

  product(id: string): Product {
    const found = this.products.get(id);
    if (!found) throw missing('product', id);
    return found;
  }

  /** A product renamed, archived or made active again, or its metadata changed. */
  updateProduct(id: string, params: { name?: string; active?: boolean; metadata?: Metadata }): Product {
    const product = this.product(id);
    const previous = { name: product.name, active: product.active };
    if (params.name !== undefined) product.name = params.name;
    if (params.active !== undefined) product.active = params.active;
    if (params.metadata) product.metadata = { ...product.metadata, ...params.metadata };
    this.ctx.emit('product.updated', product, previous);
    return product;
  }

  price(id: string): Price {
    const found = this.prices.get(id);
    if (!found) throw missing('price', id);
    return found;
  }

  /** A price archived (`active: false`) or made active again; its amount and period never change, as at Stripe. */
  updatePrice(id: string, params: { active?: boolean; metadata?: Metadata }): Price {
    const price = this.price(id);
    const previous = { active: price.active };
    if (params.active !== undefined) price.active = params.active;
    if (params.metadata) price.metadata = { ...price.metadata, ...params.metadata };
    this.ctx.emit('price.updated', price, previous);
    return price;
  }

  createPrice(params: {
    product: string;
    unit_amount: number;
    currency: string;
    recurring: Recurring | null;
    lookup_key?: string;
    metadata?: Metadata;
  }): Price {
    this.product(params.product);
    if (params.lookup_key && [...this.prices.values()].some((p) => p.lookup_key === params.lookup_key))
      throw invalid(`A price already uses the lookup key ${params.lookup_key}.`, 'lookup_key');
    const price: Price = {
      id: newId('price'),
      object: 'price',
      product: params.product,
      unit_amount: params.unit_amount,
      currency: params.currency.toLowerCase(),
      recurring: params.recurring,
      lookup_key: params.lookup_key ?? null,
      active: true,
      type: params.recurring ? 'recurring' : 'one_time',
      metadata: params.metadata ?? {},
      created: this.now(),
      livemode: false,
    };
    this.prices.set(price.id, price);
    this.ctx.emit('price.created', price);
    return price;
  }

  findPrices(lookupKeys: string[]): Price[] {
    return [...this.prices.values()].filter((p) => p.lookup_key !== null && lookupKeys.includes(p.lookup_key));
  }

  createCoupon(params: Omit<Coupon, 'id' | 'object' | 'created' | 'livemode' | 'valid'> & { id?: string }): Coupon {
    const id = params.id ?? newId('coupon');
    if (this.coupons.has(id)) throw invalid('Coupon already exists.', 'id', 'resource_already_exists');
    if ((params.amount_off === null) === (params.percent_off === null))
      throw invalid('You must pass either amount_off or percent_off.');
    const coupon: Coupon = { ...params, id, object: 'coupon', valid: true, created: this.now(), livemode: false };
    this.coupons.set(id, coupon);
    return coupon;
  }

  coupon(id: string): Coupon {
    const found = this.coupons.get(id);
    if (!found) throw missing('coupon', id);
    return found;
  }

  // ------------------------------------------------------------------ subscriptions

  subscription(id: string): Subscription {
    const found = this.subscriptions.get(id);
    if (!found) throw missing('subscription', id);
    return found;
  }

  invoice(id: string): Invoice {
    const found = this.invoices.get(id);
    if (!found) throw missing('invoice', id);
    return found;
  }

  /** The payments of an invoice (what `payments` includes), or of a payment intent. */
  paymentsOf(filter: { invoice?: string; paymentIntent?: string }): InvoicePayment[] {
    return [...this.invoicePayments.values()].filter(
      (p) =>
        (!filter.invoice || p.invoice === filter.invoice) &&
        (!filter.paymentIntent || p.payment.payment_intent === filter.paymentIntent),
    );
  }

  createSubscription(params: {
    customer: string;
    price: string;
    trialDays?: number;
    coupon?: string;
    defaultPaymentMethod?: string;
    saveDefault?: string;
    metadata?: Metadata;
  }): Subscription {
    this.ledger.customer(params.customer);
    const price = this.prices.get(params.price);
    if (!price) throw missing('price', params.price, 'items[0][price]');
    if (!price.active)
      throw invalid(`The price specified is inactive. This field only accepts active prices.`, 'items[0][price]');
    if (!price.recurring)
      throw invalid(
        'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.',
        'items[0][price]',
      );
    if (params.coupon) this.coupon(params.coupon);
    const now = this.now();
    const trialEnd = params.trialDays ? now + params.trialDays * 86400 : null;
    const id = newId('sub');
    const subscription: Subscription = {
      id,
      object: 'subscription',
      customer: params.customer,
      status: trialEnd ? 'trialing' : 'incomplete',
      currency: price.currency,
      items: list(
        [
          {
            id: newId('si'),
            object: 'subscription_item',
            price,
            quantity: 1,
            subscription: id,
            current_period_start: now,
            current_period_end: trialEnd ?? addInterval(now, price.recurring),
          },
        ],
        `/v1/subscription_items?subscription=${id}`,
      ),
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      latest_invoice: null,
      pending_setup_intent: null,
      default_payment_method: params.defaultPaymentMethod ?? null,
      metadata: params.metadata ?? {},
      discounts: params.coupon ? [params.coupon] : [],
      start_date: now,
      collection_method: 'charge_automatically',
      payment_settings: { save_default_payment_method: params.saveDefault ?? 'off' },
      created: now,
      livemode: false,
    };
    this.subscriptions.set(id, subscription);
    this.ctx.emit('customer.subscription.created', subscription);
    const item = subscription.items.data[0]!;
    // A trial bills nothing now; without a card yet, a setup intent to save one with.
    const amount = trialEnd ? 0 : this.amountOf(subscription, price, true);
    this.bill(subscription, 'subscription_create', item.current_period_start, item.current_period_end, amount);
    if (trialEnd && !subscription.default_payment_method) {
      subscription.pending_setup_intent = this.ledger.createSetupIntent({ customer: params.customer }).id;
    }
    return subscription;
  }

  /** What a period costs: the price, less the coupon where it still applies (`once`: the first invoice only). */
  private amountOf(subscription: Subscription, price: Price, first: boolean): number {
    const coupon = subscription.discounts[0] ? this.coupons.get(subscription.discounts[0]) : undefined;
    if (!coupon || (coupon.duration === 'once' && !first)) return price.unit_amount;
    const off =
      coupon.percent_off !== null
        ? Math.round((price.unit_amount * coupon.percent_off) / 100)
        : Math.min(coupon.amount_off ?? 0, price.unit_amount);
    return price.unit_amount - off;
  }

  /** A finalised invoice of one period, with the payment intent that pays it (none for an invoice of nothing). */
  private bill(
    subscription: Subscription,
    reason: Invoice['billing_reason'],
    start: number,
    end: number,
    amount: number,
  ): { invoice: Invoice; intent: PaymentIntent | undefined } {
    const price = subscription.items.data[0]!.price;
    const now = this.now();
    const invoice: Invoice = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: 'open',
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      subtotal: price.unit_amount,
      total: amount,
      currency: price.currency,
      billing_reason: reason,
      attempt_count: 0,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
        quote_details: null,
      },
      lines: list(
        [
          {
            id: newId('il'),
            object: 'line_item',
            amount: price.unit_amount,
            currency: price.currency,
            description: `1 × ${this.products.get(price.product)?.name ?? price.product}`,
            period: { start, end },
            pricing: { type: 'price_details', price_details: { price: price.id, product: price.product } },
          },
        ],
        '/v1/invoices/lines',
      ),
      period_start: start,
      period_end: end,
      status_transitions: { finalized_at: now, paid_at: null },
      metadata: {},
      created: now,
      livemode: false,
    };
    this.invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    this.ctx.emit('invoice.created', invoice);
    this.ctx.emit('invoice.finalized', invoice);
    if (amount === 0) {
      this.paid(invoice);
      return { invoice, intent: undefined };
    }
    const intent = this.ledger.createPaymentIntent({
      amount,
      currency: price.currency,
      customer: subscription.customer,
      description: reason === 'subscription_create' ? 'Subscription creation' : 'Subscription update',
    });
    const payment: InvoicePayment = {
      id: newId('inpay'),
      object: 'invoice_payment',
      invoice: invoice.id,
      is_default: true,
      amount_requested: amount,
      amount_paid: null,
      currency: price.currency,
      status: 'open',
      payment: { type: 'payment_intent', payment_intent: intent.id },
      created: now,
      livemode: false,
    };
    this.invoicePayments.set(payment.id, payment);
    return { invoice, intent };
  }

  private paid(invoice: Invoice): void {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.status_transitions.paid_at = this.now();
    this.ctx.emit('invoice.paid', invoice);
    this.ctx.emit('invoice.payment_succeeded', invoice);
  }

  private setStatus(subscription: Subscription, status: Subscription['status']): void {
    if (subscription.status === status) return;
    const previous = { status: subscription.status };
    subscription.status = status;
    this.ctx.emit('customer.subscription.updated', subscription, previous);
  }

  private invoiceOf(intent: PaymentIntent): { invoice: Invoice; payment: InvoicePayment } | undefined {
    const payment = this.paymentsOf({ paymentIntent: intent.id })[0];
    return payment ? { invoice: this.invoice(payment.invoice), payment } : undefined;
  }

  paymentSucceeded(intent: PaymentIntent): void {
    const of = this.invoiceOf(intent);
    if (!of) return;
    of.payment.status = 'paid';
    of.payment.amount_paid = intent.amount;
    this.paid(of.invoice);
    const subscription = this.subscription(of.invoice.parent.subscription_details.subscription);
    if (subscription.payment_settings.save_default_payment_method === 'on_subscription' && intent.payment_method) {
      const method = this.ledger.paymentMethod(intent.payment_method);
      if (!method.customer) this.ledger.attach(method, subscription.customer);
      if (subscription.default_payment_method !== method.id) {
        const previous = { default_payment_method: subscription.default_payment_method };
        subscription.default_payment_method = method.id;
        this.ctx.emit('customer.subscription.updated', subscription, previous);
      }
    }
    if (['incomplete', 'past_due', 'unpaid', 'trialing'].includes(subscription.status))
      this.setStatus(subscription, 'active');
  }

  paymentFailed(intent: PaymentIntent): void {
    const of = this.invoiceOf(intent);
    if (!of) return;
    of.invoice.attempt_count++;
    this.ctx.emit('invoice.payment_failed', of.invoice);
    const subscription = this.subscription(of.invoice.parent.subscription_details.subscription);
    if (of.invoice.billing_reason === 'subscription_cycle') this.setStatus(subscription, 'past_due');
  }

  setupSucceeded(intent: SetupIntent): void {
    const subscription = [...this.subscriptions.values()].find((s) => s.pending_setup_intent === intent.id);
    if (!subscription) return;
    const previous = {
      pending_setup_intent: subscription.pending_setup_intent,
      default_payment_method: subscription.default_payment_method,
    };
    subscription.pending_setup_intent = null;
    subscription.default_payment_method = intent.payment_method;
    this.ctx.emit('customer.subscription.updated', subscription, previous);
  }

  updateSubscription(
    id: string,
    params: { cancelAtPeriodEnd?: boolean; defaultPaymentMethod?: string; metadata?: Metadata },
  ): Subscription {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled')
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    const previous: Record<string, unknown> = {};
    if (params.cancelAtPeriodEnd !== undefined && params.cancelAtPeriodEnd !== subscription.cancel_at_period_end) {
      previous.cancel_at_period_end = subscription.cancel_at_period_end;
      subscription.cancel_at_period_end = params.cancelAtPeriodEnd;
      subscription.cancel_at = params.cancelAtPeriodEnd ? subscription.items.data[0]!.current_period_end : null;
      subscription.canceled_at = params.cancelAtPeriodEnd ? this.now() : null;
    }
    if (params.defaultPaymentMethod && params.defaultPaymentMethod !== subscription.default_payment_method) {
      const method = this.ledger.paymentMethod(params.defaultPaymentMethod);
      if (method.customer !== subscription.customer)
        throw invalid("The payment method must be attached to the subscription's customer.", 'default_payment_method');
      previous.default_payment_method = subscription.default_payment_method;
      subscription.default_payment_method = method.id;
    }
    if (params.metadata) subscription.metadata = { ...subscription.metadata, ...params.metadata };
    if (Object.keys(previous).length > 0) this.ctx.emit('customer.subscription.updated', subscription, previous);
    return subscription;
  }

  /** Ends a subscription now (the dashboard's "Cancel immediately", or the portal's). */
  cancelSubscription(id: string): Subscription {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled') return subscription;
    subscription.status = 'canceled';
    subscription.canceled_at ??= this.now();
    subscription.ended_at = this.now();
    this.ctx.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /**
   * The end of a subscription's current period: it ends if it was to cancel then; else the next period is billed
   * with its default card, off-session (a refusal makes it past_due).
   */
  advance(id: string): Subscription {
    const subscription = this.subscription(id);
    if (['canceled', 'incomplete', 'incomplete_expired'].includes(subscription.status)) return subscription;
    const item = subscription.items.data[0]!;
    const end = item.current_period_end;
    if (subscription.cancel_at_period_end) {
      subscription.status = 'canceled';
      subscription.ended_at = end;
      this.ctx.emit('customer.subscription.deleted', subscription);
      return subscription;
    }
    const previous = { current_period_start: item.current_period_start, current_period_end: end };
    item.current_period_start = end;
    item.current_period_end = addInterval(end, item.price.recurring!);
    const first = subscription.status === 'trialing';
    const { intent } = this.bill(
      subscription,
      'subscription_cycle',
      end,
      item.current_period_end,
      this.amountOf(subscription, item.price, first),
    );
    this.ctx.emit('customer.subscription.updated', subscription, previous);
    if (!intent) return subscription;
    const customer = this.ledger.customer(subscription.customer);
    const method = subscription.default_payment_method ?? customer.invoice_settings.default_payment_method;
    if (method) this.ledger.chargeOffSession(intent, method);
    else this.paymentFailed(intent);
    return subscription;
  }

  /** Bills every subscription whose period ended on the double's clock (what Stripe's scheduler does). */
  tick(): void {
    const now = this.now();
    for (const subscription of this.subscriptions.values()) {
      for (let n = 0; n < MAX_PERIODS; n++) {
        const live = !['canceled', 'incomplete', 'incomplete_expired'].includes(subscription.status);
        if (!live || subscription.items.data[0]!.current_period_end > now) break;
        this.advance(subscription.id);
      }
    }
  }
}
