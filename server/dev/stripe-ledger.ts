/* eslint-disable max-lines -- the double's payment state machine (intents, charges, setups and their challenges) is one unit */
/**
 * The Stripe double's payments (dev/stripe.ts): customers, payment methods, confirmation tokens, payment intents,
 * charges, refunds, disputes and setup intents, with Stripe's state machine and its events. The test card decides
 * every outcome (stripe-cards.ts); an authentication card leaves the intent `requires_action` with a challenge the
 * browser completes or fails (`authenticate`). Billing (stripe-billing.ts) hears what happens to the intents of its
 * invoices and its pending setup intents.
 */
import {
  chargeFailure,
  checkCard,
  isFailure,
  needsAuthentication,
  offSessionFailure,
  CARD_MESSAGES,
} from './stripe-cards.js';
import type { CardBehaviour, CardFailure, CardFields } from './stripe-cards.js';
import {
  invalid,
  missing,
  newId,
  newSecret,
  StripeRefusal,
  type Charge,
  type ConfirmationToken,
  type Customer,
  type Dispute,
  type LastError,
  type Metadata,
  type PaymentIntent,
  type PaymentMethod,
  type Refund,
  type SetupIntent,
} from './stripe-objects.js';

/** What the ledger needs around it. */
export interface LedgerContext {
  /** The double's clock, ms. */
  now(): number;
  /** Keys the cards' fingerprints. */
  fingerprintKey: string;
  /** Where the browser reaches the double (the challenge's address starts with it). */
  browserBase(): string;
  /** Records an event (and sends it to the webhook endpoints). */
  emit(type: string, object: unknown, previous?: Record<string, unknown>): void;
}

/** What Billing hears of the ledger. */
export interface LedgerObserver {
  paymentSucceeded(intent: PaymentIntent): void;
  paymentFailed(intent: PaymentIntent): void;
  setupSucceeded(intent: SetupIntent): void;
}

/** How an intent is paid: a confirmation token of the Payment Element, or a payment method. */
export interface Source {
  confirmationToken?: string | undefined;
  paymentMethod?: string | undefined;
}

/** What the double keeps of a card behind a payment method or a confirmation token (never its number). */
interface CardState {
  behaviour: CardBehaviour;
  /** Authenticated once for later off-session use (a setup, or a payment saved for later). */
  setUp: boolean;
  /** A token confirmed once, or a payment method of nobody's used once: neither pays again. */
  used: boolean;
}

/** A confirmation token lives this long (Stripe: 12 hours). */
const TOKEN_TTL = 12 * 3600;

export class Ledger {
  readonly customers = new Map<string, Customer>();
  readonly paymentMethods = new Map<string, PaymentMethod>();
  readonly tokens = new Map<string, ConfirmationToken>();
  readonly paymentIntents = new Map<string, PaymentIntent>();
  readonly charges = new Map<string, Charge>();
  readonly refunds = new Map<string, Refund>();
  readonly disputes = new Map<string, Dispute>();
  readonly setupIntents = new Map<string, SetupIntent>();
  /** The card behind each payment method and token. */
  readonly cards = new Map<string, CardState>();
  /** Open 3-D Secure challenges, by their id (in the challenge's address: never the client secret). */
  readonly challenges = new Map<string, string>();
  observer: LedgerObserver | undefined;

  constructor(private readonly ctx: LedgerContext) {}

  private now(): number {
    return Math.floor(this.ctx.now() / 1000);
  }

  // ------------------------------------------------------------------ customers and payment methods

