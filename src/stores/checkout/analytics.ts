/**
 * Tag-manager e-commerce events of the checkout, sent when the channel has a google-analytics id (once analytics
 * may: see analytics/gate.ts) and never blocking anything. Ids and amounts only.
 */
import type { Pricing } from '../../api/account-schemas.js';
import { gtagEvent } from '../tag-manager.js';
import { cents } from '../commerce/pricing.js';
import { $settings } from '../session.js';

/** The e-commerce events the checkout sends to the tag manager. */
export type TagEvent =
  'view_buy_page' | 'add_to_cart' | 'begin_checkout' | 'purchase' | 'purchase_success' | 'purchase_failed';

/**
 * The parameters of an e-commerce event: currency, price, fee and tax (the service fee, shown as 'Taxes'),
 * coupon, discount and value = price - discount + tax. Ids and amounts only: no token, card or personal data.
 */
export function ecommerceParams(pricing: Pricing, transactionId?: number): Record<string, unknown> {
  const tax = pricing.service_fee;
  const params: Record<string, unknown> = {
    currency: pricing.currency || 'USD',
    price: pricing.price,
    fee: pricing.service_fee,
    tax,
    coupon: pricing.coupon || undefined,
    discount: pricing.discount,
    value: cents(pricing.price - pricing.discount + tax),
    items: [
      {
        item_id: `${pricing.type}-${pricing.id}`,
        item_name: pricing.name,
        item_category: pricing.type,
        price: pricing.price,
      },
    ],
  };
  if (transactionId !== undefined) params.transaction_id = String(transactionId);
  return params;
}

/** Sends a checkout event to the tag manager when the channel has one; never throws, never waits. */
export function track(name: TagEvent, pricing: Pricing | undefined, transactionId?: number): void {
  if (!$settings.get()?.['google-analytics'] || !pricing) return;
  gtagEvent(name, ecommerceParams(pricing, transactionId));
}
