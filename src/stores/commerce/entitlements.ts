/**
 * Entitlements: which orders count as held (`isPaidActive`), what they cover (`isPurchased`), and
 * `$entitlementsVersion`, bumped when what the viewer may watch changed: a purchase here, or a sign-in, sign-out or
 * purchase the host page reports by firing the public event itself. Players and lists follow the version; nobody
 * listens for our own public events (a host page may stop them on their way up).
 */
import { atom, onMount } from 'nanostores';
import type { Order, Package } from '../../api/contract.js';
import { env } from '../../lib/env.js';
import { isOwn } from '../../events/index.js';

/** Public events a host page may fire to say access changed (ours are ignored: the stores already know). */
export const HOST_ACCESS_EVENTS = ['channel-purchase-complete', 'channel-login', 'channel-logout'] as const;

/** Bumped whenever entitlements may have changed; follow it with `.listen()`. */
export const $entitlementsVersion = atom(0);

/** Says entitlements may have changed (an order paid, a trial started, the host reported a change). */
export function entitlementsChanged(): void {
  $entitlementsVersion.set($entitlementsVersion.get() + 1);
}

// One listener for the page while anything follows the version, not one per element.
onMount($entitlementsVersion, () => {
  const target = env().eventTarget;
  const onHostEvent = (event: Event) => {
    if (!isOwn(event)) entitlementsChanged();
  };
  for (const name of HOST_ACCESS_EVENTS) target?.addEventListener(name, onHostEvent);
  return () => {
    for (const name of HOST_ACCESS_EVENTS) target?.removeEventListener(name, onHostEvent);
  };
});

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