  createCustomer(params: { email?: string; name?: string; metadata?: Metadata }): Customer {
    const customer: Customer = {
      id: newId('cus'),
      object: 'customer',
      email: params.email ?? null,
      name: params.name ?? null,
      metadata: params.metadata ?? {},
      invoice_settings: { default_payment_method: null },
      created: this.now(),
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    this.ctx.emit('customer.created', customer);
    return customer;
  }

  customer(id: string): Customer {
    const found = this.customers.get(id);
    if (!found) throw missing('customer', id, 'customer');
    return found;
  }

  paymentMethod(id: string): PaymentMethod {
    const found = this.paymentMethods.get(id);
    if (!found) throw missing('PaymentMethod', id, 'payment_method');
    return found;
  }

  /** A card's payment method (or a refusal of its fields), from card fields the browser sent. */
  private newCard(fields: CardFields, param: string, billing: PaymentMethod['billing_details']) {
    const card = checkCard(fields, param, this.ctx.now(), this.ctx.fingerprintKey);
    if (isFailure(card)) throw new StripeRefusal(402, card);
    const details = {
      brand: card.brand,
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: card.fingerprint,
      funding: 'credit' as const,
      country: 'US' as const,
    };
    return { details, behaviour: card.behaviour, billing };
  }

  createPaymentMethod(fields: CardFields, billing: PaymentMethod['billing_details']): PaymentMethod {
    const card = this.newCard(fields, 'card', billing);
    return this.storeMethod(card.details, card.behaviour, billing, false);
  }

  private storeMethod(
    details: PaymentMethod['card'],
    behaviour: CardBehaviour,
    billing: PaymentMethod['billing_details'],
    setUp: boolean,
  ): PaymentMethod {
    const method: PaymentMethod = {
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      card: details,
      customer: null,
      billing_details: billing,
      metadata: {},
      created: this.now(),
      livemode: false,
    };
    this.paymentMethods.set(method.id, method);
    this.cards.set(method.id, { behaviour, setUp, used: false });
    return method;
  }

  /** The Payment Element's confirmation token of the card the viewer entered. */
  createConfirmationToken(
    fields: CardFields,
    billing: PaymentMethod['billing_details'],
    setupFutureUsage: string | null,
  ): ConfirmationToken {
    const card = this.newCard(fields, 'payment_method_data[card]', billing);
    const token: ConfirmationToken = {
      id: newId('ctoken'),
      object: 'confirmation_token',
      expires_at: this.now() + TOKEN_TTL,
      payment_method_preview: { type: 'card', card: card.details, billing_details: billing },
      setup_future_usage: setupFutureUsage,
      use_stripe_sdk: true,
      created: this.now(),
      livemode: false,
    };
    this.tokens.set(token.id, token);
    this.cards.set(token.id, { behaviour: card.behaviour, setUp: false, used: false });
    return token;
  }

  attach(method: PaymentMethod, customer: string): void {
    if (method.customer === customer) return;
    if (method.customer)
      throw invalid('The payment method you provided has already been attached to a customer.', 'payment_method');
    method.customer = customer;
    this.ctx.emit('payment_method.attached', method);
  }

  detach(id: string): PaymentMethod {
    const method = this.paymentMethod(id);
    if (!method.customer)
      throw invalid(`The payment method you provided is not attached to a customer so detachment is impossible.`);
    const customer = this.customers.get(method.customer);
    if (customer?.invoice_settings.default_payment_method === id)
      customer.invoice_settings.default_payment_method = null;
    method.customer = null;
    this.cards.get(id)!.used = true; // a detached card is not used again
    this.ctx.emit('payment_method.detached', method);
    return method;
  }

  /** The payment method a confirmation uses: the token's card (now a payment method), or one of the customer's. */
  private methodOf(source: Source, customer: string | null): PaymentMethod {
    if (source.confirmationToken) {
      const token = this.tokens.get(source.confirmationToken);
      const state = this.cards.get(source.confirmationToken);
      if (!token || !state) throw missing('confirmationtoken', source.confirmationToken, 'confirmation_token');
      if (state.used || token.expires_at <= this.now())
        throw invalid('This ConfirmationToken has already been used or has expired.', 'confirmation_token');
      state.used = true;
      const preview = token.payment_method_preview;
      return this.storeMethod(preview.card, state.behaviour, preview.billing_details, false);
    }
    if (source.paymentMethod) {
      const method = this.paymentMethod(source.paymentMethod);
      if (method.customer && method.customer !== customer)
        throw invalid('The provided PaymentMethod belongs to another Customer.', 'payment_method');
      if (!method.customer && this.cards.get(method.id)!.used)
        throw invalid(
          'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
          'payment_method',
        );
      return method;
    }
    throw invalid('You must provide a payment_method or a confirmation_token to confirm.', 'payment_method');
  }

  // ------------------------------------------------------------------ payment intents

  paymentIntent(id: string): PaymentIntent {
    const found = this.paymentIntents.get(id);
    if (!found) throw missing('payment_intent', id, 'intent');
    return found;
  }

  createPaymentIntent(params: {
    amount: number;
    currency: string;
    customer?: string;
    description?: string;
    metadata?: Metadata;
    setupFutureUsage?: 'off_session' | 'on_session';
    types?: string[];
  }): PaymentIntent {
    if (!Number.isInteger(params.amount) || params.amount < 1)
      throw invalid('This value must be greater than or equal to 1.', 'amount', 'parameter_invalid_integer');
    if (params.customer) this.customer(params.customer);
    const id = newId('pi');
    const intent: PaymentIntent = {
      id,
      object: 'payment_intent',
      amount: params.amount,
      amount_received: 0,
      currency: params.currency.toLowerCase(),
      status: 'requires_payment_method',
      customer: params.customer ?? null,
      payment_method: null,
      payment_method_types: params.types ?? ['card'],
      client_secret: newSecret(id),
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      setup_future_usage: params.setupFutureUsage ?? null,
      last_payment_error: null,
      next_action: null,
      latest_charge: null,
      canceled_at: null,
      cancellation_reason: null,
      created: this.now(),
      livemode: false,
    };
    this.paymentIntents.set(id, intent);
    this.ctx.emit('payment_intent.created', intent);
    return intent;
  }

  /**
   * Confirms an intent with its source, on-session (the buyer is there: an authentication card asks for 3-D Secure)
   * or off-session (a renewal: it cannot). A declined card refuses with 402 and the intent, as Stripe's API does.
   */
  confirmPayment(intent: PaymentIntent, source: Source, offSession: boolean): PaymentIntent {
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation')
      throw invalid(
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    const method = this.methodOf(source, intent.customer);
    intent.payment_method = method.id;
    intent.last_payment_error = null;
    const card = this.cards.get(method.id)!;
    if (!offSession && needsAuthentication(card.behaviour)) {
      this.challenge(intent, 'payment_intent.requires_action');
      return intent;
    }
    const failure = offSession ? offSessionFailure(card.behaviour, card.setUp) : chargeFailure(card.behaviour);
    if (failure) {
      this.failPayment(intent, failure, method);
      throw new StripeRefusal(402, { ...failure, param: 'payment_method', payment_intent: intent });
    }
    this.succeed(intent, method);
    return intent;
  }

  /** An intent waits for the browser: a challenge at an address of its own. */
  private challenge(intent: PaymentIntent | SetupIntent, event: string): void {
    const challenge = newId('3ds');
    this.challenges.set(challenge, intent.id);
    intent.status = 'requires_action';
    intent.next_action = {
      type: 'use_stripe_sdk',
      use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `${this.ctx.browserBase()}/v1/3ds/${challenge}` },
    };
    this.ctx.emit(event, intent);
  }

  private failPayment(intent: PaymentIntent, failure: CardFailure | LastError, method: PaymentMethod): void {
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    intent.last_payment_error = {
      type: failure.type,
      code: failure.code,
      message: failure.message,
      payment_method: method,
    };
    if (failure.decline_code) intent.last_payment_error.decline_code = failure.decline_code;
    this.ctx.emit('payment_intent.payment_failed', intent);
    this.observer?.paymentFailed(intent);
  }

  /** The card is charged: a charge, the intent succeeded, the card saved when the intent said so. */
  private succeed(intent: PaymentIntent, method: PaymentMethod): void {
    const card = this.cards.get(method.id)!;
    if (!method.customer) card.used = true;
    if (intent.setup_future_usage && intent.customer) {
      card.setUp = true;
      this.attach(method, intent.customer);
    }
    const charge: Charge = {
      id: newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      captured: true,
      paid: true,
      status: 'succeeded',
      currency: intent.currency,
      customer: intent.customer,
      payment_intent: intent.id,
      payment_method: method.id,
      metadata: {},
      created: this.now(),
      livemode: false,
    };
    this.charges.set(charge.id, charge);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.next_action = null;
    intent.latest_charge = charge.id;
    this.ctx.emit('charge.succeeded', charge);
    this.ctx.emit('payment_intent.succeeded', intent);
    this.observer?.paymentSucceeded(intent);
  }

  cancelPayment(intent: PaymentIntent, reason = 'requested_by_customer'): PaymentIntent {
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      throw invalid(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    intent.status = 'canceled';
    intent.next_action = null;
    intent.canceled_at = this.now();
    intent.cancellation_reason = reason;
    this.ctx.emit('payment_intent.canceled', intent);
    return intent;
  }

  /** The buyer completed or failed a 3-D Secure challenge. */
  authenticate(challenge: string, completed: boolean): PaymentIntent | SetupIntent {
    const id = this.challenges.get(challenge);
    if (!id) throw missing('challenge', challenge);
    this.challenges.delete(challenge);
    const intent = this.paymentIntents.get(id) ?? this.setupIntents.get(id)!;
    if (intent.status !== 'requires_action') return intent;
    const method = this.paymentMethod(intent.payment_method!);
    const card = this.cards.get(method.id)!;
    if (intent.object === 'payment_intent') {
      if (!completed) {
        const code = 'payment_intent_authentication_failure';
        this.failPayment(intent, { type: 'invalid_request_error', code, message: CARD_MESSAGES[code] }, method);
        return intent;
      }
      // Authenticated: the card is set up for later when the payment saves it, and the bank's answer follows.
      const failure = chargeFailure(card.behaviour);
      if (failure) this.failPayment(intent, failure, method);
      else this.succeed(intent, method);
      return intent;
    }
    if (!completed) {
      const code = 'setup_intent_authentication_failure';
      intent.status = 'requires_payment_method';
      intent.next_action = null;
      intent.last_setup_error = {
        type: 'invalid_request_error',
        code,
        message: CARD_MESSAGES[code],
        payment_method: method,
      };
      this.ctx.emit('setup_intent.setup_failed', intent);
      return intent;
    }
    this.setupDone(intent, method);
    return intent;
  }

  // ------------------------------------------------------------------ charges: refunds and disputes

  charge(id: string): Charge {
    const found = this.charges.get(id);
    if (!found) throw missing('charge', id, 'charge');
    return found;
  }

  /** A refund (of the whole charge unless `amount` says less): the charge refunded, and its event. */
  refund(params: { paymentIntent?: string; charge?: string; amount?: number; reason?: string }): Refund {
    const chargeId =
      params.charge ?? (params.paymentIntent ? this.paymentIntent(params.paymentIntent).latest_charge : null);
    if (!chargeId) throw invalid('This PaymentIntent does not have a successful charge to refund.', 'payment_intent');
    const charge = this.charge(chargeId);
    const left = charge.amount - charge.amount_refunded;
    const amount = params.amount ?? left;
    if (left <= 0)
      throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    if (amount > left)
      throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, 'amount');
    const refund: Refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      currency: charge.currency,
      status: 'succeeded',
      reason: params.reason ?? null,
      metadata: {},
      created: this.now(),
      livemode: false,
    };
    this.refunds.set(refund.id, refund);
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    this.ctx.emit('refund.created', refund);
    this.ctx.emit('charge.refunded', charge, previous);
    return refund;
  }

