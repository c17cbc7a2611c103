/** `<channel-checkout>`: passes, packages, subscriptions, trials, coupons, card payments and order tracking. */
import { Checkout } from '../src/components/checkout/Checkout.js';
import { CHECKOUT_PROPS } from '../src/components/checkout/attributes.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/port.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * The element class. Its attributes, events, slots, parts and custom properties are written in elements/surface.ts
 * (the generated reference: elements/README.md).
 */
export const createCheckoutElement = () => makeElement(Checkout, CHECKOUT_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-checkout');
  defineOnce('channel-checkout', createCheckoutElement);
}
