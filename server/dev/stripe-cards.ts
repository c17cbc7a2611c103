/**
 * The Stripe double's cards (dev/stripe.ts): Stripe's documented test numbers, each with the outcome Stripe gives
 * it, and the checks Stripe makes of a card's fields, with its codes and messages. Every outcome of the double comes
 * from the card: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has insufficient
 * funds (it can still be saved, and fails when charged); the authentication cards ask for 3-D Secure:
 * 4000 0025 0000 3155 on a payment made on-session (once set up, an off-session charge passes without it),
 * 4000 0027 6000 3184 on every payment (an off-session one is declined, authentication_required), and
 * 4000 0000 0000 3220 on every payment made on-session (off-session: declined). Any other valid number is
 * refused as incorrect. The number itself is never kept: a card keeps its brand, last 4 digits, expiry, outcome
 * and a fingerprint.
 */
import { createHmac } from 'node:crypto';

/** What a test card does when charged or set up. */
export type CardBehaviour =
  | 'succeeds'
  | 'declined'
  | 'insufficient_funds'
  /** 3155: authentication once on-session; a card set up (authenticated once) passes off-session. */
  | 'auth_unless_set_up'
  /** 3184: authentication on every payment; off-session declined. */
  | 'auth_always'
  /** 3220: 3-D Secure 2 on every on-session payment; off-session declined. */
  | 'auth_required';

/** The test cards, by number. */
export const TEST_CARDS: Readonly<Record<string, CardBehaviour>> = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000002500003155': 'auth_unless_set_up',
  '4000002760003184': 'auth_always',
  '4000000000003220': 'auth_required',
};

/** A card's error in Stripe's shape (`{ type, code, message, param, decline_code }`). */
export interface CardFailure {
  type: 'card_error' | 'invalid_request_error';
  code: string;
  message: string;
  param?: string;
  decline_code?: string;
}

/** Stripe's English messages of the refusals the double gives (Stripe.js translates them in the browser). */
export const CARD_MESSAGES = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  authentication_required: 'Your card was declined. This transaction requires authentication.',
  payment_intent_authentication_failure:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  setup_intent_authentication_failure:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  incomplete_number: 'Your card number is incomplete.',
  invalid_number: 'Your card number is invalid.',
  incorrect_number: 'Your card number is incorrect.',
  incomplete_expiry: "Your card's expiration date is incomplete.",
  invalid_expiry_month: "Your card's expiration month is invalid.",
  invalid_expiry_year: "Your card's expiration year is in the past.",
  incomplete_cvc: "Your card's security code is incomplete.",
  invalid_cvc: "Your card's security code is invalid.",
} as const;

/** The refusal of charging a card of this behaviour, if it is refused (authentication aside). */
export function chargeFailure(behaviour: CardBehaviour): CardFailure | undefined {
  if (behaviour === 'declined')
    return {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: CARD_MESSAGES.card_declined,
    };
  if (behaviour === 'insufficient_funds')
    return {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: CARD_MESSAGES.insufficient_funds,
    };
  return undefined;
}

/** The refusal of an off-session charge that would need the buyer (an authentication card), if any. */
export function offSessionFailure(behaviour: CardBehaviour, setUp: boolean): CardFailure | undefined {
  const needs =
    behaviour === 'auth_always' || behaviour === 'auth_required' || (behaviour === 'auth_unless_set_up' && !setUp);
  if (!needs) return chargeFailure(behaviour);
  return {
    type: 'card_error',
    code: 'authentication_required',
    decline_code: 'authentication_required',
    message: CARD_MESSAGES.authentication_required,
  };
}

/** Whether an on-session payment with this card asks for 3-D Secure. */
export const needsAuthentication = (behaviour: CardBehaviour): boolean => behaviour.startsWith('auth_');

/** Luhn's checksum, which every real card number passes. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** A card's brand by its number's first digits. */
export function brandOf(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65)/.test(digits)) return 'discover';
  return 'unknown';
}

/** A checked card: what the double keeps of it. */
export interface Card {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  behaviour: CardBehaviour;
}

/** The card fields as given (`card[number]`, `card[exp_month]`, ...). */
export interface CardFields {
  number?: unknown;
  exp_month?: unknown;
  exp_year?: unknown;
  cvc?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');

/**
 * Checks card fields like Stripe (number, expiry, security code, in that order): the card, or the first refusal.
 * `param` is the form name of the fields (`payment_method_data[card]`); `fingerprintKey` keys the fingerprint.
 */
export function checkCard(
  fields: CardFields,
  param: string,
  nowMs: number,
  fingerprintKey: string,
): Card | CardFailure {
  const fail = (code: keyof typeof CARD_MESSAGES, field: string): CardFailure => ({
    type: 'card_error',
    code,
    message: CARD_MESSAGES[code],
    param: `${param}[${field}]`,
  });
  const digits = text(fields.number).replace(/[\s-]/g, '');
  const brand = brandOf(digits);
  if (!/^\d+$/.test(digits) || digits.length < (brand === 'amex' ? 15 : 16)) return fail('incomplete_number', 'number');
  if (digits.length > 19 || !luhn(digits)) return fail('invalid_number', 'number');
  const behaviour = TEST_CARDS[digits];
  if (!behaviour) return fail('incorrect_number', 'number');
  const month = text(fields.exp_month);
  const yearText = text(fields.exp_year);
  if (!/^\d{1,2}$/.test(month) || !/^\d{2}(\d{2})?$/.test(yearText))
    return fail('incomplete_expiry', month ? 'exp_year' : 'exp_month');
  const expMonth = Number(month);
  if (expMonth < 1 || expMonth > 12) return fail('invalid_expiry_month', 'exp_month');
  const now = new Date(nowMs);
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1))
    return fail('invalid_expiry_year', 'exp_year');
  const cvc = text(fields.cvc);
  if (!/^\d*$/.test(cvc) || cvc.length > 4) return fail('invalid_cvc', 'cvc');
  if (cvc.length < (brand === 'amex' ? 4 : 3)) return fail('incomplete_cvc', 'cvc');
  return {
    brand,
    last4: digits.slice(-4),
    exp_month: expMonth,
    exp_year: year,
    fingerprint: createHmac('sha256', fingerprintKey).update(digits).digest('hex').slice(0, 16),
    behaviour,
  };
}

/** Whether a check answered a refusal. */
export const isFailure = (value: Card | CardFailure): value is CardFailure => 'code' in value;
