/**
 * The `checkout` texts: loaded lazily per language (like the `forms` namespace), and the translated sentence of
 * every checkout failure (the checkout's own refusals, Stripe's card messages, server answers).
 */
import type { ReactNode } from 'react';
import { ApiError, HttpError } from '../../api/errors.js';
import type { TFunction } from '../../i18n/index.js';
import { CardError, CheckoutError, cardMessageKey, type CheckoutErrorCode } from '../../stores/commerce/errors.js';
import { errorText } from '../ui/messages.js';
import { NamespaceReady } from '../ui/namespace.js';

/** A key of the `checkout` namespace. */
export const c = (key: string) => `checkout:${key}`;

/** Renders its children once the `checkout` texts of the element's language are in (a loading line before). */
export function CheckoutTexts(props: { children: ReactNode }): ReactNode {
  return <NamespaceReady ns="checkout">{props.children}</NamespaceReady>;
}

const CODES: Record<CheckoutErrorCode, string> = {
  'id-missing': 'idMissing',
  'package-missing': 'packageMissing',
  'team-missing': 'teamMissing',
  'promo-required': 'promoRequired',
  'promo-invalid': 'promoInvalid',
  'select-card': 'selectCard',
  'card-not-ready': 'cardNotReady',
  'no-stripe': 'noStripe',
};

/** Server refusals the checkout knows, by their English text. */
const SERVER: [RegExp, string][] = [
  [/promo code/i, 'promoInvalid'],
  [/id not selected/i, 'idMissing'],
  [/single-event package/i, 'packageMissing'],
  [/teampass/i, 'teamMissing'],
  [/saved cards or enter new/i, 'selectCard'],
  [/already purchased/i, 'purchased'],
  [/already used for another payment/i, 'spentCard'],
  [/trial has already been used/i, 'trialUsed'],
  [/trial needs a card/i, 'trialNeedsCard'],
];

/** The translated sentence of a checkout failure. */
export function checkoutErrorText(error: unknown, t: TFunction): string {
  if (error instanceof CheckoutError) return t(c(`errors.${CODES[error.code]}`));
  if (error instanceof CardError) {
    const key = cardMessageKey(error);
    return key ? t(key) : error.message;
  }
  if (error instanceof HttpError && error.status === 404) return t(c('notFound'));
  if (error instanceof HttpError && error.status >= 400 && error.status < 500 && error.status !== 429) {
    const known = SERVER.find(([pattern]) => pattern.test(error.message));
    if (known) return t(c(`errors.${known[1]}`));
    if (!/^HTTP \d+$/.test(error.message)) return error.message;
  }
  return errorText(error, t);
}

/** The order's failure reason as the viewer reads it (Stripe's known messages translated). */
export function orderErrorText(message: string | null | undefined, t: TFunction): string {
  if (!message) return t(c('failed.fallback'));
  const key = cardMessageKey(message);
  return key ? t(key) : message;
}

/** Why Pay did not go through: the checkout's own refusals and card messages, else "could not be sent". */
export function payErrorText(error: unknown, t: TFunction): string {
  const unsent =
    error instanceof ApiError && (!(error instanceof HttpError) || error.status >= 500 || error.status === 429);
  return unsent ? `${t(c('errors.request'))} ${errorText(error, t)}` : checkoutErrorText(error, t);
}
