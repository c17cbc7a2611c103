/**
 * The purchase request itself: a trial (`stripe/start-trial` with a confirmed setup intent, nothing charged now)
 * or a purchase (`stripe/buy` with a PaymentMethod), each carrying its attempt's idempotency key.
 */
import { accountApi, type Order } from '../../api/account-schemas.js';
import type { StripeCard } from '../../lib/stripe.js';
import { attributedPartner } from '../analytics/datalake.js';
import { getClient } from '../session.js';
import type { Product } from './product.js';
import { confirmSetup, paymentMethod } from './stripe.js';

/** How the viewer pays: a saved card, or the card field (and whether to save it). */
export type PaymentChoice =
  { kind: 'saved'; id: string } | { kind: 'new'; card: StripeCard | undefined; save: boolean };

/** What one purchase sends. */
export interface OrderRequest {
  product: Product;
  /** Team passes: the chosen team. */
  team?: number | undefined;
  /** An applied coupon. */
  coupon?: string | undefined;
  /** A card to pay with (the card field's `card` is set). */
  choice: PaymentChoice;
  trial: boolean;
  /** The attempt's idempotency key. */
  key: string;
}

/** Sends the purchase (or starts the trial) and answers the order it made. */
export async function placeOrder(request: OrderRequest): Promise<Order> {
  const { product, choice, key } = request;
  const api = getClient();
  if (request.trial) {
    // A trial needs a card confirmed for later charges, a saved one too (a setup intent, no charge now).
    const method = await confirmSetup(choice.kind === 'saved' ? choice.id : { card: choice.card! });
    const answer = await api.call(accountApi.startTrial, {
      body: { subscription_id: product.id, payment_method: method, idempotency_key: key, partner: attributedPartner() },
      cache: false,
    });
    return answer.data.order;
  }
  const method = choice.kind === 'saved' ? choice.id : await paymentMethod(choice.card!);
  const answer = await api.call(accountApi.buy, {
    body: {
      type: product.type,
      id: product.id,
      single_event_package_id: product.type === 'event' ? product.packageId : undefined,
      participant_id: product.teamPass ? request.team : undefined,
      coupon: request.coupon,
      payment_method: method,
      save_card: choice.kind === 'new' ? choice.save : undefined,
      idempotency_key: key,
      // The partner whose page (or link) this sale came through: the channel attributes it (docs/partners.md).
      partner: attributedPartner(),
    },
    cache: false,
  });
  return answer.data.order;
}
