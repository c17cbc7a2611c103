/**
 * What a checkout sells and at what price: the product a request names (`type`, `id`, an event's single-event
 * package, a team pass's team) with its refusals in the API's words, the channel's coupons, what the caller holds
 * already, and `GET pricing`'s breakdown.
 *
 * Money. A product's listed price includes its service fee (shown as 'Taxes'): the Hockey Season Pass lists 29.99,
 * base 27.99 plus 2.00. `GET pricing` breaks it down as price = the price before fees (base_price, else the listed
 * price minus the fee), discount = the coupon's share of that price, total = price - discount + service_fee,
 * rounded to cents: the listed price when there is no coupon. An event sells at its own price (else its
 * single-event pass's), with that pass's fee.
 */
import { PARTNER_MAX, PRODUCT_TYPES, type ProductType } from '../../src/api/contract.js';
import type { AccessFacts } from '../accounts/accounts.js';
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { idOf, refuse, type ApiRequest } from '../http/handler.js';
import { HttpError } from '../http/http.js';

const FREE_EVENT_TYPES = new Set(['free', 'register']);

/** Messages of the checkout (the first four, the pricing refusals and the coupon's, are the API's standard texts). */
export const PAYMENT_MESSAGES = {
  noId: 'id not selected',
  noSingleEventPackage: 'A paid event needs a single-event package id',
  noTeam: 'Package is TeamPass but team not selected',
  wrongCoupon: 'Wrong promo code',
  freeEvent: 'This event is free: there is nothing to buy.',
  otherPackage: 'The single-event package does not sell this event.',
  singleAsPackage: 'A single-event package is bought with its event (type event).',
  otherTeam: 'The selected team is not part of this pass.',
  purchased: 'You have already purchased this.',
  badPaymentMethod: 'The payment method is invalid.',
  otherPurchase: 'This idempotency key was used for another purchase.',
  noTrial: 'This subscription has no trial.',
  trialUsed: 'The trial has already been used.',
  trialNeedsCard: 'A trial needs a card.',
  noPaymentMethod: 'Enter a card, or choose one of your saved cards.',
  notActive: 'This subscription is not active.',
  badPartner: `The partner must be a slug: lowercase letters and digits, words joined by hyphens, at most ${PARTNER_MAX} characters.`,
} as const;

/** What a checkout sells, resolved from `type` and `id` (and the event's pass, the team of a team pass). */
export interface Product {
  type: ProductType;
  id: number;
  name: string;
  /** Before fees (see the header), the base price as stored, and the fee. */
  price: number;
  basePrice: number | null;
  fee: number;
  /** Subscriptions: monthly or annual, and the stored trial days. */
  offer: string | null;
  trialDays: number | null;
  /** Team passes: the team chosen, and every team of the pass. */
  participantId: number | null;
  teams: number[];
  teamPass: boolean;
  /** Events: what access depends on. */
  facts?: AccessFacts;
  /** Packages and subscriptions: the processor's price synced for them (`processor_price`), if any. */
  processorPrice?: string | null;
}

export const cents = (n: number) => Math.round(n * 100) / 100;
export const blank = (value: unknown) => value === undefined || value === null || value === '';
const isProductType = (value: unknown): value is ProductType =>
  typeof value === 'string' && (PRODUCT_TYPES as readonly string[]).includes(value);

/** A listed price split into the price before fees and the fee. */
export function splitPrice(
  listed: number,
  base: SqlValue | undefined,
  fee: SqlValue | undefined,
): Pick<Product, 'price' | 'basePrice' | 'fee'> {
  const serviceFee = fee === null || fee === undefined ? 0 : Number(fee);
  const basePrice = base === null || base === undefined ? null : Number(base);
  return { price: basePrice ?? cents(listed - serviceFee), basePrice, fee: serviceFee };
}

