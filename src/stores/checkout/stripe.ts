/**
 * The channel's Stripe.js and what the checkout asks of it: the Payment Element's options for a price, a
 * ConfirmationToken of the card the viewer entered (the server confirms the intent with it), and the next action
 * (3-D Secure) of an intent the server could not finish alone. Card data stays inside Stripe's field.
 */
import type { Pricing } from '../../api/account-schemas.js';
import { env } from '../../lib/env.js';
import {
  loadStripeFor,
  stripeAmount,
  type StripeElements,
  type StripeElementsOptions,
  type StripeLike,
} from '../../lib/stripe.js';
import { CardError, CheckoutError } from '../commerce/errors.js';
import { $settings } from '../session.js';

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

/**
 * The Payment Element's deferred intent for a price: a trial saves a card (`setup`, nothing charged now), a
 * subscription pays its first period, anything else is a payment of the total, in Stripe's minor units.
 */
export function elementsOptions(pricing: Pricing, trial: boolean, locale: string): StripeElementsOptions {
  const currency = (pricing.currency || 'USD').toLowerCase();
  if (trial) return { mode: 'setup', currency, locale };
  return {
    mode: pricing.type === 'subscription' ? 'subscription' : 'payment',
    amount: stripeAmount(pricing.total, currency),
    currency,
    locale,
  };
}

/**
 * A ConfirmationToken of the card in the Payment Element: the field is validated first (`elements.submit()`);
 * Stripe's refusal rejects with a CardError and nothing is sent to our API. `save` (payments only): whether the
 * card is kept for later, which the token must say as the intent will.
 */
export async function confirmationToken(elements: StripeElements, save: boolean | undefined): Promise<string> {
  const stripe = await channelStripe();
  if (save !== undefined) elements.update({ setupFutureUsage: save ? 'off_session' : null });
  const submitted = await elements.submit();
  if (submitted.error) throw new CardError(submitted.error);
  const result = await stripe.createConfirmationToken({ elements });
  if (result.error || !result.confirmationToken) throw new CardError(result.error);
  return result.confirmationToken.id;
}

/**
 * Runs the action an intent asks for (3-D Secure) with its client secret. An authentication that failed or was
 * cancelled rejects with Stripe's error as a CardError; afterwards the order's own status (webhooks) says the rest.
 */
export async function nextAction(clientSecret: string): Promise<void> {
  const stripe = await channelStripe();
  const result = await stripe.handleNextAction({ clientSecret });
  if (result.error) throw new CardError(result.error);
}
