/** What a checkout sells: the target its attributes (or a paywall's offer) name, and the product once loaded. */
import { channelApi, type Event } from '../../api/channel-schemas.js';
import { accountApi, type ProductType } from '../../api/account-schemas.js';
import type { PurchaseOffer } from '../../events/viewer.js';
import { participants as participantCatalog } from '../catalog.js';
import { offerCards, type OfferCard } from '../commerce/offer-cards.js';
import { subscriptionPeriod } from '../commerce/offers.js';
import { userOrders } from '../commerce/orders.js';
import { getClient, identified } from '../session.js';

/** What a checkout is asked to sell. */
export type CheckoutTarget =
  | { type: 'event'; id: number; packageId?: number | undefined }
  | {
      type: 'package';
      id: number;
      /** A team pass's team chosen in advance (one of its teams, else none). */ team?: number | undefined;
    }
  | { type: 'subscription'; id: number };

/** The target a paywall's offer asks for (undefined for an offer without a usable id). */
export function targetOf(offer: PurchaseOffer | undefined): CheckoutTarget | undefined {
  if (!offer || !Number.isInteger(offer.id) || offer.id <= 0) return undefined;
  if (offer.type === 'event') return { type: 'event', id: offer.id, packageId: offer.packageId };
  if (offer.type === 'package' || offer.type === 'subscription') return { type: offer.type, id: offer.id };
  return undefined;
}

/** What the checkout sells, once loaded. */
export interface Product {
  type: ProductType;
  id: number;
  name: string;
  /** Events: the event itself (for its title) and the single-event package that sells it. */
  event?: Event | undefined;
  packageId?: number | undefined;
  /** Events: false for free and register events (nothing to buy). */
  paid: boolean;
  teamPass: boolean;
  /** Team passes: the teams to choose from, each with the names of its own teams (children), which it covers too. */
  teams: { id: number; name: string; children: string[] }[];
  period?: 'monthly' | 'annual' | undefined;
}

/** Loads what a target sells: the event (and its pass), the package (and its teams) or the subscription. */
export async function loadProduct(target: CheckoutTarget, signal: AbortSignal): Promise<Product> {
  const api = getClient();
  if (target.type === 'event') {
    const event = (await api.call(channelApi.event, { params: { id: target.id }, signal, cache: false })).data;
    return {
      type: 'event',
      id: event.id,
      name: event.name,
      event,
      packageId: target.packageId ?? event.single_event_package_id ?? undefined,
      paid: event.type !== 'free' && event.type !== 'register',
      teamPass: false,
      teams: [],
    };
  }
  if (target.type === 'package') {
    const pkg = (await api.call(accountApi.package, { params: { id: target.id }, signal })).data;
    let teams: Product['teams'] = [];
    if (pkg.is_team_pass) {
      const all = await participantCatalog.load().catch(() => []);
      const ids = pkg.participants.length ? pkg.participants : all.map((p) => p.id);
      teams = ids.map((id) => {
        const team = all.find((p) => p.id === id);
        return { id, name: team?.name ?? `#${id}`, children: (team?.children ?? []).map((c) => c.name) };
      });
    }
    return { type: 'package', id: pkg.id, name: pkg.name, paid: true, teamPass: pkg.is_team_pass, teams };
  }
  const subscription = (await api.call(accountApi.subscription, { params: { id: target.id }, signal })).data;
  return {
    type: 'subscription',
    id: subscription.id,
    name: subscription.name,
    paid: true,
    teamPass: false,
    teams: [],
    period: subscriptionPeriod(subscription),
  };
}

/** The offers list with this viewer's purchased flags (a guest's flags are all false). */
export async function fetchOfferCards(signal: AbortSignal): Promise<OfferCard[]> {
  const api = getClient();
  const [packages, subscriptions] = await Promise.all([
    api.call(accountApi.packages, { query: { no_limit: 1 }, signal }),
    api.call(accountApi.subscriptions, { query: { no_limit: 1 }, signal }),
    identified(),
  ]);
  return offerCards(packages.data, subscriptions.data, await userOrders(signal));
}
