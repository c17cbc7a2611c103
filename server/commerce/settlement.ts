/**
 * Settling what falls due on the server clock: a pending purchase is charged at its `settles_at` moment, paid or
 * failed by what the card processor answers (providers/provider.ts; its card saved when asked), an auto-renewal
 * cancellation finishes, a subscription whose period ended is renewed period by period with its card (or made
 * inactive when the card is declined), and a cancelled one expires.
 *
 * Money moves only through `applyPaymentEvent`: what the processor said about one order (a purchase paid or failed,
 * a renewal period paid or failed), applied once to the order's row and its transactions. The timers below get those
 * events by charging what is due; a processor's signed webhook will hand it the same events. Whatever else an applied
 * event means (the viewer's receipt: mail/receipts.ts) listens through `onPaymentApplied`, in the event's
 * transaction, whoever applied it.
 *
 * Who settles. Any process: each order is settled in a transaction that locks its row (`FOR UPDATE`; the timers
 * `SKIP LOCKED` rows another process holds) and checks it is still due, so an order is settled exactly once however
 * many processes try at the same moment.
 * A signed-in caller's due orders are settled before their request reads anything (routes.ts, `settleFor`), a timer
 * settles everyone's every SETTLE_INTERVAL_MS, and a purchase or cancellation asks for a run at its due time, so any
 * read after the delay sees the outcome, after a restart too.
 */
import { addPeriod } from './account-data.js';
import type { ChannelDb, Row } from '../storage/db.js';
import { PAYMENTS_OFF, type PaymentProvider } from './providers/provider.js';

/** What settling needs of the card processor: charging an order, and keeping a paid order's card. */
export type Charger = Pick<PaymentProvider, 'charge' | 'saveCard'>;
import { log } from '../observability/log.js';

/** At most this many periods are renewed at once (a clock moved years ahead should not write thousands of rows). */
const MAX_RENEWALS = 36;
/** How often every process looks for anything due (a purchase's own timer comes sooner). */
export const SETTLE_INTERVAL_MS = 5000;

/** What is due: pending purchases, finishing cancellations, ended subscription periods (of one user, or everyone). */
const DUE = `
  SELECT id FROM orders WHERE settles_at IS NOT NULL AND settles_at <= :nowMs AND (:user::bigint IS NULL OR user_id = :user)
  UNION
  SELECT id FROM orders WHERE renewal_cancel_at IS NOT NULL AND renewal_cancel_at <= :nowMs
    AND (:user::bigint IS NULL OR user_id = :user)
  UNION
  SELECT id FROM orders WHERE type = 'subscription' AND status = 'paid' AND activity_status = 'active'
    AND expires_at IS NOT NULL AND expires_at <= :now AND renewal_cancel_at IS NULL
    AND (:user::bigint IS NULL OR user_id = :user)
  ORDER BY id`;

/**
 * What the card processor said about one order. `at` is when (UNIX seconds): a purchase's settling moment, or the
 * start of the renewal period that was charged (which also names that period, so it is applied once).
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
 * Applies one payment event to its order, in one transaction holding the order's row: a purchase's only while it is
 * still being paid, a renewal's only for the period the order is at. Answers whether it changed anything (an event
 * applied already, or about an order in another state, changes nothing: a webhook delivered twice counts once).
 */
