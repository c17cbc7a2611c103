/** The shapes of a checkout: its screens, its state and its store's actions. */
import type { ReadableAtom } from 'nanostores';
import type { Order, Pricing, ProductType, SavedCard } from '../../api/account-schemas.js';
import type { Async } from '../../lib/async.js';
import type { StripeLike } from '../../lib/stripe.js';
import type { OfferCard } from '../commerce/offer-cards.js';
import type { CheckoutTarget, Product } from './product.js';
import type { PaymentChoice } from './purchase.js';

/** The screens of a checkout. */
export type CheckoutView =
  | 'idle'
  | 'offers'
  | 'loading'
  | 'load-error'
  | 'free'
  | 'sign-in'
  | 'summary'
  | 'payment'
  | 'waiting'
  | 'success'
  | 'pending'
  | 'poll-error';

/** A checkout's state: the screen, and what it shows. */
export interface CheckoutState {
  view: CheckoutView;
  /** The viewer chose from the offers list: Back returns to it. */
  fromList: boolean;
  offers?: Async<OfferCard[]> | undefined;
  product?: Product | undefined;
  loadError?: unknown;
  /** Team passes: the chosen team. */
  team?: number | undefined;
  pricing?: Async<Pricing> | undefined;
  coupon: { status: 'idle' | 'busy' | 'applied' | 'error'; code?: string | undefined; error?: unknown };
  cards?: Async<SavedCard[]> | undefined;
  /** A payment is being sent (Pay is disabled; a second press does nothing). */
  busy: boolean;
  payError?: unknown;
  /** A failed order, shown in a popup until dismissed. */
  failure?: Order | undefined;
  /** The order being waited on, or settled. */
  order?: { id: number; reference?: string | null | undefined } | undefined;
  /** What the order is for (also known after a reload). */
  bought?: { type: ProductType; id: number; name?: string | undefined; trial: boolean } | undefined;
  pollError?: unknown;
}

/** A checkout's store and actions. */
export interface CheckoutStore {
  $state: ReadableAtom<CheckoutState>;
  /** What the element's attributes ask to sell (undefined: the offers list). */
  setTarget(target: CheckoutTarget | undefined): void;
  /** The viewer chose an offer (from the list, or a paywall's `channel-purchase-request`). */
  select(target: CheckoutTarget, fromList: boolean): boolean;
  /** Back: from payment to the summary, from a listed offer's summary to the list. */
  back(): void;
  /** Loads again what failed to load (offers, product, price, saved cards). */
  retry(): void;
  chooseTeam(id: number | undefined): void;
  applyCoupon(code: string): Promise<void>;
  removeCoupon(): void;
  toPayment(): void;
  /** The channel's Stripe.js (for the card field). */
  stripe(): Promise<StripeLike>;
  pay(choice: PaymentChoice | undefined): Promise<void>;
  dismissFailure(): void;
  /** Polls again after a request error, or after the bounded wait ended. */
  retryWait(): void;
  destroy(): void;
}
