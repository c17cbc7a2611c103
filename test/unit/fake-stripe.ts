/**
 * A fake `window.Stripe` in the shape of Stripe.js (the part the checkout uses), like the reference server's
 * test double: `elements().create('card').mount(node)` renders a plain input labelled "Card number" inside the
 * node; `createPaymentMethod` and `confirmCardSetup` read it. Stripe's documented test numbers decide:
 * 4242 4242 4242 4242, 4000 0000 0000 0002 and 4000 0000 0000 9995 make a PaymentMethod (the server settles
 * them), an empty field is incomplete, any other number is incorrect.
 */
import type { StripeCard, StripeFailure, StripeLike } from '../../src/lib/stripe.js';

/** What the fake saw, for assertions. */
export interface FakeStripeLog {
  /** Publishable keys Stripe was created with. */
  keys: string[];
  /** Card fields created and the nodes they were mounted on. */
  cards: { node: HTMLElement | undefined }[];
  createPaymentMethod: number;
  /** Client secrets confirmed. */
  confirmCardSetup: string[];
}

/** The fake's record (reset by `resetFakeStripe`). */
export const stripeLog: FakeStripeLog = { keys: [], cards: [], createPaymentMethod: 0, confirmCardSetup: [] };

const KNOWN = ['4242424242424242', '4000000000000002', '4000000000009995'];

/** Reads the card field: a PaymentMethod id, or Stripe's error. */
function readCard(card: FakeCard): { id?: string; error?: StripeFailure } {
  const input = card.node?.querySelector('input');
  const digits = (input?.value ?? '').replace(/\D/g, '');
  if (!digits)
    return {
      error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' },
    };
  if (!KNOWN.includes(digits))
    return { error: { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' } };
  return { id: `pm_${digits.slice(-4)}` };
}

class FakeCard implements StripeCard {
  node: HTMLElement | undefined;
  constructor(readonly entry: { node: HTMLElement | undefined }) {}
  mount(node: HTMLElement): void {
    this.node = node;
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
    this.node?.replaceChildren();
    this.node = undefined;
  }
}

const fakeInstance: StripeLike = {
  elements: () => ({
    create: () => {
      const entry = { node: undefined as HTMLElement | undefined };
      stripeLog.cards.push(entry);
      return new FakeCard(entry);
    },
  }),
  async createPaymentMethod({ card }) {
    stripeLog.createPaymentMethod++;
    const read = readCard(card as FakeCard);
    return read.error ? { error: read.error } : { paymentMethod: { id: read.id! } };
  },
  async confirmCardSetup(secret, { payment_method }) {
    stripeLog.confirmCardSetup.push(secret);
    if (typeof payment_method === 'string') return { setupIntent: { payment_method } };
    const read = readCard(payment_method.card as FakeCard);
    return read.error ? { error: read.error } : { setupIntent: { payment_method: read.id! } };
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
  stripeLog.cards.length = 0;
  stripeLog.createPaymentMethod = 0;
  stripeLog.confirmCardSetup.length = 0;
}

/** Types a number into the card field mounted last (as a viewer would in Stripe's field). */
export function typeCard(number: string): void {
  const input = stripeLog.cards.at(-1)?.node?.querySelector('input');
  if (!input) throw new Error('no card field is mounted');
  input.value = number;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
