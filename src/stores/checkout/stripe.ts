/**
 * The channel's Stripe.js and the two ways the checkout asks it for a PaymentMethod: from the card field (a
 * purchase) or through a confirmed setup intent (a trial, charged later). Card data stays inside Stripe's field.
 */
import { env } from '../../lib/env.js';
import { loadStripeFor, setupPaymentMethod, type StripeCard, type StripeLike } from '../../lib/stripe.js';
import { CardError, CheckoutError } from '../commerce/errors.js';
import { $settings, getClient } from '../session.js';
import { accountApi } from '../../api/account-schemas.js';

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

/** The PaymentMethod of the card field (a purchase); Stripe's refusal rejects with a CardError. */
export async function paymentMethod(card: StripeCard): Promise<string> {
  const stripe = await channelStripe();
  const result = await stripe.createPaymentMethod({ type: 'card', card });
  if (result.error || !result.paymentMethod) throw new CardError(result.error);
  return result.paymentMethod.id;
}

/** A setup intent confirmed with the card field or a saved card: the PaymentMethod a trial charges later. */
export async function confirmSetup(card: { card: StripeCard } | string): Promise<string> {
  const intent = await getClient().call(accountApi.setupIntent, { body: {}, cache: false });
  const stripe = await channelStripe();
  const result = await stripe.confirmCardSetup(intent.data.client_secret, { payment_method: card });
  const method = setupPaymentMethod(result.setupIntent);
  if (result.error || !method) throw new CardError(result.error);
  return method;
}
