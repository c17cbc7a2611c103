/**
 * A fake `window.Stripe` in the shape of Stripe.js (the part the checkout uses), like the reference server's test
 * double (demo/site/stripe-test-double.js): `elements(options).create('payment').mount(node)` renders a plain input
 * labelled "Card number" inside the node; `elements.submit()` checks it is filled in; `createConfirmationToken`
 * reads it; `handleNextAction` answers as the test set (`stripeLog.nextAction`): the challenge completed, or
 * failed (a closed challenge answers the same). Stripe's documented test numbers make a ConfirmationToken
 * (`ctoken_<last 4>`; the server decides their outcome), an empty field is incomplete, any other number is
 * incorrect. With `stripeLog.offline`, Stripe cannot be reached: createConfirmationToken answers Stripe.js's
 * `api_connection_error`, as it does when the viewer's connection drops.
 */
import type {
  StripeElements,
  StripeElementsOptions,
  StripeFailure,
  StripeLike,
  StripePaymentElement,
} from '../../src/lib/stripe.js';

/** What the fake saw, for assertions. */
export interface FakeStripeLog {
  /** Publishable keys Stripe was created with. */
  keys: string[];
  /** Elements groups created (their options, as last updated) and the nodes their Payment Elements mounted on. */
  fields: { options: StripeElementsOptions; node: HTMLElement | undefined }[];
  submit: number;
  /** The ConfirmationTokens made, with whether each saves its card for later. */
  tokens: { id: string; setupFutureUsage: string | null }[];
  /** Client secrets handleNextAction was given. */
  nextActions: string[];
  /** How the next challenges end (default: completed). */
  nextAction: 'complete' | 'fail';
  /** Stripe's API cannot be reached (the viewer's connection dropped). */
  offline: boolean;
}

/** The fake's record (reset by `resetFakeStripe`). */
export const stripeLog: FakeStripeLog = {
  keys: [],
  fields: [],
  submit: 0,
  tokens: [],
  nextActions: [],
  nextAction: 'complete',
  offline: false,
};

const KNOWN = [
  '4242424242424242',
  '4000000000000002',
  '4000000000009995',
  '4000002500003155',
  '4000002760003184',
  '4000000000003220',
];

/** Stripe's message for an authentication that did not succeed (failed, or the challenge closed). */
export const AUTH_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

const digitsIn = (node: HTMLElement | undefined) => (node?.querySelector('input')?.value ?? '').replace(/\D/g, '');

class FakePaymentElement implements StripePaymentElement {
  constructor(readonly entry: FakeStripeLog['fields'][number]) {}
  mount(node: HTMLElement): void {
    this.entry.node = node;
    const label = document.createElement('label');
    label.textContent = 'Card number';
    const input = document.createElement('input');
    input.name = 'cardnumber';
    input.autocomplete = 'cc-number';
    label.append(input);
    node.append(label);
  }
  destroy(): void {
    this.entry.node?.replaceChildren();
    this.entry.node = undefined;
  }
}

class FakeElements implements StripeElements {
  constructor(readonly entry: FakeStripeLog['fields'][number]) {}
  create(): StripePaymentElement {
    return new FakePaymentElement(this.entry);
  }
  update(options: Partial<StripeElementsOptions>): void {
    this.entry.options = { ...this.entry.options, ...options };
  }
  async submit(): Promise<{ error?: StripeFailure }> {
    stripeLog.submit++;
    if (!this.entry.node)
      return { error: { type: 'validation_error', message: 'The Payment Element is not mounted.' } };
    if (!digitsIn(this.entry.node))
      return {
        error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' },
      };
    return {};
  }
}

const fakeInstance: StripeLike = {
  elements(options) {
    const entry = { options, node: undefined };
    stripeLog.fields.push(entry);
    return new FakeElements(entry);
  },
  async createConfirmationToken({ elements }) {
    const entry = (elements as FakeElements).entry;
    if (stripeLog.offline)
      return { error: { type: 'api_connection_error', message: 'An error occurred with our connection to Stripe.' } };
    const digits = digitsIn(entry.node);
    if (!KNOWN.includes(digits))
      return { error: { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' } };
    const token = { id: `ctoken_${digits.slice(-4)}`, setupFutureUsage: entry.options.setupFutureUsage ?? null };
    stripeLog.tokens.push(token);
    return { confirmationToken: { id: token.id } };
  },
  async handleNextAction({ clientSecret }) {
    stripeLog.nextActions.push(clientSecret);
    const id = clientSecret.replace(/_secret_.*$/, '');
    const setup = id.startsWith('seti_');
    if (stripeLog.nextAction === 'complete')
      return setup ? { setupIntent: { id, status: 'succeeded' } } : { paymentIntent: { id, status: 'succeeded' } };
    return {
      error: {
        type: 'invalid_request_error',
        code: setup ? 'setup_intent_authentication_failure' : 'payment_intent_authentication_failure',
        message: AUTH_FAILED,
      },
    };
  },
};

/**
 * Installs the fake as `window.Stripe` (once per page: `loadStripe` keeps the first `window.Stripe` it finds)
 * and clears its record.
 */
export function resetFakeStripe(): void {
  const w = window as unknown as { Stripe?: (key: string) => StripeLike };
  w.Stripe ??= (key: string) => {
    stripeLog.keys.push(key);
    return fakeInstance;
  };
  stripeLog.keys.length = 0;
  stripeLog.fields.length = 0;
  stripeLog.submit = 0;
  stripeLog.tokens.length = 0;
  stripeLog.nextActions.length = 0;
  stripeLog.nextAction = 'complete';
  stripeLog.offline = false;
}

/** Types a number into the Payment Element mounted last (as a viewer would in Stripe's field). */
export function typeCard(number: string): void {
  const input = stripeLog.fields.at(-1)?.node?.querySelector('input');
  if (!input) throw new Error('no card field is mounted');
  input.value = number;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
