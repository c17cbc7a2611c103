/**
 * Prices: the checks before anything is asked (a refusal sends nothing), `GET pricing`, the total the viewer pays
 * and the trial this viewer gets.
 */
import { accountApi, type Pricing, type ProductType } from '../../api/account-schemas.js';
import type { User } from '../../api/channel-schemas.js';
import { getClient } from '../session.js';
import { CheckoutError } from './errors.js';
import { offeredTrialDays } from './offers.js';

/** What a price is asked for. */
export interface PricingRequest {
  type: ProductType;
  id?: number | undefined;
  /** Events: the single-event package that sells it. */
  singleEventPackageId?: number | undefined;
  /** Events: whether it is paid (a paid event needs its single-event package). Default true. */
  paid?: boolean | undefined;
  /** Packages: a team pass needs a team. */
  teamPass?: boolean | undefined;
  participantId?: number | undefined;
  coupon?: string | undefined;
}

/** The query of `GET pricing`, or a refusal (then nothing may be sent). */
export function pricingQuery(request: PricingRequest): Record<string, string | number | undefined> {
  if (!request.id) throw new CheckoutError('id-missing');
  if (request.type === 'event' && request.paid !== false && !request.singleEventPackageId) {
    throw new CheckoutError('package-missing');
  }
  if (request.type === 'package' && request.teamPass && !request.participantId) throw new CheckoutError('team-missing');
  return {
    type: request.type,
    id: request.id,
    single_event_package_id: request.type === 'event' ? request.singleEventPackageId : undefined,
    participant_id: request.type === 'package' && request.teamPass ? request.participantId : undefined,
    coupon: request.coupon || undefined,
  };
}

/** `GET pricing` after the local checks (a refusal rejects before anything is sent). */
export async function fetchPricing(request: PricingRequest, signal?: AbortSignal): Promise<Pricing> {
  const query = pricingQuery(request);
  const answer = await getClient().call(accountApi.pricing, { query, signal, cache: false });
  return answer.data;
}

/** Rounds to cents (prices are decimal amounts; float sums like 0.1 + 0.2 must not show). */
export function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

/** What the viewer pays: price - discount + service fee (shown as 'Taxes'), never below zero. */
export function totalOf(pricing: Pick<Pricing, 'price' | 'discount' | 'service_fee'>): number {
  return Math.max(0, cents(pricing.price - pricing.discount + pricing.service_fee));
}

/** The trial length this viewer gets for this price: the subscription's, unless the user already used one. */
export function trialDays(pricing: Pricing | undefined, user: User | undefined): number {
  if (!pricing || pricing.type !== 'subscription' || user?.trial_period_used) return 0;
  return offeredTrialDays(pricing.trial_period);
}
