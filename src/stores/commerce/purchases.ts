/**
 * Which orders count as held (`isPaidActive`) and what they cover (`isPurchased`): the checkout's purchased flags
 * and the profile's orders follow these rules.
 */
import type { Order, Package } from '../../api/account-schemas.js';
import { env } from '../../lib/env.js';

/** Something a viewer can hold, as the purchased-flag rules need it. */
export type PurchasableItem =
  | { type: 'event'; id: number }
  | {
      type: 'package';
      id: number;
      /** Categories the package covers. */
      eventCategories?: readonly number[] | undefined;
      teamPass?: boolean | undefined;
      /** Teams a team pass can be bought for. */
      participants?: readonly number[] | undefined;
      /** Team passes: ask about one team only. */
      participantId?: number | undefined;
    }
  | { type: 'subscription'; id: number };

/** A package as a purchasable item (optionally for one team of a team pass). */
export function packageItem(pkg: Package, participantId?: number): PurchasableItem {
  return {
    type: 'package',
    id: pkg.id,
    eventCategories: pkg.event_categories,
    teamPass: pkg.is_team_pass,
    participants: pkg.participants,
    participantId,
  };
}

const ENDED_SUBSCRIPTION = new Set(['expired', 'inactive', 'canceled', 'cancelled']);

/**
 * True for an order that is paid and active now: status paid (or active), activity status active when given,
 * not past its expiry, and for subscriptions not expired, inactive or canceled. Letter case does not matter.
 */
export function isPaidActive(order: Order, now = env().now()): boolean {
  const status = order.status.toLowerCase();
  if (status !== 'paid' && status !== 'active') return false;
  const activity = order.activity_status?.toLowerCase();
  if (activity && activity !== 'active') return false;
  if (order.expires_at && order.expires_at * 1000 <= now) return false;
  if (order.type === 'subscription' && ENDED_SUBSCRIPTION.has(order.subscription_status?.toLowerCase() ?? ''))
    return false;
  return true;
}

/**
 * The purchased flag: an item is purchased when a paid, active order exists for it. A package counts as purchased
 * when every event category it covers is covered by such orders, or, for a team pass, every participant (or the one
 * asked about). An order of the package itself without a category or team covers all.
 */
export function isPurchased(item: PurchasableItem, orders: readonly Order[]): boolean {
  const held = orders.filter((o) => o.type === item.type && isPaidActive(o));
  if (item.type !== 'package') return held.some((o) => o.product.id === item.id);
  const covers = (pick: (o: Order) => number | null | undefined, value: number) =>
    held.some((o) => pick(o) === value || (o.product.id === item.id && pick(o) == null));
  if (item.teamPass) {
    if (item.participantId !== undefined) return covers((o) => o.product.participant_id, item.participantId);
    const teams = item.participants ?? [];
    if (teams.length === 0) return held.some((o) => o.product.id === item.id);
    return teams.every((team) => covers((o) => o.product.participant_id, team));
  }
  const categories = item.eventCategories ?? [];
  if (categories.length === 0) return held.some((o) => o.product.id === item.id);
  return categories.every((category) => covers((o) => o.product.event_category_id, category));
}
