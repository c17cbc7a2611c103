/**
 * Checkout and payments of the contract: pricing and coupons (products.ts), purchases and trials through the
 * channel's card processor (providers/provider.ts: Stripe), saved cards, setup intents, auto-renewal and the customer
 * portal. Card data never reaches these calls: only the Payment Element's confirmation token or a saved card's id.
 *
 * A purchase (`POST stripe/buy`; a trial: `stripe/subscription/start_trial`). The order is committed first (status
 * `created`, its transaction `created`), then the processor is asked, under the purchase's idempotency key: a
 * PaymentIntent of the total (events and packages), or a subscription whose first charge (or, with a trial, whose
 * card's setup) is confirmed with what the buyer gave. The answer is the order, plus `action.client_secret` when
 * the card asks for 3-D Secure (the browser finishes it with Stripe.js). What the processor answered is applied
 * through settlement (a decline fails the order at once); the rest comes by its webhooks (webhooks.ts), or a
 * read-back of them: the order poll sees it.
 *
 * The same `idempotency_key` and user always answer the same order, and the processor the same payment (a retry
 * reads it back, or asks again under the same key): a retry or a double click never charges twice. While an order
 * is being paid, another purchase of the same product by the same user under another key (a second device, two
 * tabs) answers that order too, once read back: one product, one order, one charge.
 *
 * Partners. A purchase or trial may name the `partner` it is attributed to (docs/partners.md): a slug, stored with
 * the order; anything else is a 422. `partnerSales()` is what the dev analytics page shows of them.
 */
import { partnerSlug, type ProductType } from '../../src/api/contract.js';
import { nextRenewal, orderJson } from './account-data.js';
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { Checks, idOf, refuse, type ApiRequest, type Handlers } from '../http/handler.js';
import { HttpError } from '../http/http.js';
import { log } from '../observability/log.js';
import { blank, cents, createProducts, PAYMENT_MESSAGES, type Product } from './products.js';
import { createSales, type PartnerSales } from './sales.js';
import { actionOf, applyFacts } from './webhooks.js';
import {
  PAYMENTS_OFF,
  type PaymentFact,
  type PaymentProvider,
  type PaymentProviders,
  type PaymentSource,
  type Sale,
} from './providers/provider.js';

export { PAYMENT_MESSAGES, PAYMENTS_OFF, type PartnerSales };

export interface PaymentsContext {
  db: ChannelDb;
  /** Server clock, ms. */
  nowMs(): number;
  /** Origins a customer portal's return_url may lead to besides the caller's (the CMS host). */
  knownOrigins(): string[];
  /**
   * Each channel's card processor (chosen at start from configuration). Without one every call that charges, saves
   * or lists cards answers 503 instead of failing half-way.
   */
  providers: PaymentProviders | undefined;
}

type PaymentEndpoint =
  'pricing' | 'applyCoupon' | 'buy' | 'listCards' | 'setupIntent' | 'startTrial' | 'unsubscribe' | 'customerPortal';

/** An order's processor objects, as the processor's facts name them. */
const refsOf = (order: Row, channel: string) => ({
  channel,
  orderId: Number(order.id),
  paymentIntent: order.payment_intent === null ? undefined : String(order.payment_intent),
  subscription: order.processor_subscription === null ? undefined : String(order.processor_subscription),
  setupIntent: order.setup_intent === null ? undefined : String(order.setup_intent),
});

