/**
 * What the dev pages and endpoints show of a channel's sales: its orders with their payment details
 * (`GET /__dev/orders`) and its sales per partner (the dev analytics page).
 */
import { orderJson } from './account-data.js';
import { cents } from './products.js';
import type { ChannelDb, SqlValue } from '../storage/db.js';

/** A partner's sales (GET /__dev/analytics, `partners`): orders made and paid, and paid amounts per currency. */
export interface PartnerSales {
  /** The partner's slug; null for the orders no partner brought. */
  partner: string | null;
  orders: number;
  paid: number;
  /** Currency code -> amount of paid transactions. */
  revenue: Record<string, number>;
}

/** The sales of one database, on the server clock's seconds. */
export function createSales(db: ChannelDb, nowSeconds: () => number) {
  /** `GET /__dev/orders`: a channel's orders (of one email, when given), newest first, with their payment details. */
  async function devOrders(channelKey: string, email: string | null): Promise<unknown[]> {
    const rows = await db.all(
      `SELECT o.*, u.email FROM orders o JOIN users u ON u.id = o.user_id JOIN channels c ON c.id = o.channel_id
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
        payment_intent: row.payment_intent,
        subscription: row.processor_subscription,
        transactions: (
          await db.all(
            'SELECT id, status, amount, currency, label, invoice FROM transactions WHERE order_id = ? ORDER BY id',
            [row.id!],
          )
        ).map((t) => ({
          id: Number(t.id),
          status: String(t.status),
          amount: Number(t.amount),
          currency: t.currency,
          label: t.label,
          invoice: t.invoice,
        })),
      })),
    );
  }

  /**
   * A channel's sales per partner (orders made at or after `since`, server seconds): orders made, orders paid, and
   * what paid transactions brought in (renewals included), per currency; orders with no partner are the row whose
   * partner is null (sold directly). In order of first appearance.
   */
  async function partnerSales(channelKey: string, since = 0): Promise<PartnerSales[]> {
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

  return { devOrders, partnerSales };
}
