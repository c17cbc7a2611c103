/**
 * Settlement: money and access move only here, through `applyPaymentEvent`, from a fact the card processor stated
 * (providers/provider.ts: an answer of its API, a verified webhook, or a read-back of the reconciliation), in one
 * transaction holding the order's row. Each fact is applied once: a fact about an order already past it (a paid
 * order's payment succeeding again, an invoice whose transaction exists) changes nothing, so a webhook delivered
 * twice, two processes receiving it, or a read-back after the webhook count once, in any order.
 *
 * - A one-time payment: succeeded, the order is paid and active (its transaction paid); failed, the order fails
 *   with the processor's message. A payment that succeeds after its order failed (money did move) pays it.
 * - A subscription's invoice: its transaction, one per invoice ('New subscription' for the first charge, 'Subscription
 *   Renewal' after); paid, the order is paid and active through the invoice's period; refused, the first charge
 *   fails the order, a renewal's makes it inactive with the message (a later paid invoice makes it active again).
 * - A subscription read back: auto-renewal on or off (cancel at the period's end), active through its period,
 *   inactive while past due, ended (expired at the period's end, canceled before) when Stripe ended it. An older
 *   read never overwrites a newer one.
 * - A trial's card saved: the trial starts (access until the trial's end; the account's trial is used).
 * - A refund in full: the order is Refunded and its access ends. A dispute: access is suspended, the order says why.
 *   Both stay: nothing a subscription says later makes the order active again.
 *
 * Whatever else an applied fact means to the viewer (their receipt: mail/receipts.ts) listens through
 * `onPaymentApplied`, in the fact's transaction, as a PaymentEvent: a purchase paid or refused, a renewal paid or
 * refused.
 */
import type { ChannelDb, Row } from '../storage/db.js';
import type { PaymentFact, PaymentRefs } from './providers/provider.js';

/** What a refunded or disputed order says. */
export const SETTLEMENT_MESSAGES = {
  refunded: 'The payment was refunded.',
  disputed: (reason: string) =>
    `Access is suspended: the payment is disputed with the bank (${reason.replace(/_/g, ' ')}).`,
  notCompleted: 'The payment was not completed.',
} as const;

/** The order a fact is about, in this channel, its row locked: by the metadata the processor kept, or its objects. */
async function orderOf(
  db: ChannelDb,
  channel: { id: number; key: string },
  refs: PaymentRefs,
): Promise<Row | undefined> {
  const one = (where: string, value: string | number) =>
    db.get(`SELECT * FROM orders WHERE channel_id = ? AND ${where} = ? FOR UPDATE`, [channel.id, value]);
  if (refs.orderId !== undefined && refs.channel === channel.key) {
    const order = await one('id', refs.orderId);
    if (order) return order;
  }
  if (refs.subscription) {
    const order = await one('processor_subscription', refs.subscription);
    if (order) return order;
  }
  if (refs.setupIntent) {
    const order = await one('setup_intent', refs.setupIntent);
    if (order) return order;
  }
  return refs.paymentIntent ? one('payment_intent', refs.paymentIntent) : undefined;
}

/** Keeps on the order the processor objects a fact names that it does not know yet. */
async function remember(db: ChannelDb, order: Row, refs: PaymentRefs): Promise<void> {
  const subscription = order.type === 'subscription';
  const known: Array<[string, string | undefined]> = [
    ['processor_subscription', subscription ? refs.subscription : undefined],
    ['setup_intent', refs.setupIntent],
    // A subscription's payments are its invoices': the order keeps its subscription, not each intent.
    ['payment_intent', subscription ? undefined : refs.paymentIntent],
  ];
  for (const [column, value] of known)
    if (value && order[column] === null) {
      await db.run(`UPDATE orders SET ${column} = ? WHERE id = ?`, [value, order.id!]);
      order[column] = value;
    }
}

