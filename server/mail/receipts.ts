/**
 * The emails payments send, queued in the transaction that applies the payment event (commerce/settlement.ts
 * `onPaymentApplied`), whoever applies it (Stripe's answer to the purchase, its verified webhook, or the
 * reconciliation's read-back, in any process: once): a purchase paid gets a receipt, a renewal paid says so with its
 * amount, and a renewal refused says so. A purchase refused is told by the checkout itself, on the page, and gets no
 * email. Each goes to the buyer, in their account's language (else the channel's), and links to their orders.
 */
import type { PaymentEvent, PaymentListener } from '../commerce/settlement.js';
import type { ChannelDb, Row } from '../storage/db.js';
import { languageOf, siteLink, type Mailer } from './mail.js';

export interface ReceiptContext {
  db: ChannelDb;
  mailer: Mailer;
  /** A channel's settings as served (its site_url). */
  settingsOf(channelId: number): Record<string, unknown>;
  /** This server's public origin (the account page, when the channel names no site). */
  origin(): string;
  /** The server clock, ms. */
  nowMs(): number;
}

/** The name of what an order bought. */
async function productName(db: ChannelDb, order: Row): Promise<string> {
  const table = { event: 'events', package: 'packages', subscription: 'subscriptions' }[String(order.type)];
  const row = table ? await db.get(`SELECT name FROM ${table} WHERE id = ?`, [order.product_id!]) : undefined;
  return row ? String(row.name) : `#${String(order.product_id)}`;
}

/** The listener that queues the payment emails. */
export function paymentEmails(ctx: ReceiptContext): PaymentListener {
  const { db, mailer } = ctx;

  /** Where the buyer sees their orders: the channel's site, else this server's account page for the channel. */
  async function ordersLink(channelId: number): Promise<string> {
    const site = ctx.settingsOf(channelId).site_url;
    if (typeof site === 'string' && site.trim() !== '') return siteLink(site.trim(), '/profile', {});
    const channel = await db.get('SELECT channel_key FROM channels WHERE id = ?', [channelId]);
    return siteLink(ctx.origin(), '/login', { channel_key: String(channel?.channel_key ?? '') });
  }

  return async (event: PaymentEvent, before: Row) => {
    if (event.type === 'purchase_failed') return;
    const order = await db.get('SELECT * FROM orders WHERE id = ?', [event.orderId]);
    const user = order
      ? await db.get('SELECT id, email, first_name, language FROM users WHERE id = ?', [order.user_id!])
      : undefined;
    if (!order || !user) return;
    const channelId = Number(order.channel_id);
    const common = {
      name: user.first_name ? String(user.first_name) : null,
      product: await productName(db, order),
      link: await ordersLink(channelId),
    };
    const currency = String(order.currency ?? 'USD');
    const letter =
      event.type === 'purchase_paid'
        ? {
            kind: 'receipt' as const,
            ...common,
            amount: Number(order.price ?? 0),
            currency,
            reference: order.reference ? String(order.reference) : `#${String(order.id)}`,
            at: event.at,
          }
        : event.type === 'renewal_paid'
          ? {
              kind: 'renewal' as const,
              ...common,
              amount: Number(
                (
                  await db.get(
                    "SELECT amount FROM transactions WHERE order_id = ? AND status = 'paid' ORDER BY id DESC LIMIT 1",
                    [order.id!],
                  )
                )?.amount ??
                  before.price ??
                  0,
              ),
              currency,
              until: Number(order.expires_at),
            }
          : { kind: 'renewal-failed' as const, ...common };
    await mailer.send(
      { channelId, to: String(user.email), language: languageOf(user.language), letter },
      Math.floor(ctx.nowMs() / 1000),
    );
  };
}
