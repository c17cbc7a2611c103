/**
 * Lazy Stripe.js (`@stripe/stripe-js/pure`): nothing of Stripe loads until the checkout's card step asks for it,
 * so a schedule-only page never fetches it. `loadStripe` uses `window.Stripe` when the page already has one
 * (the demo pages and tests install a local test double there), else it injects Stripe's own script.
 *
 * Only the small part of Stripe.js the checkout uses is typed here, so a test double can match it exactly: the
 * Payment Element with a deferred intent (`elements({ mode, amount, currency })`), `elements.submit()`,
 * `createConfirmationToken` and `handleNextAction` (3-D Secure). Card data stays inside Stripe's field: the checkout
 * only ever sees a ConfirmationToken id (or a saved card's PaymentMethod id) and, for 3-D Secure, the intent's
 * client secret the server answered.
 */
import { loadChunk } from './chunks.js';

/** A Stripe error as Stripe.js answers it (`{ error }`); `message` is Stripe's text for the viewer. */
export interface StripeFailure {
  type?: string | undefined;
  code?: string | undefined;
  decline_code?: string | undefined;
  message?: string | undefined;
}

/** The Payment Element's deferred intent: what the server will create, so the field offers what fits. */
export interface StripeElementsOptions {
  /** `payment`: a PaymentIntent (events, packages); `subscription`: its first invoice; `setup`: a trial's card. */
  mode: 'payment' | 'subscription' | 'setup';
  /** Minor units (see stripeAmount); not for `setup`. */
  amount?: number | undefined;
  /** Lower-case ISO code, as Stripe.js takes it. */
  currency: string;
  locale?: string | undefined;
  /** `off_session`: the card is saved for later (the viewer asked to, on a payment). */
  setupFutureUsage?: 'off_session' | null | undefined;
}

/** The Payment Element. It must be mounted in light DOM: Stripe cannot mount inside a shadow root. */
export interface StripePaymentElement {
  mount(node: HTMLElement): void;
  unmount?(): void;
  destroy?(): void;
}

/** A Stripe Elements group: the Payment Element, its options and its validation. */
export interface StripeElements {
  create(type: 'payment', options?: Record<string, unknown>): StripePaymentElement;
  update(options: Partial<StripeElementsOptions>): void;
  /** Validates the field (showing its errors); must come before createConfirmationToken. */
  submit(): Promise<{ error?: StripeFailure | undefined }>;
}

/** An intent as `handleNextAction` answers it. */
export interface StripeIntent {
  id: string;
  status: string;
}

/** The part of a Stripe.js instance the checkout uses. */
export interface StripeLike {
  elements(options: StripeElementsOptions): StripeElements;
  createConfirmationToken(data: { elements: StripeElements }): Promise<{
    confirmationToken?: { id: string } | undefined;
    error?: StripeFailure | undefined;
  }>;
  /** 3-D Secure (or any action the intent asks for), with the client secret of the intent the server made. */
  handleNextAction(data: { clientSecret: string }): Promise<{
    paymentIntent?: StripeIntent | undefined;
    setupIntent?: StripeIntent | undefined;
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

/** Stripe's zero-decimal (×1) and three-decimal (×1000, last digit 0) currencies; the rest have two decimals. */
const ZERO_DECIMAL = 'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' ');
const THREE_DECIMAL = 'BHD JOD KWD OMR TND'.split(' ');

/**
 * A price (major units, as the channel prices it) as Stripe takes amounts: whole minor units by Stripe's rules
 * (https://docs.stripe.com/currencies): 9.99 USD is 999, 500 JPY is 500, 5.124 KWD is 5120, ISK whole units ×100.
 */
export function stripeAmount(amount: number, currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.includes(code)) return Math.round(amount);
  if (THREE_DECIMAL.includes(code)) return Math.round(amount * 100) * 10;
  if (code === 'ISK') return Math.round(amount) * 100;
  return Math.round(amount * 100);
}