const paidTransaction = (db: ChannelDb, orderId: number) =>
  db.get("SELECT 1 AS ok FROM transactions WHERE order_id = ? AND status IN ('paid', 'refunded') LIMIT 1", [orderId]);

/** The order fails (a refused first payment, an abandoned one): only while it is still being paid. */
async function fail(db: ChannelDb, order: Row, message: string, at: number): Promise<boolean> {
  if (order.status !== 'created') return false;
  await db.run(
    "UPDATE orders SET status = 'failed', activity_status = 'inactive', error = ?, updated_at = ?, payment_attempt_at = NULL WHERE id = ?",
    [message, at, order.id!],
  );
  await db.run("UPDATE transactions SET status = 'failed' WHERE order_id = ? AND status = 'created'", [order.id!]);
  return true;
}

async function payment(db: ChannelDb, order: Row, fact: Extract<PaymentFact, { kind: 'payment' }>): Promise<boolean> {
  const { state, at } = fact;
  if (state.status === 'failed') return fail(db, order, state.message, at);
  // A subscription is paid by its invoices; a one-time order by its intent.
  if (state.status !== 'succeeded' || order.type === 'subscription') return false;
  if (order.status !== 'created' && order.status !== 'failed') return false;
  await db.run(
    `UPDATE orders SET status = 'paid', activity_status = 'active', error = NULL, updated_at = ?, payment_attempt_at = NULL
     WHERE id = ?`,
    [at, order.id!],
  );
  await db.run("UPDATE transactions SET status = 'paid' WHERE order_id = ? AND status IN ('created', 'failed')", [
    order.id!,
  ]);
  return true;
}

async function invoice(db: ChannelDb, order: Row, fact: Extract<PaymentFact, { kind: 'invoice' }>): Promise<boolean> {
  if (order.type !== 'subscription') return false;
  const orderId = Number(order.id);
  // A trial's invoice of nothing pays for nothing: the trial starts with its card (a setup fact).
  if (fact.paid && fact.amount <= 0) return false;
  const existing = await db.get('SELECT * FROM transactions WHERE order_id = ? AND invoice = ?', [
    orderId,
    fact.invoice,
  ]);
  if (
    existing &&
    (existing.status === 'paid' || existing.status === 'refunded' || (!fact.paid && existing.status === 'failed'))
  )
    return false;
  const status = fact.paid ? 'paid' : 'failed';
  const opening = order.status === 'created';
  if (existing) {
    await db.run('UPDATE transactions SET status = ?, amount = ? WHERE id = ?', [status, fact.amount, existing.id!]);
  } else if (
    opening &&
    (await db.run(
      "UPDATE transactions SET status = ?, invoice = ?, amount = ?, currency = ? WHERE order_id = ? AND status = 'created' AND invoice IS NULL",
      [status, fact.invoice, fact.amount, fact.currency, orderId],
    )) > 0
  ) {
    // The purchase's own transaction now names its invoice.
  } else {
    const label = (await paidTransaction(db, orderId)) ? 'Subscription Renewal' : 'New subscription';
    await db.run(
      'INSERT INTO transactions (order_id, user_id, status, amount, currency, label, created_at, invoice) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [orderId, order.user_id!, status, fact.amount, fact.currency, label, fact.at, fact.invoice],
    );
  }
  if (!fact.paid) {
    if (opening) return fail(db, order, fact.message ?? 'The payment failed.', fact.at);
    if (order.status === 'paid' && !fact.first)
      await db.run(
        "UPDATE orders SET activity_status = 'inactive', subscription_status = 'inactive', error = ?, updated_at = ? WHERE id = ?",
        [fact.message ?? 'The payment failed.', fact.at, orderId],
      );
    return true;
  }
  // Refunded or disputed orders keep their state; the invoice is recorded all the same.
  if (order.status !== 'created' && order.status !== 'failed' && order.status !== 'paid') return true;
  await db.run(
    `UPDATE orders SET status = 'paid', activity_status = 'active', subscription_status = 'active',
       auto_renewal = coalesce(auto_renewal, 'active'), error = NULL, payment_attempt_at = NULL, updated_at = ?,
       expires_at = greatest(coalesce(expires_at, 0), ?) WHERE id = ?`,
    [fact.at, fact.periodEnd, orderId],
  );
  return true;
}