export async function applyPaymentEvent(
  db: ChannelDb,
  provider: Charger,
  event: PaymentEvent,
  now: number,
): Promise<boolean> {
  return db.transaction(async () => {
    const order = await db.get('SELECT * FROM orders WHERE id = ? FOR UPDATE', [event.orderId]);
    if (!order) return false;
    if (event.type === 'purchase_paid' || event.type === 'purchase_failed') {
      if (order.status !== 'created' || order.settles_at === null) return false;
      if (event.type === 'purchase_paid') {
        const subscription = order.type === 'subscription';
        const offer = subscription
          ? String(
              (await db.get('SELECT offer FROM subscriptions WHERE id = ?', [order.product_id!]))?.offer ?? 'monthly',
            )
          : null;
        await db.run(
          `UPDATE orders SET status = 'paid', activity_status = 'active', settles_at = NULL, updated_at = ?, expires_at = ?,
             subscription_status = ?, auto_renewal = ? WHERE id = ?`,
          [
            event.at,
            offer ? addPeriod(event.at, offer) : null,
            subscription ? 'active' : null,
            subscription ? 'active' : null,
            order.id!,
          ],
        );
        if (order.save_card) await provider.saveCard(Number(order.user_id), String(order.payment_method));
      } else {
        await db.run(
          "UPDATE orders SET status = 'failed', activity_status = 'inactive', settles_at = NULL, updated_at = ?, error = ? WHERE id = ?",
          [event.at, event.message, order.id!],
        );
      }
      await db.run("UPDATE transactions SET status = ? WHERE order_id = ? AND status = 'created'", [
        event.type === 'purchase_paid' ? 'paid' : 'failed',
        order.id!,
      ]);
      for (const listener of listeners.get(db) ?? []) await listener(event, order);
      return true;
    }
    // A renewal: of the period that starts where the order's paid time ends, while it renews.
    const renews =
      order.type === 'subscription' &&
      order.status === 'paid' &&
      order.activity_status === 'active' &&
      order.auto_renewal !== 'cancelled' &&
      Number(order.expires_at) === event.at;
    if (!renews) return false;
    const sub = await db.get('SELECT offer, price FROM subscriptions WHERE id = ?', [order.product_id!]);
    const charged = Number(
      (await db.get("SELECT count(*) AS n FROM transactions WHERE order_id = ? AND status = 'paid'", [order.id!]))?.n ??
        0,
    );
    const label = charged === 0 ? 'New subscription' : 'Subscription Renewal'; // a trial's first charge opens it
    const paid = event.type === 'renewal_paid';
    await db.run(
      'INSERT INTO transactions (order_id, user_id, status, amount, currency, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        order.id!,
        order.user_id!,
        paid ? 'paid' : 'failed',
        Number(sub?.price ?? order.price ?? 0),
        order.currency ?? null,
        label,
        event.at,
      ],
    );
    if (paid) {
      await db.run('UPDATE orders SET expires_at = ?, updated_at = ? WHERE id = ?', [
        addPeriod(event.at, String(sub?.offer ?? 'monthly')),
        now,
        order.id!,
      ]);
    } else {
      await db.run(
        "UPDATE orders SET activity_status = 'inactive', subscription_status = 'inactive', auto_renewal = 'cancelled', error = ?, updated_at = ? WHERE id = ?",
        [event.message, event.at, order.id!],
      );
    }
    for (const listener of listeners.get(db) ?? []) await listener(event, order);
    return true;
  });
}

/**
 * Payment settling over one database, on the server clock `clockMs` (ms), charging through the card processor.
 * Without one nothing can be charged: what falls due (a database's pending purchases and renewals from a start that
 * had a processor) fails with PAYMENTS_OFF, as a declined card does, rather than waiting for ever.
 */
