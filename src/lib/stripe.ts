/**
 * Lazy Stripe.js (`@stripe/stripe-js/pure`): nothing of Stripe loads until the checkout's card step asks for it,
 * so a schedule-only page never fetches it. `loadStripe` uses `window.Stripe` when the page already has one
 * (the demo pages and tests install a local test double there), else it injects Stripe's own script.
 *
 * Only the small part of Stripe.js the checkout uses is typed here, so a test double can match it exactly.
 * Card data stays inside Stripe's field: the checkout only ever sees PaymentMethod ids.
 */
import { loadChunk } from './chunks.js';

/** A Stripe error as Stripe.js answers it (`{ error }`); `message` is Stripe's text for the viewer. */
export interface StripeFailure {
  type?: string | undefined;
  code?: string | undefined;
  message?: string | undefined;
}

/** The card field (a Stripe Element). It must be mounted in light DOM: Stripe cannot mount inside a shadow root. */
export interface StripeCard {
  mount(node: HTMLElement): void;
  unmount?(): void;
  destroy?(): void;
}

/** The part of a Stripe.js instance the checkout uses. */
export interface StripeLike {
  elements(options?: { locale?: string }): { create(type: 'card', options?: Record<string, unknown>): StripeCard };
  createPaymentMethod(data: { type: 'card'; card: StripeCard }): Promise<{
    paymentMethod?: { id: string } | undefined;
    error?: StripeFailure | undefined;
  }>;
  /** `payment_method`: the card field, or the id of a saved card. */
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCard } | string },
  ): Promise<{
    setupIntent?: { payment_method?: string | { id: string } | null } | undefined;
    error?: StripeFailure | undefined;
  }>;
}

let loaded: { key: string; promise: Promise<StripeLike> } | undefined;

/**
 * The Stripe instance for a publishable key, loaded on first use and shared afterwards. A failed load is
 * forgotten, so the next call tries again.
 */
export function loadStripeFor(publishableKey: string): Promise<StripeLike> {
  if (loaded?.key === publishableKey) return loaded.promise;
  const promise = loadChunk('Stripe', () => import('@stripe/stripe-js/pure'))
    .then(({ loadStripe }) => loadChunk('Stripe.js', () => loadStripe(publishableKey)))
    .then((stripe) => {
      if (!stripe) throw new Error('Stripe.js is not available outside a browser.');
      return stripe as unknown as StripeLike;
    });
  const entry = { key: publishableKey, promise };
  loaded = entry;
  promise.catch(() => {
    if (loaded === entry) loaded = undefined;
  });
  return promise;
}

/** The PaymentMethod id of a confirmed setup intent (Stripe answers an id, or the expanded object). */
export function setupPaymentMethod(
  setupIntent: { payment_method?: string | { id: string } | null } | undefined,
): string | undefined {
  const method = setupIntent?.payment_method;
  if (!method) return undefined;
  return typeof method === 'string' ? method : method.id;
}
