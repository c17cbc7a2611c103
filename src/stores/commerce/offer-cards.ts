/** The checkout's list of offers (the /packages screen): the offer builder's view with purchased flags. */
import type { Order, Package, Subscription } from '../../api/account-schemas.js';
import { buildOffers } from './offers.js';
import { isPurchased, packageItem } from './purchases.js';

/** One offer of the checkout's list (the /packages screen). */
export interface OfferCard {
  type: 'package' | 'subscription';
  id: number;
  name: string;
  price: number;
  basePrice?: number | undefined;
  description?: string | undefined;
  kind: 'package' | 'team' | 'monthly' | 'annual';
  trialDays: number;
  purchased: boolean;
}

/** The checkout's list: packages then subscriptions, each by weight then price, with their purchased flags. */
export function offerCards(
  packages: readonly Package[],
  subscriptions: readonly Subscription[],
  orders: readonly Order[],
): OfferCard[] {
  const cards: OfferCard[] = [];
  for (const offer of buildOffers(packages, subscriptions)) {
    if (offer.type === 'event') continue;
    const source: Package | Subscription | undefined =
      offer.type === 'package' ? packages.find((p) => p.id === offer.id) : subscriptions.find((s) => s.id === offer.id);
    if (!source) continue;
    const common = {
      id: offer.id,
      name: offer.name,
      price: offer.price,
      basePrice: offer.basePrice,
      description: source.description ?? undefined,
    };
    cards.push(
      offer.type === 'package'
        ? {
            type: 'package',
            ...common,
            kind: offer.teamPass ? 'team' : 'package',
            trialDays: 0,
            purchased: isPurchased(packageItem(source as Package), orders),
          }
        : {
            type: 'subscription',
            ...common,
            kind: offer.period,
            trialDays: offer.trialDays,
            purchased: isPurchased({ type: 'subscription', id: offer.id }, orders),
          },
    );
  }
  return cards;
}
