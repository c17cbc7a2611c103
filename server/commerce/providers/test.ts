/**
 * The test card processor (dev mode): payments decided by Stripe's documented test cards, with no network. Its
 * payment methods, setup intents and portal sessions are rows of this database, made by the Stripe stand-in the
 * browser talks to (dev/stripe.ts: the fake Stripe API and the customer portal page); this is what checkout and
 * settlement ask of it (provider.ts).
 *
 * A payment method keeps its brand, last 4 digits, expiry, the test card's outcome and a keyed fingerprint: never
 * the card number.
 */
import { randomBytes } from 'node:crypto';
import type { SavedCard } from '../../../src/api/contract.js';
import { tokenHash } from '../../accounts/accounts.js';
import type { ChannelDb, Row } from '../../storage/db.js';
import type { PaymentProvider } from './provider.js';

/** What charging a test card does. */
export type Outcome = 'succeeded' | 'card_declined' | 'insufficient_funds';
export type Decline = Exclude<Outcome, 'succeeded'>;

/** Stripe's messages for the declines (shown to the viewer as the order's error). */
export const DECLINE_MESSAGES: Record<Decline, string> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
};

/** A customer portal link may wait this long to be opened (dev/stripe.ts keeps an opened session longer). */
const PORTAL_LINK_TTL = 300;

/** The saved cards of a user (stripe/list-cards, the portal), newest first, as the contract's SavedCard. */
export async function savedCards(db: ChannelDb, userId: number): Promise<SavedCard[]> {
  const rows = await db.all(
    'SELECT * FROM payment_methods WHERE user_id = ? AND saved = 1 ORDER BY created_at DESC, seq DESC',
    [userId],
  );
  return rows.map((row) => ({
    id: String(row.id),
    brand: String(row.brand),
    last4: String(row.last4),
    exp_month: Number(row.exp_month),
    exp_year: Number(row.exp_year),
  }));
}

/**
 * Saves a payment method to a user's cards (attaches it to the customer), unless the same card with the same
 * expiry is saved already: then that one stays, and this one is just the user's.
 */
export async function saveCard(db: ChannelDb, userId: number, paymentMethod: string): Promise<void> {
  const pm = await db.get('SELECT fingerprint, exp_month, exp_year FROM payment_methods WHERE id = ?', [paymentMethod]);
  if (!pm) return;
  const twin = await db.get(
    'SELECT id FROM payment_methods WHERE user_id = ? AND saved = 1 AND fingerprint = ? AND exp_month = ? AND exp_year = ? AND id <> ?',
    [userId, pm.fingerprint!, pm.exp_month!, pm.exp_year!, paymentMethod],
  );
  await db.run('UPDATE payment_methods SET user_id = ?, saved = ? WHERE id = ?', [userId, twin ? 0 : 1, paymentMethod]);
}

/** The test processor over one database. */
export function createTestPayments(db: ChannelDb): PaymentProvider {
  return {
    name: 'test',

    async claim(channelId, userId, paymentMethod) {
      const pm = await db.get('SELECT * FROM payment_methods WHERE id = ? AND channel_id = ?', [
        paymentMethod,
        channelId,
      ]);
      // Someone else's card is as unknown as a made-up id.
      if (!pm || (pm.user_id !== null && Number(pm.user_id) !== userId)) return 'badPaymentMethod';
      if (pm.saved) return { saved: true };
      if (pm.used) return 'spentPaymentMethod';
      // An unattached card is the buyer's now, and spent: like at Stripe, it cannot be charged again. Spent only if
      // nobody spent it meanwhile: other buyers may hold the same card (a card id copied between accounts, or sent
      // at once from several): the first to commit spends it, the others wait for that row, find it spent and are
      // refused, their purchases rolled back.
      const spent = await db.run(
        'UPDATE payment_methods SET user_id = ?, used = 1 WHERE id = ? AND saved = 0 AND used = 0 AND (user_id IS NULL OR user_id = ?)',
        [userId, paymentMethod, userId],
      );
      return spent === 0 ? 'spentPaymentMethod' : { saved: false };
    },

    async charge(order: Row) {
      // A card that is gone is declined.
      const row = await db.get('SELECT outcome FROM payment_methods WHERE id = ?', [order.payment_method ?? null]);
      const outcome = String(row?.outcome ?? 'card_declined') as Outcome;
      return outcome === 'succeeded' ? { paid: true } : { paid: false, message: DECLINE_MESSAGES[outcome] };
    },

    saveCard: (userId, paymentMethod) => saveCard(db, userId, paymentMethod),
    savedCards: (userId) => savedCards(db, userId),

    async createSetupIntent(channelId, userId, now) {
      const id = `seti_${randomBytes(12).toString('hex')}`;
      const secret = `${id}_secret_${randomBytes(16).toString('hex')}`;
      await db.run(
        "INSERT INTO setup_intents (id, channel_id, user_id, secret_hash, status, created_at) VALUES (?, ?, ?, ?, 'requires_payment_method', ?)",
        [id, channelId, userId, tokenHash(secret), now],
      );
      return secret;
    },

    async setupConfirmed(channelId, userId, paymentMethod) {
      const confirmed = await db.get(
        "SELECT 1 AS ok FROM setup_intents WHERE user_id = ? AND channel_id = ? AND payment_method = ? AND status = 'succeeded'",
        [userId, channelId, paymentMethod],
      );
      return confirmed !== undefined;
    },

    async portalUrl({ channelId, userId, returnUrl, origin, now }) {
      // The session id is in the link only: the database keeps its SHA-256.
      const id = `bps_${randomBytes(24).toString('hex')}`;
      await db.run('DELETE FROM portal_sessions WHERE expires_at <= ?', [now]);
      await db.run(
        'INSERT INTO portal_sessions (id_hash, channel_id, user_id, return_url, expires_at) VALUES (?, ?, ?, ?, ?)',
        [tokenHash(id), channelId, userId, returnUrl, now + PORTAL_LINK_TTL],
      );
      return `${origin}/__stripe/portal/${id}`;
    },
  };
}
