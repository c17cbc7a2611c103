/**
 * The offers of a channel: one builder with one order (weight, then price), one reading of a subscription's period
 * and one trial rule. The player's paywall (`offersFor`: what unlocks one event) and the checkout's list
 * (`offerCards` in offer-cards.ts: every package and subscription, with purchased flags) are two views of it.
 */
import type { Package, Subscription } from '../../api/account-schemas.js';
import type { Playable } from './access.js';

/** One way to unlock an event, as the paywall lists it (and the checkout's list, without a single-event pass). */
export type Offer = (
  | { type: 'event'; id: number; packageId: number; name: string; price: number }
  | {
      type: 'package';
      id: number;
      name: string;
      price: number;
      teamPass: boolean;
      /** The teams this pass is sold for (on a paywall: those of the event). */
      participantIds: number[];
    }
  | { type: 'subscription'; id: number; name: string; price: number; period: 'monthly' | 'annual'; trialDays: number }
) & {
  /** The regular price, shown struck through when it is higher than the price. */
  basePrice?: number | undefined;
};

/** The order of offers of one kind: by weight, then the cheaper first. */
export function byWeight<T extends { weight: number; price: number }>(a: T, b: T): number {
  return a.weight - b.weight || a.price - b.price;
}

/** Monthly or annual, from a subscription's offer and period (billing periods annual, month, monthly). */
export function subscriptionPeriod(offer: {
  offer?: string | null | undefined;
  period?: string | null | undefined;
}): 'monthly' | 'annual' {
  return /annual|year/i.test(`${offer.offer ?? ''} ${offer.period ?? ''}`) ? 'annual' : 'monthly';
}

/** The trial a subscription offers, in days (0: none; a missing or negative length is none). */
export function offeredTrialDays(trialPeriod: number | null | undefined): number {
  return trialPeriod && trialPeriod > 0 ? trialPeriod : 0;
}

/** Whether a category or team package covers the item (a team pass: one of its teams plays in it). */
function covers(p: Package, item: Playable): boolean {
  const inCategory =
    item.categoryId !== null && item.categoryId !== undefined && p.event_categories.includes(item.categoryId);
  if (!p.is_team_pass) return inCategory;
  const teams = p.participants.filter((id) => item.participantIds.includes(id));
  return teams.length > 0 || (inCategory && p.participants.length === 0);
}

/**
 * The one offer builder. With an item (a paywall): its single-event pass, the category or team packages that
 * cover it, and the subscriptions (which cover every paid event). Without one (the checkout's list): every
 * package except single-event passes (those are sold with their event), then the subscriptions. Each kind sorted
 * by weight, then price.
 */
export function buildOffers(
  packages: readonly Package[],
  subscriptions: readonly Subscription[],
  item?: Playable,
): Offer[] {
  const out: Offer[] = [];
  if (item?.kind === 'event') {
    const single = packages.find((p) => p.id === item.singlePackageId) ?? undefined;
    if (item.singlePackageId && (single || item.price)) {
      out.push({
        type: 'event',
        id: item.id,
        packageId: item.singlePackageId,
        name: single?.name ?? item.title,
        price: item.price ?? single?.price ?? 0,
        basePrice: single?.base_price ?? undefined,
      });
    }
  }
  const listed = packages
    .filter((p) => p.type !== 'single' && (!item || (p.id !== item.singlePackageId && covers(p, item))))
    .sort(byWeight);
  for (const p of listed) {
    const teams = !p.is_team_pass
      ? []
      : !item
        ? p.participants
        : p.participants.length
          ? p.participants.filter((id) => item.participantIds.includes(id))
          : item.participantIds;
    out.push({
      type: 'package',
      id: p.id,
      name: p.name,
      price: p.price,
      basePrice: p.base_price ?? undefined,
      teamPass: p.is_team_pass,
      participantIds: teams,
    });
  }
  for (const s of [...subscriptions].sort(byWeight)) {
    out.push({
      type: 'subscription',
      id: s.id,
      name: s.name,
      price: s.price,
      basePrice: s.base_price ?? undefined,
      period: subscriptionPeriod(s),
      trialDays: offeredTrialDays(s.trial_period),
    });
  }
  return out;
}

/** The offers that unlock `item` on its paywall. */
export function offersFor(
  item: Playable,
  packages: readonly Package[],
  subscriptions: readonly Subscription[],
): Offer[] {
  return buildOffers(packages, subscriptions, item);
}