async function subscription(
  db: ChannelDb,
  order: Row,
  fact: Extract<PaymentFact, { kind: 'subscription' }>,
): Promise<boolean> {
  if (order.type !== 'subscription') return false;
  if (order.processor_read_at !== null && Number(order.processor_read_at) > fact.readAt) return false;
  await db.run('UPDATE orders SET processor_read_at = ? WHERE id = ?', [fact.readAt, order.id!]);
  const ended = fact.status === 'canceled' || fact.status === 'incomplete_expired';
  if (order.status === 'created') return ended ? fail(db, order, SETTLEMENT_MESSAGES.notCompleted, fact.at) : false;
  if (order.status !== 'paid') return false;
  const live = fact.status === 'active' || fact.status === 'trialing';
  const next = {
    activity_status: live ? 'active' : 'inactive',
    subscription_status: live ? 'active' : ended ? (fact.cancelAtPeriodEnd ? 'expired' : 'canceled') : 'inactive',
    auto_renewal: ended || fact.cancelAtPeriodEnd ? 'cancelled' : 'active',
    expires_at: live
      ? Math.max(
          Number(order.expires_at ?? 0),
          fact.status === 'trialing' ? (fact.trialEnd ?? fact.periodEnd) : fact.periodEnd,
        )
      : order.expires_at === null
        ? null
        : Number(order.expires_at),
  };
  const same = (Object.keys(next) as Array<keyof typeof next>).every((key) =>
    key === 'expires_at'
      ? (order.expires_at === null ? null : Number(order.expires_at)) === next.expires_at
      : order[key] === next[key],
  );
  if (same) return false;
  await db.run(
    'UPDATE orders SET activity_status = ?, subscription_status = ?, auto_renewal = ?, expires_at = ?, updated_at = ? WHERE id = ?',
    [next.activity_status, next.subscription_status, next.auto_renewal, next.expires_at, fact.at, order.id!],
  );
  return true;
}

async function setup(db: ChannelDb, order: Row, fact: Extract<PaymentFact, { kind: 'setup' }>): Promise<boolean> {
  if (fact.state.status === 'failed') return fail(db, order, fact.state.message, fact.at);
  if (fact.state.status !== 'succeeded' || order.status !== 'created' || !order.is_trial) return false;
  // The trial's card is saved: the trial starts, and the account's one trial is used.
  await db.run(
    `UPDATE orders SET status = 'paid', activity_status = 'active', subscription_status = 'active',
       auto_renewal = 'active', error = NULL, payment_attempt_at = NULL, updated_at = ? WHERE id = ?`,
    [fact.at, order.id!],
  );
  await db.run('UPDATE users SET trial_period_used = 1, updated_at = ? WHERE id = ?', [fact.at, order.user_id!]);
  return true;
}

async function refund(db: ChannelDb, order: Row, fact: Extract<PaymentFact, { kind: 'refund' }>): Promise<boolean> {
  if (order.status === 'refunded') return false;
  await db.run(
    "UPDATE orders SET status = 'refunded', activity_status = 'inactive', error = ?, payment_attempt_at = NULL, updated_at = ? WHERE id = ?",
    [SETTLEMENT_MESSAGES.refunded, fact.at, order.id!],
  );
  if (fact.invoice)
    await db.run("UPDATE transactions SET status = 'refunded' WHERE order_id = ? AND invoice = ?", [
      order.id!,
      fact.invoice,
    ]);
  else await db.run("UPDATE transactions SET status = 'refunded' WHERE order_id = ? AND status = 'paid'", [order.id!]);
  return true;
}

