/* eslint-disable max-lines -- checkout and payments share pricing, orders and idempotency (coupons and the portal could go apart) */
/**
 * Checkout and payments of the contract: pricing with the API's errors, coupons, purchases that settle
 * asynchronously, saved cards, setup intents and trials, auto-renewal cancellation and the customer portal. The
 * card processor is the PaymentProvider chosen at start (providers/provider.ts: the test cards in dev mode, none in
 * production yet); card data never reaches these calls, only PaymentMethod ids.
 *
 * Money. A product's listed price includes its service fee (shown as 'Taxes'): the Hockey Season Pass lists 29.99,
 * base 27.99 plus 2.00. `GET pricing` breaks it down as price = the price before fees (base_price, else the listed
 * price minus the fee), discount = the coupon's share of that price, total = price - discount + service_fee,
 * rounded to cents: the listed price when there is no coupon. An event sells at its own price (else its
 * single-event pass's), with that pass's fee.
 *
 * Purchases. `POST stripe/buy` answers at once with the order `created` (and its transaction `created`). At
 * `settles_at` (server clock + the paymentSettleMs option, 3 s by default) the test card's outcome settles it as a
 * payment webhook would: paid and active (subscriptions until the end of their first period, auto-renewal active;
 * transaction paid), or failed with the card's message (transaction failed). `settle()` (settlement.ts) runs
 * before every API call and on a timer, so any read after the delay sees the outcome, after a restart too. It also
 * finishes auto-renewal cancellations (a second after `stripe/unsubscribe`), renews subscriptions whose period ended
 * by charging their card again ('Subscription Renewal'), and expires cancelled ones at the end of their period.
 *
 * The same `idempotency_key` and user always answer the same order: a retry or a double click never charges twice.
 * While an order is being paid (created, not settled), another purchase of the same product by the same user under
 * another key (a second device) answers that order too: one product, one order, one charge.
 *
 * Partners. A purchase or trial may name the `partner` it is attributed to (the page's `data-partner`, or a `trk`
 * that is a partner slug: docs/partners.md, "Partner attribution"): a slug, stored with the order; anything else is a 422.
 * `partnerSales()` is what the dev analytics page shows of them.
 */
import { PARTNER_MAX, PRODUCT_TYPES, partnerSlug, type ProductType } from '../../src/api/contract.js';
import { nextRenewal, orderJson } from './account-data.js';
import type { AccessFacts } from '../accounts/accounts.js';
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { Checks, idOf, refuse, truthy, type ApiRequest, type Handlers } from '../http/handler.js';
import { HttpError } from '../http/http.js';
import { createSettlement } from './settlement.js';
import { PAYMENTS_OFF, type PaymentProvider } from './providers/provider.js';

/** How long an auto-renewal cancellation is "processing" (ms). */
const CANCEL_DELAY_MS = 1000;
const DAY = 86400;
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
  spentPaymentMethod: 'This card was already used for another payment. Please enter it again.',
  otherPurchase: 'This idempotency key was used for another purchase.',
  noTrial: 'This subscription has no trial.',
  trialUsed: 'The trial has already been used.',
  trialNeedsCard: 'A trial needs a card.',
  notActive: 'This subscription is not active.',
  badPartner: `The partner must be a slug: lowercase letters and digits, words joined by hyphens, at most ${PARTNER_MAX} characters.`,
} as const;

export interface PaymentsContext {
  db: ChannelDb;
  /** Server clock, ms. */
  nowMs(): number;
  /** How long after `stripe/buy` an order settles (ms). */
  settleMs: number;
  /** Origins a customer portal's return_url may lead to besides the caller's (the CMS host). */
  knownOrigins(): string[];
  /**
   * The card processor (chosen at start from configuration). Without one every call that charges, saves or lists
   * cards answers 503 instead of failing half-way.
   */
  provider?: PaymentProvider;
}

export { PAYMENTS_OFF };

type PaymentEndpoint =
  'pricing' | 'applyCoupon' | 'buy' | 'listCards' | 'setupIntent' | 'startTrial' | 'unsubscribe' | 'customerPortal';

/** What a checkout sells, resolved from `type` and `id` (and the event's pass, the team of a team pass). */
interface Product {
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
}

