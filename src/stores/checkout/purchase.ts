/**
 * The purchase request itself: a trial (`stripe/subscription/start_trial`, the card saved through the
 * subscription's setup intent, nothing charged now) or a purchase (`stripe/buy`), each with the Payment Element's
 * ConfirmationToken (or a saved card's id) and its attempt's idempotency key. The answer is the order and, when the
 * card asks for 3-D Secure, the intent's client secret for `handleNextAction`.
 */
import { accountApi, type Purchase } from '../../api/account-schemas.js';
import type { StripeElements } from '../../lib/stripe.js';
import { attributedPartner } from '../analytics/datalake.js';
import { getClient } from '../session.js';
import type { Product } from './product.js';
import { confirmationToken } from './stripe.js';

/** How the viewer pays: a saved card, or the Payment Element (and whether to save the card). */
export type PaymentChoice =
  { kind: 'saved'; id: string } | { kind: 'new'; elements: StripeElements | undefined; save: boolean };

/** What one purchase sends. */
export interface OrderRequest {
  product: Product;
  /** Team passes: the chosen team. */
  team?: number | undefined;
  /** An applied coupon. */
  coupon?: string | undefined;
  /** A card to pay with (the Payment Element's `elements` is set). */
  choice: PaymentChoice;
  trial: boolean;
  /** The attempt's idempotency key. */
  key: string;
}

/** The card as our API takes it: a ConfirmationToken of the Payment Element, or a saved card's id. */
async function cardOf(choice: PaymentChoice, save: boolean | undefined) {
  if (choice.kind === 'saved') return { payment_method: choice.id };
  return { confirmation_token: await confirmationToken(choice.elements!, save) };
}

/** Sends the purchase (or starts the trial): the order, and the action 3-D Secure needs, if any. */
export async function placeOrder(request: OrderRequest): Promise<Purchase> {
  const { product, choice, key } = request;
  const api = getClient();
  if (request.trial) {
    const answer = await api.call(accountApi.startTrial, {
      body: {
        subscription_id: product.id,
        ...(await cardOf(choice, undefined)),
        idempotency_key: key,
        partner: attributedPartner(),
      },
      cache: false,
    });
    return answer.data;
  }
  // A payment may save its card (the token says so as the intent will); a subscription saves it anyway.
  const save = choice.kind === 'new' && product.type !== 'subscription' ? choice.save : undefined;
  const answer = await api.call(accountApi.buy, {
    body: {
      type: product.type,
      id: product.id,
      single_event_package_id: product.type === 'event' ? product.packageId : undefined,
      participant_id: product.teamPass ? request.team : undefined,
      coupon: request.coupon,
      ...(await cardOf(choice, save)),
      save_card: choice.kind === 'new' ? choice.save : undefined,
      idempotency_key: key,
      // The partner whose page (or link) this sale came through: the channel attributes it (docs/partners.md).
      partner: attributedPartner(),
    },
    cache: false,
  });
  return answer.data;
}