  /** The cardholder disputes a payment with their bank (what Stripe's dispute test cards do). */
  dispute(paymentIntent: string, reason = 'fraudulent'): Dispute {
    const intent = this.paymentIntent(paymentIntent);
    if (!intent.latest_charge) throw invalid('This PaymentIntent has no charge to dispute.');
    const charge = this.charge(intent.latest_charge);
    charge.disputed = true;
    const dispute: Dispute = {
      id: newId('dp'),
      object: 'dispute',
      amount: charge.amount,
      charge: charge.id,
      payment_intent: intent.id,
      currency: charge.currency,
      reason,
      status: 'needs_response',
      metadata: {},
      created: this.now(),
      livemode: false,
    };
    this.disputes.set(dispute.id, dispute);
    this.ctx.emit('charge.dispute.created', dispute);
    return dispute;
  }

  // ------------------------------------------------------------------ setup intents

  setupIntent(id: string): SetupIntent {
    const found = this.setupIntents.get(id);
    if (!found) throw missing('setupintent', id, 'intent');
    return found;
  }

  createSetupIntent(params: { customer?: string; metadata?: Metadata }): SetupIntent {
    if (params.customer) this.customer(params.customer);
    const id = newId('seti');
    const intent: SetupIntent = {
      id,
      object: 'setup_intent',
      status: 'requires_payment_method',
      customer: params.customer ?? null,
      payment_method: null,
      payment_method_types: ['card'],
      client_secret: newSecret(id),
      usage: 'off_session',
      metadata: params.metadata ?? {},
      next_action: null,
      last_setup_error: null,
      cancellation_reason: null,
      created: this.now(),
      livemode: false,
    };
    this.setupIntents.set(id, intent);
    this.ctx.emit('setup_intent.created', intent);
    return intent;
  }

