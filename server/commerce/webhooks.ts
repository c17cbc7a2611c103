/**
 * What the card processor tells the channel: its webhooks and the reconciliation.
 *
 * Webhooks. `POST /stripe/webhooks/{channel key}`, one endpoint per channel's Stripe account: the body read raw and
 * verified by the channel's processor (the SDK's `constructEvent`, with its signing secret, at the server's clock);
 * a bad or stale signature answers 400 and changes nothing. Each event is applied once: its id is recorded in
 * `payment_events` in the transaction that applies it, so a replay (Stripe sending it again, two processes receiving
 * it) answers 200 and changes nothing. Its facts (the objects it names read back from Stripe, so the order events
 * arrive in does not matter) go through settlement's `applyPaymentEvent`. A failure to read them back answers 500:
 * Stripe sends the event again later.
 *
 * The reconciliation, at start and every RECONCILE_INTERVAL_MS, reads back from the processor every order still being
 * paid a while (`graceMs`) after a webhook should have come, and every subscription whose paid period ended without
 * word of the next: a lost webhook never leaves a payer locked out, and an order whose process died between the
 * processor's answer and its own commit is settled, once (found by its metadata when its objects were not kept). A
 * payment nobody finished (an authentication left open) is cancelled after ABANDONED_MS; an order that never reached
 * the processor fails.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChannelDb, Row } from '../storage/db.js';
import { HttpError, sendJson } from '../http/http.js';
import { log } from '../observability/log.js';
import { nameRoute } from '../observability/request-log.js';
import { applyPaymentEvent, SETTLEMENT_MESSAGES } from './settlement.js';
import {
  PAYMENTS_OFF,
  WebhookRefused,
  type PaymentFact,
  type PaymentProvider,
  type PaymentProviders,
  type PaymentRefs,
} from './providers/provider.js';

/** How often the reconciliation runs (and a subscription ended without word is read back again at most). */
export const RECONCILE_INTERVAL_MS = 5 * 60_000;
/** How long after an attempt a webhook should have come: then the order is read back. */
export const RECONCILE_GRACE_MS = 2 * 60_000;
/** An authentication (3-D Secure) left open this long is abandoned: the payment is cancelled, the order fails. */
export const ABANDONED_MS = 3600_000;
/** Webhook events are remembered this long (Stripe sends an event again for up to three days). */
const EVENTS_KEPT_SECONDS = 30 * 86400;
/** The largest webhook body read. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;
/** Orders read back per run, at most. */
const RECONCILE_BATCH = 200;

/** The path of a channel's webhook endpoint. */
export const webhookPath = (channelKey: string) => `/stripe/webhooks/${encodeURIComponent(channelKey)}`;

/** The states a fact may leave a payment in that the buyer finishes: the client secret to hand back, if any. */
export function actionOf(facts: PaymentFact[]): string | undefined {
  for (const fact of facts)
    if ((fact.kind === 'payment' || fact.kind === 'setup') && fact.state.status === 'requires_action')
      return fact.state.clientSecret;
  return undefined;
}

/**
 * Applies facts in order to a channel's orders; answers the ids of the orders they changed. A trial's card saved
 * becomes the one its subscription renews with.
 */
export async function applyFacts(
  db: ChannelDb,
  channel: { id: number; key: string },
  facts: PaymentFact[],
  provider: PaymentProvider,
): Promise<number[]> {
  const changed: number[] = [];
  for (const fact of facts) {
    const orderId = await applyPaymentEvent(db, channel, fact);
    if (orderId === undefined) continue;
    changed.push(orderId);
    if (fact.kind === 'setup' && fact.state.status === 'succeeded' && fact.paymentMethod) {
      const order = await db.get('SELECT processor_subscription FROM orders WHERE id = ?', [orderId]);
      if (order?.processor_subscription)
        await provider.renewWith(String(order.processor_subscription), fact.paymentMethod);
    }
  }
  return changed;
}

/** A request's body as it came (the signature is over these bytes). */
async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_WEBHOOK_BYTES) throw new HttpError(413, 'Request body too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export interface PaymentEventsContext {
  db: ChannelDb;
  /** Server clock, ms. */
  nowMs(): number;
  /** Each channel's processor (undefined: none). */
  providers: PaymentProviders | undefined;
  /** The channel of a key. */
  channelOf(key: string): { id: number; key: string } | undefined;
  /** Tests: the reconciliation's timings. */
  graceMs?: number;
  intervalMs?: number;
}

