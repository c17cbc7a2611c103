/** `<channel-checkout>`: passes, packages, subscriptions, trials, coupons, card payments and order tracking. */
import { Checkout } from '../src/components/checkout/Checkout.js';
import { CHECKOUT_PROPS } from '../src/components/checkout/attributes.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/events.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * @attr event-id - sell this event's single-event pass (digits)
 * @attr package-id - or this package: single, category or team pass (digits)
 * @attr subscription-id - or this subscription, with its trial when the viewer has not used one (digits)
 * @attr lang - en | fr for this element only
 * With none of the three, every package and subscription is listed (the /packages screen); choosing one opens it.
 * Answers `channel-purchase-request` (a paywall's offer, or one the host page fires) and opens that offer.
 * @slot card - created by the element itself: the light-DOM node Stripe's card field mounts into
 * @fires channel-purchase-complete - an order was paid or a trial started (detail.orderId, detail.product {type, id})
 * @fires channel-login-request - a guest pressed Sign in (detail.reason 'purchase', detail.eventId for an event)
 * @csspart checkout, notice, loading, title, offers-step, offers, offer, offer-price, offer-trial, offer-select,
 *   purchased, empty, summary, team-select, breakdown, price, base-price, taxes, discount, total, terms, renewal,
 *   trial, final, coupon, coupon-apply, coupon-error, coupon-applied, continue, payment, payment-total,
 *   saved-cards, saved-card, new-card-option, new-card, card, pay, pay-error, secure, back, failed-dialog,
 *   failed-ok, waiting, success, pending, error, retry, sign-in, sign-in-button, free
 * @cssprop --channel-accent, --channel-radius, --channel-error, --channel-input-background, --channel-input-text,
 *   --channel-card-background, --channel-popover-background, --channel-checkout-max-width
 */
export const createCheckoutElement = () => makeElement(Checkout, CHECKOUT_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-checkout');
  defineOnce('channel-checkout', createCheckoutElement);
}
