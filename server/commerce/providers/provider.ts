/**
 * The card processor behind checkout, as commerce sees it: one interface, chosen at start from configuration
 * (app/server.ts) and never by a caller. Its first implementation is the test processor (test.ts: the test cards of
 * the dev-mode Stripe stand-in, dev/stripe.ts); Stripe itself is the next. Without one (production today) every call
 * that charges, saves or lists cards answers 503 with PAYMENTS_OFF, and whatever falls due to be charged (an order
 * of a database that ran with one, a renewal) fails with it (settlement.ts).
 *
 * Card data never reaches it: only payment method ids, which the browser got from the processor's own script.
 */
import type { SavedCard } from '../../../src/api/contract.js';
import type { Row } from '../../storage/db.js';

/** The answer of card calls, and the error of a charge, when no card processor is set up. */
export const PAYMENTS_OFF = 'Card payments are not set up on this server.';

/** What charging an order's payment method did. */
export type ChargeResult = { paid: true } | { paid: false; message: string };

/** Why a payment method cannot pay an order (the checkout's message keys, payments.ts PAYMENT_MESSAGES). */
export type CardRefusal = 'badPaymentMethod' | 'spentPaymentMethod';

export interface PaymentProvider {
  /** Its name in configuration and logs (`test`, `stripe`). */
  readonly name: string;
  /**
   * Makes a payment method the buyer's for one purchase, inside the purchase's transaction: a saved card of theirs
   * stays saved; a card attached to nobody becomes theirs and spent (a second purchase with it is refused, whoever
   * sends it). Answers whether it was a saved card, or why it cannot pay.
   */
  claim(channelId: number, userId: number, paymentMethod: string): Promise<{ saved: boolean } | CardRefusal>;
  /** Charges what an order owes now (its purchase, or a renewal period) to its payment method. */
  charge(order: Row): Promise<ChargeResult>;
  /** Keeps a paid order's card among the buyer's saved cards (once per card and expiry). */
  saveCard(userId: number, paymentMethod: string): Promise<void>;
  /** The buyer's saved cards, newest first. */
  savedCards(userId: number): Promise<SavedCard[]>;
  /** A setup intent for a card to be confirmed in the browser (a trial's card); answers its client secret. */
  createSetupIntent(channelId: number, userId: number, now: number): Promise<string>;
  /** Whether the buyer confirmed this payment method through a setup intent of this channel. */
  setupConfirmed(channelId: number, userId: number, paymentMethod: string): Promise<boolean>;
  /** A customer portal session for the buyer: the URL to send them to, leading back to `returnUrl`. */
  portalUrl(session: {
    channelId: number;
    userId: number;
    returnUrl: string;
    origin: string;
    now: number;
  }): Promise<string>;
}