/** The products of one database, on the server clock's seconds. */
export function createProducts(db: ChannelDb, nowSeconds: () => number) {
  /**
   * The product a request names. `strict` applies the checks that a purchase needs (the event's single-event
   * package id, the team of a team pass); a coupon only needs the product and its price.
   */
  async function productOf(r: ApiRequest, field: (name: string) => unknown, strict: boolean): Promise<Product> {
    const type = field('type');
    if (!isProductType(type)) throw refuse('type', `The type must be one of ${PRODUCT_TYPES.join(', ')}.`);
    if (blank(field('id'))) throw refuse('id', PAYMENT_MESSAGES.noId);
    const id = idOf(field('id')) ?? 0;
    const none = { offer: null, trialDays: null, participantId: null, teams: [], teamPass: false };
    if (type === 'event') {
      const row = await db.get(
        'SELECT id, name, type, price, category_id, single_event_package_id FROM events WHERE channel_id = ? AND id = ? AND cancelled_at IS NULL',
        [r.channelId, id],
      );
      if (!row) throw new HttpError(404, 'Event not found.');
      const pass =
        row.single_event_package_id === null
          ? undefined
          : await db.get('SELECT * FROM packages WHERE id = ?', [row.single_event_package_id!]);
      const listed = row.price ?? pass?.price;
      if (FREE_EVENT_TYPES.has(String(row.type)) || listed === null || listed === undefined)
        throw refuse('id', PAYMENT_MESSAGES.freeEvent);
      if (strict) {
        const given = field('single_event_package_id');
        if (blank(given)) throw refuse('single_event_package_id', PAYMENT_MESSAGES.noSingleEventPackage);
        if (idOf(given) !== Number(row.single_event_package_id))
          throw refuse('single_event_package_id', PAYMENT_MESSAGES.otherPackage);
      }
      const samePrice = pass !== undefined && Number(pass.price) === Number(listed);
      const participants = (
        await db.all('SELECT participant_id FROM event_participants WHERE event_id = ? ORDER BY position', [id])
      ).map((p) => Number(p.participant_id));
      return {
        ...none,
        type,
        id,
        name: String(row.name),
        ...splitPrice(Number(listed), samePrice ? pass.base_price : null, pass?.service_fee),
        facts: {
          id,
          type: String(row.type),
          categoryId: row.category_id === null ? null : Number(row.category_id),
          participants,
        },
      };
    }
    if (type === 'package') {
      const row = await db.get('SELECT * FROM packages WHERE channel_id = ? AND id = ?', [r.channelId, id]);
      if (!row) throw new HttpError(404, 'Package not found.');
      if (row.type === 'single') throw refuse('id', PAYMENT_MESSAGES.singleAsPackage);
      const teams = (
        await db.all('SELECT participant_id FROM package_participants WHERE package_id = ? ORDER BY participant_id', [
          id,
        ])
      ).map((p) => Number(p.participant_id));
      const teamPass = Boolean(row.is_team_pass);
      let participantId: number | null = null;
      if (teamPass) {
        const given = field('participant_id');
        if (blank(given)) {
          if (strict) throw refuse('participant_id', PAYMENT_MESSAGES.noTeam);
        } else {
          participantId = idOf(given) ?? 0;
          if (!teams.includes(participantId)) throw refuse('participant_id', PAYMENT_MESSAGES.otherTeam);
        }
      }
      return {
        ...none,
        type,
        id,
        name: String(row.name),
        ...splitPrice(Number(row.price), row.base_price, row.service_fee),
        participantId,
        teams,
        teamPass,
        offer: row.offer === null ? null : String(row.offer),
      };
    }
    const row = await db.get('SELECT * FROM subscriptions WHERE channel_id = ? AND id = ?', [r.channelId, id]);
    if (!row) throw new HttpError(404, 'Subscription not found.');
    return {
      ...none,
      type,
      id,
      name: String(row.name),
      ...splitPrice(Number(row.price), row.base_price, row.service_fee),
      offer: String(row.offer),
      trialDays: row.trial_period === null ? null : Number(row.trial_period),
      processorPrice: row.processor_price == null ? null : String(row.processor_price),
    };
  }

  /** A channel's coupon by code (any case), if any. */
  const couponOf = (channelId: number, code: string): Promise<Row | undefined> =>
    db.get('SELECT * FROM coupons WHERE channel_id = ? AND upper(code) = upper(?)', [channelId, code.trim()]);

  /** What a coupon takes off a price before fees: a percentage of it, or a fixed amount (never more than the price). */
  const discountOf = (coupon: Row, price: number) =>
    coupon.percent !== null
      ? cents((price * Number(coupon.percent)) / 100)
      : Math.min(cents(Number(coupon.amount)), price);

  /** The coupon a request names (`coupon`), if any; a 422 'Wrong promo code' for an unknown one. */
  async function requestedCoupon(r: ApiRequest, value: unknown): Promise<Row | undefined> {
    if (blank(value)) return undefined;
    const coupon = typeof value === 'string' ? await couponOf(r.channelId, value) : undefined;
    if (!coupon) throw refuse('coupon', PAYMENT_MESSAGES.wrongCoupon);
    return coupon;
  }

  /** The user's paid, active, unexpired orders of one product: their teams (null for anything but a team pass). */
  const heldOrders = async (userId: SqlValue, type: ProductType, productId: number) =>
    (
      await db.all(
        `SELECT participant_id FROM orders WHERE user_id = ? AND type = ? AND product_id = ? AND status = 'paid' AND activity_status = 'active'
         AND (expires_at IS NULL OR expires_at > ?)`,
        [userId, type, productId, nowSeconds()],
      )
    ).map((row) => (row.participant_id === null ? null : Number(row.participant_id)));

  /**
   * Whether the caller holds the product already: an event they can watch through a purchase (its pass, a package,
   * a subscription); a package with a paid, active order (a team pass: for the chosen team, or for every team when
   * none is chosen); a subscription with a paid, active order.
   */
  async function purchased(r: ApiRequest, product: Product): Promise<boolean> {
    const access = await r.access();
    const user = access.user;
    if (!user) return false;
    // Held whether or not the account may watch now (the `watch` right): a held pass is never sold twice.
    if (product.facts) return access.entitled(product.facts);
    const held = await heldOrders(user.id!, product.type, product.id);
    if (!product.teamPass) return held.length > 0;
    if (product.participantId !== null) return held.includes(product.participantId);
    return product.teams.length > 0 && product.teams.every((team) => held.includes(team));
  }

  /** The contract's Pricing of a product for the caller. */
  async function pricingJson(
    r: ApiRequest,
    product: Product,
    coupon: Row | undefined,
  ): Promise<Record<string, unknown>> {
    const discount = coupon ? discountOf(coupon, product.price) : 0;
    const trialUsed = Boolean((await r.access()).user?.trial_period_used);
    return {
      type: product.type,
      id: product.id,
      name: product.name,
      price: product.price,
      base_price: product.basePrice,
      service_fee: product.fee,
      discount,
      total: cents(product.price - discount + product.fee),
      currency: r.settings().currency,
      coupon: coupon ? String(coupon.code) : null,
      offer: product.offer,
      trial_period: product.type === 'subscription' ? (trialUsed ? 0 : (product.trialDays ?? 0)) : null,
      participant_id: product.participantId,
      purchased: await purchased(r, product),
    };
  }

  return { productOf, couponOf, discountOf, requestedCoupon, purchased, pricingJson };
}
