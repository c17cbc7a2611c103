/**
 * The refusals of a purchase: the checkout's own checks, Stripe's card errors and a failed order. English messages
 * for developers; the UI translates by code or by `cardMessageKey`.
 */
import type { Order } from '../../api/account-schemas.js';
import { HttpError } from '../../api/errors.js';
import type { StripeFailure } from '../../lib/stripe.js';

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

/** English texts of the refusals (the API's own where it has one); the UI translates by code. */
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

/**
 * Stripe refused the card (the Payment Element's check, createConfirmationToken, or a failed 3-D Secure in
 * handleNextAction): its code and message for the viewer.
 */
export class CardError extends Error {
  override name = 'CardError';
  readonly code: string | undefined;
  /** Stripe's kind of error: `api_connection_error` when Stripe could not be reached (the viewer's network). */
  readonly type: string | undefined;
  constructor(failure: StripeFailure | undefined) {
    super(failure?.message || 'The card was not accepted.');
    this.code = failure?.code;
    this.type = failure?.type;
  }
}

/** The order failed (rejects with the order data and popup=true). */
export class PaymentFailedError extends Error {
  override name = 'PaymentFailedError';
  readonly popup = true;
  constructor(readonly order: Order) {
    super(order.error || 'The payment failed.');
  }
}

/** A 422 that says the promo code is wrong ('Wrong promo code'). */
export function isPromoRefusal(error: unknown): boolean {
  return error instanceof HttpError && error.status === 422 && /promo/i.test(error.message);
}

/** The translation key of a known card message (Stripe codes, or the order's error text), else undefined. */
export function cardMessageKey(
  error: { code?: string | undefined; type?: string | undefined; message?: string | undefined } | string,
): string | undefined {
  const code = typeof error === 'string' ? undefined : error.code;
  // Stripe.js could not reach Stripe (the viewer's connection): no card was refused.
  if (typeof error !== 'string' && error.type === 'api_connection_error') return 'checkout:card.connection';
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
    // 3-D Secure failed, or the viewer closed the bank's challenge.
    ['payment_intent_authentication_failure', /unable to authenticate your payment method/i, 'authFailed'],
    ['setup_intent_authentication_failure', /unable to authenticate your payment method/i, 'authFailed'],
  ];
  const hit = known.find(([c, pattern]) => c === code || pattern.test(message));
  return hit ? `checkout:card.${hit[2]}` : undefined;
}
