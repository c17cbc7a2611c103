/**
 * What a signed-in user has bought: `GET orders`, `GET orders/{id}` and `GET transactions`, in the contract's Order
 * and Transaction shapes (the user's clips are clips.ts). Lists are paginated like the offers
 * (20 by default, `limit`/`offset`, everything with `no_limit=1`), newest first.
 */
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { idOf, listWindow, numberOrNull, textOrNull, type ApiRequest, type Handlers } from '../http/handler.js';
import { HttpError } from '../http/http.js';

/** The product an order is for, as Order.product (the name included) from its type and ids. */
async function productOf(
  db: ChannelDb,
  order: Row,
): Promise<{
  id: number;
  name: string | null;
  event_category_id: number | null;
  participant_id: number | null;
  offer?: string;
}> {
  const id = Number(order.product_id);
  const participant_id = numberOrNull(order.participant_id);
  if (order.type === 'event') {
    const event = await db.get('SELECT name, category_id FROM events WHERE id = ?', [id]);
    return { id, name: textOrNull(event?.name), event_category_id: numberOrNull(event?.category_id), participant_id };
  }
  if (order.type === 'package') {
    const pkg = await db.get('SELECT name FROM packages WHERE id = ?', [id]);
    // The package's top category (its link table also lists the subcategories it covers).
    const top = await db.get(
      `SELECT pc.category_id FROM package_categories pc JOIN categories c ON c.id = pc.category_id
       WHERE pc.package_id = ? AND (c.parent_id IS NULL OR c.parent_id NOT IN (SELECT category_id FROM package_categories WHERE package_id = ?))
       ORDER BY c.position, c.id LIMIT 1`,
      [id, id],
    );
    return { id, name: textOrNull(pkg?.name), event_category_id: numberOrNull(top?.category_id), participant_id };
  }
  const sub = await db.get('SELECT name, offer FROM subscriptions WHERE id = ?', [id]);
  return {
    id,
    name: textOrNull(sub?.name),
    event_category_id: null,
    participant_id,
    offer: String(sub?.offer ?? 'monthly'),
  };
}

const DAY = 86400;

/** The end of a subscription period that starts at `from`: monthly every 30 days, annual every 12 months. */
export function addPeriod(from: number, offer: string): number {
  if (offer !== 'annual') return from + 30 * DAY;
  const next = new Date(from * 1000);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next.getTime() / 1000;
}

/** The end of the current paid period of a subscription that renews period after period from `start`. */
export function nextRenewal(start: number, offer: string, now: number): number {
  let end = start;
  for (let n = 0; n < 2000; n++) {
    end = addPeriod(end, offer);
    if (end > now) return end;
  }
  return now;
}

const isActive = (order: Row) => order.status === 'paid' && order.activity_status === 'active';

/** An order row as the contract's Order. */
export async function orderJson(db: ChannelDb, order: Row, now: number): Promise<Record<string, unknown>> {
  const { offer, ...product } = await productOf(db, order);
  const subscription = order.type === 'subscription';
  // An auto-renewing subscription has no stored end: it lasts until cancelled, paid period by paid period.
  const renewing = subscription && isActive(order) && order.auto_renewal !== 'cancelled' && order.expires_at === null;
  return {
    id: Number(order.id),
    type: String(order.type),
    status: String(order.status),
    activity_status: textOrNull(order.activity_status),
    product,
    price: numberOrNull(order.price),
    currency: textOrNull(order.currency),
    reference: textOrNull(order.reference) ?? `R-${String(order.id).padStart(6, '0')}`,
    created_at: Number(order.created_at),
    expires_at: renewing
      ? nextRenewal(Number(order.created_at), offer ?? 'monthly', now)
      : numberOrNull(order.expires_at),
    subscription_status: subscription
      ? (textOrNull(order.subscription_status) ?? (isActive(order) ? 'active' : 'inactive'))
      : null,
    auto_renewal: subscription ? (textOrNull(order.auto_renewal) ?? (isActive(order) ? 'active' : null)) : null,
    error: textOrNull(order.error) ?? (order.status === 'failed' ? 'The payment failed.' : null),
  };
}

/** Rows of one of the user's tables, newest first, in the window the query asks for. */
async function userList(db: ChannelDb, r: ApiRequest, table: string, userId: SqlValue) {
  const total = Number((await db.get(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`, [userId]))?.n ?? 0);
  const { meta, sqlLimit } = listWindow(r.query, total);
  const rows = await db.all(
    `SELECT * FROM ${table} WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    [userId, sqlLimit, meta.offset],
  );
  return { rows, meta };
}

/** The contract's handlers for the signed-in user's orders and transactions (clips are clips.ts). */
export function accountDataHandlers(db: ChannelDb): Handlers<'orders' | 'order' | 'transactions'> {
  return {
    orders: async (r) => {
      const { rows, meta } = await userList(db, r, 'orders', (await r.user()).id!);
      return { data: await Promise.all(rows.map((row) => orderJson(db, row, r.clock.now))), meta };
    },
    order: async (r) => {
      const user = await r.user();
      const id = idOf(r.params.id);
      const row =
        id === undefined
          ? undefined
          : await db.get('SELECT * FROM orders WHERE id = ? AND user_id = ?', [id, user.id!]);
      // Someone else's order is as unknown as a missing one.
      if (!row) throw new HttpError(404, 'Order not found.');
      return { data: await orderJson(db, row, r.clock.now) };
    },
    transactions: async (r) => {
      const { rows, meta } = await userList(db, r, 'transactions', (await r.user()).id!);
      const names = new Map<number, string | null>();
      for (const orderId of new Set(rows.map((row) => Number(row.order_id)))) {
        const order = await db.get('SELECT * FROM orders WHERE id = ?', [orderId]);
        names.set(orderId, order ? (await productOf(db, order)).name : null);
      }
      const nameOf = (orderId: number) => names.get(orderId) ?? null;
      return {
        data: rows.map((row) => ({
          id: Number(row.id),
          order_id: Number(row.order_id),
          status: String(row.status),
          amount: Number(row.amount),
          currency: textOrNull(row.currency),
          created_at: Number(row.created_at),
          product_name: nameOf(Number(row.order_id)),
          label: textOrNull(row.label),
        })),
        meta,
      };
    },
  };
}