const cents = (n: number) => Math.round(n * 100) / 100;
const blank = (value: unknown) => value === undefined || value === null || value === '';
const isProductType = (value: unknown): value is ProductType =>
  typeof value === 'string' && (PRODUCT_TYPES as readonly string[]).includes(value);

/** A listed price split into the price before fees and the fee. */
function split(
  listed: number,
  base: SqlValue | undefined,
  fee: SqlValue | undefined,
): Pick<Product, 'price' | 'basePrice' | 'fee'> {
  const serviceFee = fee === null || fee === undefined ? 0 : Number(fee);
  const basePrice = base === null || base === undefined ? null : Number(base);
  return { price: basePrice ?? cents(listed - serviceFee), basePrice, fee: serviceFee };
}

export function createPayments(ctx: PaymentsContext): {
  handlers: Handlers<PaymentEndpoint>;
  settle(): Promise<void>;
  settleFor(userId: number): Promise<void>;
  stop(): void;
  devOrders(channelKey: string, email: string | null): Promise<unknown[]>;
  partnerSales(channelKey: string, since?: number): Promise<PartnerSales[]>;
} {
  const { db } = ctx;
  // Settling runs for a signed-in caller before their request reads anything, and on timers (settlement.ts);
  // `stop()` clears those timers.
  const { settle, settleFor, settleLater, stop } = createSettlement(db, ctx.nowMs, ctx.provider);
  /** The card processor, for the calls that run only with one (the others answer 503 first, below). */
  const provider = (): PaymentProvider => {
    if (!ctx.provider) throw new HttpError(503, PAYMENTS_OFF);
    return ctx.provider;
  };
  const nowSeconds = () => Math.floor(ctx.nowMs() / 1000);

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
        'SELECT id, name, type, price, category_id, single_event_package_id FROM events WHERE channel_id = ? AND id = ?',
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
        ...split(Number(listed), samePrice ? pass.base_price : null, pass?.service_fee),
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
        ...split(Number(row.price), row.base_price, row.service_fee),
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
      ...split(Number(row.price), row.base_price, row.service_fee),
      offer: String(row.offer),
      trialDays: row.trial_period === null ? null : Number(row.trial_period),
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

  /**
   * The signed-in buyer (else 401), the request's idempotency key, another required field and the partner, if any
   * (else 422).
   */
  async function buyer(
    r: ApiRequest,
    required: string,
  ): Promise<{
    user: Row;
    userId: number;
    key: string;
    fields: Record<string, string | undefined>;
    partner: string | null;
  }> {
    const user = await r.user();
    const checks = new Checks(r.body);
    const key = checks.text('idempotency_key');
    const fields = { [required]: checks.text(required) };
    if (key !== undefined && key.length > 255)
      checks.fail('idempotency_key', 'The idempotency key may not be greater than 255 characters.');
    const partner = blank(r.body.partner) ? null : (partnerSlug(r.body.partner) ?? null);
    if (!blank(r.body.partner) && partner === null) checks.fail('partner', PAYMENT_MESSAGES.badPartner);
    checks.done();
    return { user, userId: Number(user.id), key: key!, fields, partner };
  }

  /** The order of a user's idempotency key, if any; a 422 when the key was used for another product. */
  async function replay(
    userId: SqlValue,
    key: string,
    type: ProductType,
    productId: number,
    participantId: number | null,
  ): Promise<Row | undefined> {
    const order = await db.get('SELECT * FROM orders WHERE user_id = ? AND idempotency_key = ?', [userId, key]);
    if (!order) return undefined;
    const same =
      order.type === type &&
      Number(order.product_id) === productId &&
      (order.participant_id === null ? null : Number(order.participant_id)) === participantId;
    if (!same) throw refuse('idempotency_key', PAYMENT_MESSAGES.otherPurchase);
    return order;
  }

  /**
   * The user's order of this very product that is still being paid (created, not yet settled), if any: a second
   * purchase made meanwhile under another key (a second device, or a tab that kept no shared storage) answers that
   * order instead of charging a second time.
   */
  const underWay = (userId: SqlValue, type: ProductType, productId: number, participantId: number | null) =>
    db.get(
      `SELECT id FROM orders WHERE user_id = ? AND type = ? AND product_id = ? AND participant_id IS NOT DISTINCT FROM ?::bigint AND status = 'created'
       AND settles_at IS NOT NULL ORDER BY id LIMIT 1`,
      [userId, type, productId, participantId],
    );

  const purchase = async (orderId: SqlValue) => ({
    data: { order: await orderJson(db, (await db.get('SELECT * FROM orders WHERE id = ?', [orderId]))!, nowSeconds()) },
  });

  /** Where the portal's "Return to the site" goes: an http(s) URL of a known origin, else this server. */
  function returnUrl(r: ApiRequest): string {
    const fallback = `${r.origin}/`;
    const raw = r.query.get('return_url');
    let url: URL;
    try {
      url = new URL(raw ?? '');
    } catch {
      return fallback;
    }
    const loopback = (origin: string) => origin.replace(/^(https?:\/\/)(127\.0\.0\.1|\[::1\])(?=:|$)/, '$1localhost');
    const site = r.settings().site_url;
    const known = [r.origin, ...ctx.knownOrigins(), ...(site ? [site] : [])].map((origin) => {
      try {
        return loopback(new URL(origin).origin);
      } catch {
        return '';
      }
    });
    return /^https?:$/.test(url.protocol) && known.includes(loopback(url.origin)) ? url.toString() : fallback;
  }

  const handlers: Handlers<PaymentEndpoint> = {
    pricing: async (r) => {
      const field = (name: string) => r.query.get(name) ?? undefined;
      const product = await productOf(r, field, true);
      return { data: await pricingJson(r, product, await requestedCoupon(r, field('coupon'))) };
    },

    applyCoupon: async (r) => {
      const code = r.query.get('code')?.trim();
      if (!code) throw refuse('code', 'The code field is required.');
      const coupon = await couponOf(r.channelId, code);
      if (!coupon) throw refuse('code', PAYMENT_MESSAGES.wrongCoupon);
      const percent = coupon.percent === null ? null : Number(coupon.percent);
      // With a product, what it takes off that product's price; without, the fixed amount (0 for a percentage).
      const named = !blank(r.query.get('type')) || !blank(r.query.get('id'));
      const discount = named
        ? discountOf(coupon, (await productOf(r, (name) => r.query.get(name) ?? undefined, false)).price)
        : percent === null
          ? Number(coupon.amount)
          : 0;
      return { data: { code: String(coupon.code), discount, percent } };
    },

    buy: async (r) => {
      const { userId, key, fields, partner } = await buyer(r, 'payment_method');
      const product = await productOf(r, (name) => r.body[name], true);
      // One purchase of a user at a time, in every process: the user's row is locked until this one is committed,
      // so a second purchase (a double click, a second device) sees the first one's order (replay, underWay).
      const orderId = await db.transaction(async () => {
        await db.get('SELECT id FROM users WHERE id = ? FOR UPDATE', [userId]);
        const earlier =
          (await replay(userId, key, product.type, product.id, product.participantId)) ??
          (await underWay(userId, product.type, product.id, product.participantId));
        if (earlier) return Number(earlier.id);
        if (await purchased(r, product)) throw new HttpError(422, PAYMENT_MESSAGES.purchased);
        const pricing = await pricingJson(r, product, await requestedCoupon(r, r.body.coupon));
        // The card becomes the buyer's (an unattached one spent on this order: the lock above is on this buyer's row
        // only, so the processor makes sure two buyers sending one card cannot both spend it).
        const paymentMethod = fields.payment_method!;
        const claimed = await provider().claim(r.channelId, userId, paymentMethod);
        if (typeof claimed === 'string') throw refuse('payment_method', PAYMENT_MESSAGES[claimed]);
        const now = nowSeconds();
        const saveIt = truthy(r.body.save_card) && !claimed.saved;
        const id = await db.insert(
          `INSERT INTO orders (channel_id, user_id, type, product_id, participant_id, status, activity_status, price, currency, coupon,
           idempotency_key, payment_method, save_card, settles_at, created_at, updated_at, partner)
         VALUES (?, ?, ?, ?, ?, 'created', 'inactive', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            r.channelId,
            userId,
            product.type,
            product.id,
            product.participantId,
            Number(pricing.total),
            String(pricing.currency),
            pricing.coupon as string | null,
            key,
            paymentMethod,
            saveIt ? 1 : 0,
            ctx.nowMs() + ctx.settleMs,
            now,
            now,
            partner,
          ],
        );
        await db.run(
          "INSERT INTO transactions (order_id, user_id, status, amount, currency, label, created_at) VALUES (?, ?, 'created', ?, ?, ?, ?)",
          [
            id,
            userId,
            Number(pricing.total),
            String(pricing.currency),
            product.type === 'subscription' ? 'New subscription' : null,
            now,
          ],
        );
        settleLater(ctx.settleMs);
        return id;
      });
      return purchase(orderId);
    },

    listCards: async (r) => ({ data: await provider().savedCards(Number((await r.user()).id)) }),

    setupIntent: async (r) => {
      const user = await r.user();
      return {
        data: { client_secret: await provider().createSetupIntent(r.channelId, Number(user.id), nowSeconds()) },
      };
    },

    startTrial: async (r) => {
      const { userId, key, fields, partner } = await buyer(r, 'subscription_id');
      const product = await productOf(
        r,
        (name) => (name === 'type' ? 'subscription' : name === 'id' ? fields.subscription_id : undefined),
        true,
      );
      // One purchase of a user at a time, in every process (see buy).
      const orderId = await db.transaction(async () => {
        const user = (await db.get('SELECT * FROM users WHERE id = ? FOR UPDATE', [userId]))!;
        const earlier = await replay(userId, key, 'subscription', product.id, null);
        if (earlier) return Number(earlier.id);
        if (!(Number(product.trialDays) > 0)) throw refuse('subscription_id', PAYMENT_MESSAGES.noTrial);
        if (user.trial_period_used) throw refuse('subscription_id', PAYMENT_MESSAGES.trialUsed);
        if (await purchased(r, product)) throw new HttpError(422, PAYMENT_MESSAGES.purchased);
        const paymentMethod = typeof r.body.payment_method === 'string' ? r.body.payment_method : '';
        if (!(await provider().setupConfirmed(r.channelId, userId, paymentMethod)))
          throw refuse('payment_method', PAYMENT_MESSAGES.trialNeedsCard);
        const now = nowSeconds();
        // Nothing is charged now: the card is charged when the trial ends, unless auto-renewal was cancelled by then.
        const id = await db.insert(
          `INSERT INTO orders (channel_id, user_id, type, product_id, status, activity_status, price, currency, subscription_status, auto_renewal,
           idempotency_key, payment_method, is_trial, created_at, updated_at, expires_at, partner)
         VALUES (?, ?, 'subscription', ?, 'paid', 'active', 0, ?, 'active', 'active', ?, ?, 1, ?, ?, ?, ?)`,
          [
            r.channelId,
            userId,
            product.id,
            r.settings().currency,
            key,
            paymentMethod,
            now,
            now,
            now + Number(product.trialDays) * DAY,
            partner,
          ],
        );
        await db.run('UPDATE users SET trial_period_used = 1, updated_at = ? WHERE id = ?', [now, userId]);
        return id;
      });
      return purchase(orderId);
    },

    unsubscribe: async (r) => {
      const user = await r.user();
      const checks = new Checks(r.body);
      checks.text('order_id');
      checks.done();
      const order = await db.get("SELECT * FROM orders WHERE id = ? AND user_id = ? AND type = 'subscription'", [
        idOf(r.body.order_id) ?? 0,
        user.id!,
      ]);
      if (!order) throw new HttpError(404, 'Order not found.');
      if (order.auto_renewal === 'cancelled') return { data: { status: 'finished' } };
      if (order.renewal_cancel_at !== null) return { data: { status: 'processing' } };
      if (order.status !== 'paid' || order.activity_status !== 'active')
        throw refuse('order_id', PAYMENT_MESSAGES.notActive);
      // Access lasts to the end of the period already paid for.
      const offer = String(
        (await db.get('SELECT offer FROM subscriptions WHERE id = ?', [order.product_id!]))?.offer ?? 'monthly',
      );
      const end = order.expires_at ?? nextRenewal(Number(order.created_at), offer, nowSeconds());
      await db.run('UPDATE orders SET renewal_cancel_at = ?, expires_at = ?, updated_at = ? WHERE id = ?', [
        ctx.nowMs() + CANCEL_DELAY_MS,
        end,
        nowSeconds(),
        order.id!,
      ]);
      settleLater(CANCEL_DELAY_MS);
      return { data: { status: 'processing' } };
    },

    customerPortal: async (r) => {
      const user = await r.user();
      const session = { channelId: r.channelId, userId: Number(user.id), returnUrl: returnUrl(r), now: nowSeconds() };
      return { data: { url: await provider().portalUrl({ ...session, origin: r.origin }) } };
    },
  };

  // The calls that charge, save or list cards need the card processor: 503 without one.
  if (!ctx.provider) {
    for (const name of ['buy', 'listCards', 'setupIntent', 'startTrial', 'customerPortal'] as const) {
      handlers[name] = async () => {
        throw new HttpError(503, PAYMENTS_OFF);
      };
    }
  }

  /** `GET /__dev/orders`: a channel's orders (of one email, when given), newest first, with their payment details. */
  async function devOrders(channelKey: string, email: string | null): Promise<unknown[]> {
    await settle();
    const rows = await db.all(
      `SELECT o.*, u.email, pm.brand, pm.last4 FROM orders o JOIN users u ON u.id = o.user_id JOIN channels c ON c.id = o.channel_id
       LEFT JOIN payment_methods pm ON pm.id = o.payment_method
       WHERE c.channel_key = ? AND (?::text IS NULL OR lower(u.email) = lower(?::text)) ORDER BY o.id DESC`,
      [channelKey, email, email],
    );
    return Promise.all(
      rows.map(async (row) => ({
        ...(await orderJson(db, row, nowSeconds())),
        email: String(row.email),
        coupon: row.coupon,
        partner: row.partner,
        is_trial: Boolean(row.is_trial),
        card: row.last4 === null ? null : { brand: String(row.brand), last4: String(row.last4) },
        transactions: (
          await db.all('SELECT id, status, amount, label FROM transactions WHERE order_id = ? ORDER BY id', [row.id!])
        ).map((t) => ({ id: Number(t.id), status: String(t.status), amount: Number(t.amount), label: t.label })),
      })),
    );
  }

  /**
   * A channel's sales per partner (orders made at or after `since`, server seconds), settled as of now: orders made,
   * orders paid, and what paid transactions brought in (renewals included), per currency; orders with no partner
   * are the row whose partner is null (sold directly). In order of first appearance.
   */
  async function partnerSales(channelKey: string, since = 0): Promise<PartnerSales[]> {
    await settle();
    const sales = new Map<string | null, PartnerSales>();
    const entry = (partner: SqlValue) => {
      const key = partner === null ? null : String(partner);
      let found = sales.get(key);
      if (!found) sales.set(key, (found = { partner: key, orders: 0, paid: 0, revenue: {} }));
      return found;
    };
    const where = 'c.channel_key = ? AND o.created_at >= ?';
    for (const row of await db.all(
      `SELECT o.partner, COUNT(*) AS orders, COUNT(*) FILTER (WHERE o.status = 'paid') AS paid FROM orders o
       JOIN channels c ON c.id = o.channel_id WHERE ${where} GROUP BY o.partner ORDER BY o.partner COLLATE "C" NULLS FIRST`,
      [channelKey, since],
    )) {
      Object.assign(entry(row.partner ?? null), { orders: Number(row.orders), paid: Number(row.paid) });
    }
    for (const row of await db.all(
      `SELECT o.partner, t.currency, SUM(t.amount) AS amount FROM transactions t JOIN orders o ON o.id = t.order_id
       JOIN channels c ON c.id = o.channel_id WHERE ${where} AND t.status = 'paid' GROUP BY o.partner, t.currency`,
      [channelKey, since],
    )) {
      entry(row.partner ?? null).revenue[String(row.currency ?? '')] = cents(Number(row.amount));
    }
    return [...sales.values()];
  }

  return {
    handlers,
    settle,
    settleFor,
    devOrders,
    partnerSales,
    stop,
  };
}

/** A partner's sales (GET /__dev/analytics, `partners`): orders made and paid, and paid amounts per currency. */
export interface PartnerSales {
  /** The partner's slug; null for the orders no partner brought. */
  partner: string | null;
  orders: number;
  paid: number;
  /** Currency code -> amount of paid transactions. */
  revenue: Record<string, number>;
}