async function dispute(db: ChannelDb, order: Row, fact: Extract<PaymentFact, { kind: 'dispute' }>): Promise<boolean> {
  if (order.status === 'refunded' || order.status === 'disputed') return false;
  await db.run(
    "UPDATE orders SET status = 'disputed', activity_status = 'inactive', error = ?, updated_at = ? WHERE id = ?",
    [SETTLEMENT_MESSAGES.disputed(fact.reason), fact.at, order.id!],
  );
  return true;
}

/**
 * What an applied fact meant for the buyer. `at`: when (UNIX seconds). A purchase is paid by its first charge (a
 * one-time payment, or a subscription's first invoice that charged anything, after a trial too); a renewal by a later
 * invoice.
 */
export type PaymentEvent =
  | { type: 'purchase_paid'; orderId: number; at: number }
  | { type: 'purchase_failed'; orderId: number; at: number; message: string }
  | { type: 'renewal_paid'; orderId: number; at: number }
  | { type: 'renewal_failed'; orderId: number; at: number; message: string };

/** Told of one payment event applied, in its transaction, with the order's row as it was before. */
export type PaymentListener = (event: PaymentEvent, order: Row) => Promise<void>;

/** The listeners of each database's payment events (app/server.ts adds the receipts). */
const listeners = new WeakMap<ChannelDb, PaymentListener[]>();

/** Tells `listener` of every payment event applied on `db` from now on, inside the event's transaction. */
export function onPaymentApplied(db: ChannelDb, listener: PaymentListener): void {
  listeners.set(db, [...(listeners.get(db) ?? []), listener]);
}

/**
 * The event a fact that changed its order means for the buyer, if any (a subscription's state read back, a trial
 * starting, a refund or a dispute tell nothing of their own). `before`: the order's row before the fact;
 * `firstCharge`: no paid transaction before it.
 */
function eventOf(fact: PaymentFact, before: Row, firstCharge: boolean): PaymentEvent | undefined {
  const orderId = Number(before.id);
  const { at } = fact;
  if (fact.kind === 'payment') {
    if (fact.state.status === 'failed') return { type: 'purchase_failed', orderId, at, message: fact.state.message };
    return fact.state.status === 'succeeded' && before.type !== 'subscription'
      ? { type: 'purchase_paid', orderId, at }
      : undefined;
  }
  if (fact.kind !== 'invoice') return undefined;
  const message = fact.message ?? 'The payment failed.';
  if (fact.paid) {
    if (before.status !== 'created' && before.status !== 'failed' && before.status !== 'paid') return undefined;
    return { type: firstCharge ? 'purchase_paid' : 'renewal_paid', orderId, at };
  }
  if (before.status === 'created') return { type: 'purchase_failed', orderId, at, message };
  return before.status === 'paid' && !fact.first ? { type: 'renewal_failed', orderId, at, message } : undefined;
}

/**
 * Applies one fact to the order it is about (in the channel `channel`), in one transaction holding the order's row.
 * Answers the order's id when the fact changed it, undefined when it changed nothing (about no order of this channel,
 * applied already, or about an order past it).
 */
export async function applyPaymentEvent(
  db: ChannelDb,
  channel: { id: number; key: string },
  fact: PaymentFact,
): Promise<number | undefined> {
  return db.transaction(async () => {
    const order = await orderOf(db, channel, fact.refs);
    if (!order) return undefined;
    await remember(db, order, fact.refs);
    const before = { ...order };
    const firstCharge = fact.kind === 'invoice' && !(await paidTransaction(db, Number(order.id)));
    const apply = { payment, invoice, subscription, setup, refund, dispute }[fact.kind] as (
      db: ChannelDb,
      order: Row,
      fact: PaymentFact,
    ) => Promise<boolean>;
    if (!(await apply(db, order, fact))) return undefined;
    const event = eventOf(fact, before, firstCharge);
    if (event) for (const listener of listeners.get(db) ?? []) await listener(event, before);
    return Number(order.id);
  });
}