export function createSettlement(
  db: ChannelDb,
  clockMs: () => number,
  provider: PaymentProvider | undefined,
): {
  settle(): Promise<void>;
  settleFor(userId: number): Promise<void>;
  settleLater(ms: number): void;
  stop(): void;
} {
  const timers = new Set<NodeJS.Timeout>();
  /** The processor settling charges, or, without one, one that charges nothing. */
  const charger: Charger = provider ?? {
    charge: async () => ({ paid: false, message: PAYMENTS_OFF }),
    saveCard: async () => undefined,
  };

  /** Runs settle() once `ms` have passed (the reads in between settle lazily anyway). */
  function settleLater(ms: number): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      settleDue(null).catch((error: unknown) => log().error({ err: error }, 'settling payments failed'));
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  /** A pending order charged at its settles_at moment, and the outcome applied. */
  async function settleOrder(order: Row, now: number): Promise<void> {
    const at = Math.floor(Number(order.settles_at) / 1000);
    const charge = await charger.charge(order);
    const orderId = Number(order.id);
    await applyPaymentEvent(
      db,
      charger,
      charge.paid
        ? { type: 'purchase_paid', orderId, at }
        : { type: 'purchase_failed', orderId, at, message: charge.message },
      now,
    );
  }

  /** A subscription whose period ended: renewed period by period with its card while auto-renewal is on, else expired. */
  async function renewOrExpire(order: Row, now: number): Promise<void> {
    const end = Number(order.expires_at);
    if (order.auto_renewal === 'cancelled') {
      await db.run(
        "UPDATE orders SET activity_status = 'inactive', subscription_status = 'expired', updated_at = ? WHERE id = ?",
        [end, order.id!],
      );
      return;
    }
    const orderId = Number(order.id);
    for (let n = 0; n < MAX_RENEWALS; n++) {
      const current = await db.get('SELECT * FROM orders WHERE id = ?', [orderId]);
      const at = Number(current?.expires_at);
      if (!current || current.activity_status !== 'active' || !(at <= now)) return;
      const charge = await charger.charge(current);
      const event: PaymentEvent = charge.paid
        ? { type: 'renewal_paid', orderId, at }
        : { type: 'renewal_failed', orderId, at, message: charge.message };
      if (!(await applyPaymentEvent(db, charger, event, now)) || !charge.paid) return;
    }
  }

  /**
   * Settles one order if it is still due, holding its row: another process settling it at the same moment skips it
   * (SKIP LOCKED), and one that comes after sees it no longer due.
   */
  async function settleOne(id: number, nowMs: number, wait: boolean): Promise<void> {
    const now = Math.floor(nowMs / 1000);
    await db.transaction(async () => {
      const order = await db.get(`SELECT * FROM orders WHERE id = ? FOR UPDATE${wait ? '' : ' SKIP LOCKED'}`, [id]);
      if (!order) return;
      if (order.settles_at !== null && Number(order.settles_at) <= nowMs) {
        await settleOrder(order, now);
        return;
      }
      if (order.renewal_cancel_at !== null && Number(order.renewal_cancel_at) <= nowMs) {
        await db.run(
          "UPDATE orders SET auto_renewal = 'cancelled', renewal_cancel_at = NULL, updated_at = ? WHERE id = ?",
          [now, id],
        );
        return;
      }
      const ended =
        order.type === 'subscription' &&
        order.status === 'paid' &&
        order.activity_status === 'active' &&
        order.expires_at !== null &&
        Number(order.expires_at) <= now &&
        order.renewal_cancel_at === null;
      if (ended) await renewOrExpire(order, now);
    });
  }

  /**
   * Settles whatever is due at the server clock's now (of one user, or everyone's); see the header. A user's own
   * request waits for an order another process is settling at that moment (its answer must show the outcome); the
   * timers skip it.
   */
  async function settleDue(userId: number | null): Promise<void> {
    const nowMs = clockMs();
    const params = { ':nowMs': nowMs, ':now': Math.floor(nowMs / 1000), ':user': userId };
    // An order can be due twice over (a renewal after its cancellation finished): a few passes settle both.
    for (let pass = 0; pass < 3; pass++) {
      const due = await db.all(DUE, params);
      if (due.length === 0) return;
      for (const row of due) await settleOne(Number(row.id), nowMs, userId !== null);
    }
  }

  const interval = setInterval(() => {
    settleDue(null).catch((error: unknown) => log().error({ err: error }, 'settling payments failed'));
  }, SETTLE_INTERVAL_MS);
  interval.unref();

  return {
    settle: () => settleDue(null),
    settleFor: (userId) => settleDue(userId),
    settleLater,
    /** Clears the timers (the server is stopping). */
    stop() {
      clearInterval(interval);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
