/**
 * Settling what falls due on the server clock, as payment webhooks would: a pending purchase is paid or failed by its
 * test card's outcome at its `settles_at` moment (its card saved when asked), an auto-renewal cancellation finishes,
 * a subscription whose period ended is renewed period by period with its card (or made inactive when the card is
 * declined), and a cancelled one expires. payments.ts runs `settle()` before every API call and asks for a later run
 * after a purchase or cancellation, so reads after the delay see the outcome, after a restart too.
 */
import { addPeriod } from './account-data.js';
import type { ChannelDb, Row } from './db.js';
import { DECLINE_MESSAGES, saveCard, type Outcome } from './dev/stripe.js';

/** At most this many periods are renewed at once (a clock moved years ahead should not write thousands of rows). */
const MAX_RENEWALS = 36;

/** Payment settling over one database, on the server clock `clockMs` (ms). */
export function createSettlement(
  db: ChannelDb,
  clockMs: () => number,
): { settle(): void; settleLater(ms: number): void; stop(): void } {
  const timers = new Set<NodeJS.Timeout>();

  /** Runs settle() once `ms` have passed (the reads in between settle lazily anyway). */
  function settleLater(ms: number): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      try {
        settle();
      } catch (error) {
        console.error('[channel-server] settling payments failed', error);
      }
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  /** What charging an order's card does (a card that is gone is declined). */
  const outcomeOf = (order: Row) =>
    String(
      db.get('SELECT outcome FROM payment_methods WHERE id = ?', [order.payment_method ?? null])?.outcome ??
        'card_declined',
    ) as Outcome;

  /** A pending order settled by its card's outcome (at its settles_at moment). */
  function settleOrder(order: Row): void {
    const at = Math.floor(Number(order.settles_at) / 1000);
    const outcome = outcomeOf(order);
    if (outcome === 'succeeded') {
      const subscription = order.type === 'subscription';
      const offer = subscription
        ? String(db.get('SELECT offer FROM subscriptions WHERE id = ?', [order.product_id!])?.offer ?? 'monthly')
        : null;
      db.run(
        `UPDATE orders SET status = 'paid', activity_status = 'active', settles_at = NULL, updated_at = ?, expires_at = ?,
           subscription_status = ?, auto_renewal = ? WHERE id = ?`,
        [
          at,
          offer ? addPeriod(at, offer) : null,
          subscription ? 'active' : null,
          subscription ? 'active' : null,
          order.id!,
        ],
      );
      if (order.save_card) saveCard(db, Number(order.user_id), String(order.payment_method));
    } else {
      db.run(
        "UPDATE orders SET status = 'failed', activity_status = 'inactive', settles_at = NULL, updated_at = ?, error = ? WHERE id = ?",
        [at, DECLINE_MESSAGES[outcome], order.id!],
      );
    }
    db.run("UPDATE transactions SET status = ? WHERE order_id = ? AND status = 'created'", [
      outcome === 'succeeded' ? 'paid' : 'failed',
      order.id!,
    ]);
  }

  /** A subscription whose period ended: renewed period by period with its card while auto-renewal is on, else expired. */
  function renewOrExpire(order: Row, now: number): void {
    let end = Number(order.expires_at);
    if (order.auto_renewal === 'cancelled') {
      db.run(
        "UPDATE orders SET activity_status = 'inactive', subscription_status = 'expired', updated_at = ? WHERE id = ?",
        [end, order.id!],
      );
      return;
    }
    const sub = db.get('SELECT offer, price FROM subscriptions WHERE id = ?', [order.product_id!]);
    const outcome = outcomeOf(order);
    let charged = Number(
      db.get("SELECT count(*) AS n FROM transactions WHERE order_id = ? AND status = 'paid'", [order.id!])?.n ?? 0,
    );
    for (let n = 0; end <= now && n < MAX_RENEWALS; n++) {
      const label = charged === 0 ? 'New subscription' : 'Subscription Renewal'; // a trial's first charge opens it
      db.run(
        'INSERT INTO transactions (order_id, user_id, status, amount, currency, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          order.id!,
          order.user_id!,
          outcome === 'succeeded' ? 'paid' : 'failed',
          Number(sub?.price ?? order.price ?? 0),
          order.currency ?? null,
          label,
          end,
        ],
      );
      if (outcome !== 'succeeded') {
        db.run(
          "UPDATE orders SET activity_status = 'inactive', subscription_status = 'inactive', auto_renewal = 'cancelled', error = ?, updated_at = ? WHERE id = ?",
          [DECLINE_MESSAGES[outcome], end, order.id!],
        );
        return;
      }
      charged++;
      end = addPeriod(end, String(sub?.offer ?? 'monthly'));
    }
    db.run('UPDATE orders SET expires_at = ?, updated_at = ? WHERE id = ?', [end, now, order.id!]);
  }

  /** Settles whatever is due at the server clock's now (see the header). */
  function settle(): void {
    const nowMs = clockMs();
    const now = Math.floor(nowMs / 1000);
    for (const order of db.all(
      'SELECT * FROM orders WHERE settles_at IS NOT NULL AND settles_at <= ? ORDER BY settles_at',
      [nowMs],
    ))
      settleOrder(order);
    // Every write schedules a save of the database file, so nothing is written unless something fell due.
    if (
      db.get('SELECT 1 AS due FROM orders WHERE renewal_cancel_at IS NOT NULL AND renewal_cancel_at <= ? LIMIT 1', [
        nowMs,
      ])
    ) {
      db.run(
        "UPDATE orders SET auto_renewal = 'cancelled', renewal_cancel_at = NULL, updated_at = ? WHERE renewal_cancel_at IS NOT NULL AND renewal_cancel_at <= ?",
        [now, nowMs],
      );
    }
    const ended = db.all(
      `SELECT * FROM orders WHERE type = 'subscription' AND status = 'paid' AND activity_status = 'active' AND expires_at IS NOT NULL
       AND expires_at <= ? AND renewal_cancel_at IS NULL`,
      [now],
    );
    for (const order of ended) renewOrExpire(order, now);
  }

  return {
    settle,
    settleLater,
    /** Clears the timers of later runs (the server is stopping). */
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