export function createPayments(ctx: PaymentsContext): {
  handlers: Handlers<PaymentEndpoint>;
  devOrders(channelKey: string, email: string | null): Promise<unknown[]>;
  partnerSales(channelKey: string, since?: number): Promise<PartnerSales[]>;
} {
  const { db } = ctx;
  const nowSeconds = () => Math.floor(ctx.nowMs() / 1000);
  const { productOf, couponOf, discountOf, requestedCoupon, purchased, pricingJson } = createProducts(db, nowSeconds);
  /** The channel's card processor, for the calls that run only with one (503 otherwise). */
  const provider = (r: ApiRequest): PaymentProvider => {
    const found = ctx.providers?.(r.channelKey);
    if (!found) throw new HttpError(503, PAYMENTS_OFF);
    return found;
  };
  const channelOf = (r: ApiRequest) => ({ id: r.channelId, key: r.channelKey });

  /** The viewer's customer at the processor: made on first use, once (whoever asks first keeps it). */
  async function customerOf(r: ApiRequest, user: Row, processor: PaymentProvider): Promise<string> {
    const userId = Number(user.id);
    const known = await db.get('SELECT customer FROM payment_customers WHERE user_id = ?', [userId]);
    if (known) return String(known.customer);
    const customer = await processor.createCustomer({ channel: r.channelKey, userId, email: String(user.email) });
    await db.run(
      'INSERT INTO payment_customers (user_id, channel_id, customer, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING',
      [userId, r.channelId, customer, nowSeconds()],
    );
    return String((await db.get('SELECT customer FROM payment_customers WHERE user_id = ?', [userId]))!.customer);
  }

  /** The signed-in buyer (else 401), the idempotency key, what pays and the partner, if any (else 422). */
  async function buyer(r: ApiRequest, required: string | undefined) {
    const user = await r.user();
    const checks = new Checks(r.body);
    const key = checks.text('idempotency_key');
    const field = required ? checks.text(required) : undefined;
    if (key !== undefined && key.length > 255)
      checks.fail('idempotency_key', 'The idempotency key may not be greater than 255 characters.');
    const token = typeof r.body.confirmation_token === 'string' ? r.body.confirmation_token.trim() : '';
    const method = typeof r.body.payment_method === 'string' ? r.body.payment_method.trim() : '';
    const partner = blank(r.body.partner) ? null : (partnerSlug(r.body.partner) ?? null);
    if (!blank(r.body.partner) && partner === null) checks.fail('partner', PAYMENT_MESSAGES.badPartner);
    if (!token && !method) {
      const message = required ? PAYMENT_MESSAGES.trialNeedsCard : PAYMENT_MESSAGES.noPaymentMethod;
      // Alone, it is the answer's message (what the checkout shows); with others, one of them.
      if (Object.keys(checks.errors).length === 0) throw refuse('payment_method', message);
      checks.fail('payment_method', message);
    }
    checks.done();
    const source: PaymentSource = token ? { confirmationToken: token } : { paymentMethod: method };
    return { user, userId: Number(user.id), key: key!, field, source, partner };
  }

  /** The order of a user's idempotency key, if any; a 422 when the key was used for another product. */
  async function replay(userId: SqlValue, key: string, product: Product): Promise<Row | undefined> {
    const order = await db.get('SELECT * FROM orders WHERE user_id = ? AND idempotency_key = ?', [userId, key]);
    if (!order) return undefined;
    const same =
      order.type === product.type &&
      Number(order.product_id) === product.id &&
      (order.participant_id === null ? null : Number(order.participant_id)) === product.participantId;
    if (!same) throw refuse('idempotency_key', PAYMENT_MESSAGES.otherPurchase);
    return order;
  }

  /** The user's order of this very product still being paid, if any (a second device's purchase answers it). */
  const underWay = (userId: SqlValue, type: ProductType, productId: number, participantId: number | null) =>
    db.get(
      `SELECT * FROM orders WHERE user_id = ? AND type = ? AND product_id = ? AND participant_id IS NOT DISTINCT FROM ?::bigint
       AND status = 'created' ORDER BY id LIMIT 1`,
      [userId, type, productId, participantId],
    );

  /** What the processor says now of an order, applied; answers the client secret of a payment the buyer finishes. */
  async function readBack(r: ApiRequest, order: Row, customer: string, processor: PaymentProvider) {
    const facts = await processor.readBack({ ...refsOf(order, r.channelKey), customer });
    await applyFacts(db, channelOf(r), facts, processor);
    return actionOf(facts);
  }

  /** Asks the processor for an order's payment (again, under the same key, on a retry) and applies its answer. */
  async function charge(
    r: ApiRequest,
    order: Row,
    product: Product,
    input: { customer: string; source: PaymentSource; key: string; saveCard: boolean },
    processor: PaymentProvider,
  ): Promise<string | undefined> {
    const orderId = Number(order.id);
    const idempotencyKey = `purchase:${r.channelKey}:${String(order.user_id)}:${input.key}`;
    let sale: Sale;
    try {
      sale =
        product.type === 'subscription'
          ? await processor.subscribe({
              channel: r.channelKey,
              orderId,
              customer: input.customer,
              sale: {
                id: product.id,
                name: product.name,
                offer: product.offer === 'annual' ? 'annual' : 'monthly',
                amount: cents(product.price + product.fee),
                currency: String(order.currency),
                discount:
                  order.coupon === null
                    ? null
                    : { code: String(order.coupon), amount: cents(product.price + product.fee - Number(order.price)) },
                trialDays: order.is_trial ? product.trialDays : null,
                price: product.processorPrice ?? null,
              },
              source: input.source,
              idempotencyKey,
            })
          : await processor.pay({
              channel: r.channelKey,
              orderId,
              customer: input.customer,
              amount: Number(order.price),
              currency: String(order.currency),
              description: product.name,
              source: input.source,
              saveCard: input.saveCard,
              idempotencyKey,
            });
    } catch (error) {
      // The processor could not be reached, or is busy with the same purchase: the order waits, and is read back
      // (the next retry, a webhook or the reconciliation settles it).
      log().warn({ err: error, order: orderId }, 'the card processor did not answer a purchase');
      return undefined;
    }
    const at = nowSeconds();
    if (sale.trialEnd)
      await db.run('UPDATE orders SET expires_at = ? WHERE id = ? AND expires_at IS NULL', [sale.trialEnd, orderId]);
    await db.run('UPDATE orders SET payment_attempt_at = ? WHERE id = ?', [ctx.nowMs(), orderId]);
    const refs = { ...sale.refs, channel: r.channelKey, orderId };
    const facts: PaymentFact[] = [
      sale.refs.setupIntent
        ? { kind: 'setup', refs, state: sale.state, paymentMethod: sale.paymentMethod ?? null, at }
        : { kind: 'payment', refs, state: sale.state, at },
    ];
    // A subscription paid (or a trial's card saved) at once: its invoice and its period, read back.
    if (product.type === 'subscription' && sale.state.status === 'succeeded')
      facts.push(...(await processor.readBack(refs).catch(() => [])));
    await applyFacts(db, channelOf(r), facts, processor);
    return sale.state.status === 'requires_action' ? sale.state.clientSecret : undefined;
  }

  /** A purchase or a trial (see the file comment). */
  async function purchase(r: ApiRequest, trial: boolean) {
    const { user, userId, key, field, source, partner } = await buyer(r, trial ? 'subscription_id' : undefined);
    const product = trial
      ? await productOf(r, (name) => (name === 'type' ? 'subscription' : name === 'id' ? field : undefined), true)
      : await productOf(r, (name) => r.body[name], true);
    if (trial && !(Number(product.trialDays) > 0)) throw refuse('subscription_id', PAYMENT_MESSAGES.noTrial);
    const processor = provider(r);
    const customer = await customerOf(r, user, processor);
    if ('paymentMethod' in source && !(await processor.savedCards(customer)).some((c) => c.id === source.paymentMethod))
      throw refuse('payment_method', PAYMENT_MESSAGES.badPaymentMethod);
    for (let round = 0; ; round++) {
      // One purchase of a user at a time, in every process: the user's row is locked until this one is committed,
      // so a second purchase (a double click, a second device) sees the first one's order.
      const placed = await db.transaction(async () => {
        const locked = (await db.get('SELECT * FROM users WHERE id = ? FOR UPDATE', [userId]))!;
        const mine = await replay(userId, key, product);
        if (mine) return { order: mine, fresh: false, sameKey: true };
        const other = await underWay(userId, product.type, product.id, product.participantId);
        if (other) return { order: other, fresh: false, sameKey: false };
        if (trial && locked.trial_period_used) throw refuse('subscription_id', PAYMENT_MESSAGES.trialUsed);
        if (await purchased(r, product)) throw new HttpError(422, PAYMENT_MESSAGES.purchased);
        const pricing = await pricingJson(r, product, trial ? undefined : await requestedCoupon(r, r.body.coupon));
        const now = nowSeconds();
        const amount = trial ? 0 : Number(pricing.total);
        const id = await db.insert(
          `INSERT INTO orders (channel_id, user_id, type, product_id, participant_id, status, activity_status, price, currency, coupon,
           idempotency_key, is_trial, created_at, updated_at, partner, payment_attempt_at)
         VALUES (?, ?, ?, ?, ?, 'created', 'inactive', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            r.channelId,
            userId,
            product.type,
            product.id,
            product.participantId,
            amount,
            String(pricing.currency),
            pricing.coupon as string | null,
            key,
            trial ? 1 : 0,
            now,
            now,
            partner,
            ctx.nowMs(),
          ],
        );
        // A trial charges nothing now: its transactions come with its invoices.
        if (!trial)
          await db.run(
            "INSERT INTO transactions (order_id, user_id, status, amount, currency, label, created_at) VALUES (?, ?, 'created', ?, ?, ?, ?)",
            [
              id,
              userId,
              amount,
              String(pricing.currency),
              product.type === 'subscription' ? 'New subscription' : null,
              now,
            ],
          );
        return { order: (await db.get('SELECT * FROM orders WHERE id = ?', [id]))!, fresh: true, sameKey: true };
      });
      const { order } = placed;
      let action: string | undefined;
      const unasked =
        order.payment_intent === null && order.processor_subscription === null && order.setup_intent === null;
      if (order.status === 'created' && placed.sameKey && unasked) {
        // New, or sent again before the processor's answer was kept: asked (again) under the same key.
        action = await charge(
          r,
          order,
          product,
          { customer, source, key, saveCard: Boolean(r.body.save_card) && !trial },
          processor,
        );
      } else if (order.status === 'created') {
        action = await readBack(r, order, customer, processor).catch(() => undefined);
        const now = await db.get('SELECT status FROM orders WHERE id = ?', [order.id!]);
        // Another device's purchase that failed meanwhile: this one goes ahead with a new order.
        if (!placed.sameKey && now?.status === 'failed' && round === 0) continue;
        if (!placed.sameKey) action = undefined; // its client secret is the other device's to use
      }
      const row = (await db.get('SELECT * FROM orders WHERE id = ?', [order.id!]))!;
      return {
        data: { order: await orderJson(db, row, nowSeconds()), action: action ? { client_secret: action } : null },
      };
    }
  }

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

    buy: (r) => purchase(r, false),
    startTrial: (r) => purchase(r, true),

    listCards: async (r) => {
      const processor = provider(r);
      const known = await db.get('SELECT customer FROM payment_customers WHERE user_id = ?', [(await r.user()).id!]);
      return { data: known ? await processor.savedCards(String(known.customer)) : [] };
    },

    setupIntent: async (r) => {
      const processor = provider(r);
      const customer = await customerOf(r, await r.user(), processor);
      return { data: { client_secret: await processor.createSetupIntent(customer) } };
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
      if (order.status !== 'paid' || order.activity_status !== 'active')
        throw refuse('order_id', PAYMENT_MESSAGES.notActive);
      if (order.processor_subscription === null) {
        // A subscription no processor renews (seeded, or of the SQLite era): it lasts to the end of its period.
        const offer = String(
          (await db.get('SELECT offer FROM subscriptions WHERE id = ?', [order.product_id!]))?.offer ?? 'monthly',
        );
        const end = order.expires_at ?? nextRenewal(Number(order.created_at), offer, nowSeconds());
        await db.run("UPDATE orders SET auto_renewal = 'cancelled', expires_at = ?, updated_at = ? WHERE id = ?", [
          end,
          nowSeconds(),
          order.id!,
        ]);
        return { data: { status: 'finished' } };
      }
      const processor = provider(r);
      const facts = await processor.cancelAtPeriodEnd(String(order.processor_subscription), true);
      await applyFacts(db, channelOf(r), facts, processor);
      const now = await db.get('SELECT auto_renewal FROM orders WHERE id = ?', [order.id!]);
      return { data: { status: now?.auto_renewal === 'cancelled' ? 'finished' : 'processing' } };
    },

    customerPortal: async (r) => {
      const processor = provider(r);
      const customer = await customerOf(r, await r.user(), processor);
      return { data: { url: await processor.portalUrl(customer, returnUrl(r)) } };
    },
  };

  // The calls that charge, save or list cards need the channel's card processor: 503 without one, before anything
  // else (a channel may have one of its own while the server has none).
  for (const name of ['buy', 'listCards', 'setupIntent', 'startTrial', 'customerPortal'] as const) {
    const handler = handlers[name];
    handlers[name] = async (r) => {
      provider(r);
      return handler(r);
    };
  }

  return { handlers, ...createSales(db, nowSeconds) };
}