export function createPaymentEvents(ctx: PaymentEventsContext) {
  const { db } = ctx;
  const grace = ctx.graceMs ?? RECONCILE_GRACE_MS;

  /** `POST /stripe/webhooks/{channel key}`; false for any other path. */
  async function handleWebhook(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const match = /^\/stripe\/webhooks\/([^/]+)\/?$/.exec(url.pathname);
    if (!match || req.method !== 'POST') return false;
    nameRoute(req, 'stripeWebhook');
    let key: string;
    try {
      key = decodeURIComponent(match[1]!);
    } catch {
      throw new HttpError(400, 'Malformed URL: a percent escape is invalid.');
    }
    const channel = ctx.channelOf(key);
    if (!channel) throw new HttpError(404, 'Not found: this server has no channel with this key.');
    const provider = ctx.providers?.(channel.key);
    if (!provider) throw new HttpError(503, PAYMENTS_OFF);
    const raw = await rawBody(req);
    const signature = req.headers['stripe-signature'];
    let event: Awaited<ReturnType<PaymentProvider['webhook']>>;
    try {
      // A replay is not read back again: only checked, then answered.
      event = await provider.webhook(raw, typeof signature === 'string' ? signature : undefined, ctx.nowMs());
    } catch (error) {
      if (error instanceof WebhookRefused) throw new HttpError(400, error.message);
      throw error;
    }
    const applied = await db.transaction(async () => {
      const fresh = await db.get(
        'INSERT INTO payment_events (channel_id, id, type, received_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id',
        [channel.id, event.id, event.type, Math.floor(ctx.nowMs() / 1000)],
      );
      if (!fresh) return false;
      await applyFacts(db, channel, event.facts, provider);
      return true;
    });
    sendJson(res, 200, { received: true, ...(applied ? {} : { replay: true }) }, {}, { cors: false });
    return true;
  }

  /** Reads back one order and applies what the processor says; abandons or fails what never finished. */
  async function reconcileOrder(order: Row, nowMs: number): Promise<void> {
    const channel = { id: Number(order.channel_id), key: String(order.channel_key) };
    const provider = ctx.providers?.(channel.key);
    if (!provider) return;
    const refs: PaymentRefs & { customer?: string } = {
      channel: channel.key,
      orderId: Number(order.id),
      paymentIntent: order.payment_intent === null ? undefined : String(order.payment_intent),
      subscription: order.processor_subscription === null ? undefined : String(order.processor_subscription),
      setupIntent: order.setup_intent === null ? undefined : String(order.setup_intent),
      customer: order.customer === null ? undefined : String(order.customer),
    };
    let facts = await provider.readBack(refs);
    await applyFacts(db, channel, facts, provider);
    const now = await db.get('SELECT status FROM orders WHERE id = ?', [order.id!]);
    if (now?.status !== 'created') return;
    const age = nowMs - Number(order.created_at) * 1000;
    const reached = facts.length > 0 || refs.paymentIntent || refs.subscription || refs.setupIntent;
    if (!reached && age > grace) {
      // The processor never heard of it: nothing was charged.
      const failed = { status: 'failed' as const, message: SETTLEMENT_MESSAGES.notCompleted };
      const at = Math.floor(nowMs / 1000);
      await applyPaymentEvent(db, channel, {
        kind: 'payment',
        refs: { channel: channel.key, orderId: Number(order.id) },
        state: failed,
        at,
      });
      return;
    }
    if (actionOf(facts) !== undefined && age > ABANDONED_MS) {
      const open = facts.find((f) => f.refs.paymentIntent)?.refs.paymentIntent;
      await provider.abandon({ ...refs, paymentIntent: refs.paymentIntent ?? open });
      facts = await provider.readBack(refs);
      await applyFacts(db, channel, facts, provider);
      return;
    }
    // Still under way: read again after another grace.
    await db.run("UPDATE orders SET payment_attempt_at = ? WHERE id = ? AND status = 'created'", [nowMs, order.id!]);
  }

  /**
   * Reads back what should have been settled by now (see the file comment); answers how many orders were read.
   * Safe in any number of processes at once: every fact is applied once.
   */
  async function reconcile(): Promise<number> {
    if (!ctx.providers) return 0;
    const nowMs = ctx.nowMs();
    const cutoff = nowMs - grace;
    const due = await db.all(
      `SELECT o.*, c.channel_key, pc.customer FROM orders o JOIN channels c ON c.id = o.channel_id
       LEFT JOIN payment_customers pc ON pc.user_id = o.user_id
       WHERE (o.status = 'created' AND coalesce(o.payment_attempt_at, o.created_at * 1000) <= ?)
          OR (o.type = 'subscription' AND o.status = 'paid' AND o.activity_status = 'active'
              AND o.processor_subscription IS NOT NULL AND o.expires_at * 1000 <= ? AND coalesce(o.processor_read_at, 0) <= ?)
       ORDER BY o.id LIMIT ?`,
      [cutoff, cutoff, nowMs - (ctx.intervalMs ?? RECONCILE_INTERVAL_MS), RECONCILE_BATCH],
    );
    for (const order of due) {
      try {
        await reconcileOrder(order, nowMs);
      } catch (error) {
        log().error({ err: error, order: Number(order.id) }, 'reading back a payment failed');
      }
    }
    await db.run('DELETE FROM payment_events WHERE received_at < ?', [Math.floor(nowMs / 1000) - EVENTS_KEPT_SECONDS]);
    return due.length;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running
      .then(reconcile)
      .catch((error: unknown) => log().error({ err: error }, 'the payments reconciliation failed'));
    return running;
  };
  return {
    handleWebhook,
    reconcile: () => run().then(() => undefined),
    /** Reconciles once now, then every interval. */
    start(): Promise<unknown> {
      timer = setInterval(() => void run(), ctx.intervalMs ?? RECONCILE_INTERVAL_MS);
      timer.unref();
      return run();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