  /** Confirms a setup intent: the card saved for later (an authentication card asks for 3-D Secure first). */
  confirmSetup(intent: SetupIntent, source: Source): SetupIntent {
    if (intent.status === 'succeeded')
      throw invalid(
        'You cannot confirm this SetupIntent because it has already succeeded.',
        undefined,
        'setup_intent_unexpected_state',
      );
    const method = this.methodOf(source, intent.customer);
    intent.payment_method = method.id;
    intent.last_setup_error = null;
    const card = this.cards.get(method.id)!;
    if (card.behaviour === 'declined') {
      const failure = chargeFailure(card.behaviour)!;
      intent.status = 'requires_payment_method';
      intent.last_setup_error = {
        type: failure.type,
        code: failure.code,
        message: failure.message,
        payment_method: method,
      };
      this.ctx.emit('setup_intent.setup_failed', intent);
      throw new StripeRefusal(402, { ...failure, param: 'payment_method', setup_intent: intent });
    }
    if (needsAuthentication(card.behaviour)) {
      this.challenge(intent, 'setup_intent.requires_action');
      return intent;
    }
    this.setupDone(intent, method);
    return intent;
  }

  private setupDone(intent: SetupIntent, method: PaymentMethod): void {
    const card = this.cards.get(method.id)!;
    card.setUp = true;
    if (intent.customer) this.attach(method, intent.customer);
    intent.status = 'succeeded';
    intent.next_action = null;
    this.ctx.emit('setup_intent.succeeded', intent);
    this.observer?.setupSucceeded(intent);
  }

  /** An off-session payment of an invoice (a renewal): its outcome, with no one there to authenticate. */
  chargeOffSession(intent: PaymentIntent, method: string): void {
    try {
      this.confirmPayment(intent, { paymentMethod: method }, true);
    } catch (error) {
      if (!(error instanceof StripeRefusal)) throw error;
    }
  }
}
