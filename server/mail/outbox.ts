/**
 * The outbox: every email the server "sends" is recorded here instead of leaving the machine, so a developer
 * (GET /__dev/outbox, the demo's outbox.html) or a test can read it and follow its links. Only the newest
 * OUTBOX_LIMIT emails are kept. The outbox can be read only in dev mode (GET /__dev/outbox, with the dev secret).
 */
import type { ChannelDb } from '../storage/db.js';
import type { Email, Mailer } from './mail.js';

/** One recorded email, as GET /__dev/outbox lists it. */
export interface OutboxEmail {
  id: number;
  channel_key: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
  sent_at: number;
}

/** How many recorded emails are kept (the oldest go first). */
export const OUTBOX_LIMIT = 1000;

/** The mailer that records every email in the database's outbox. */
export function createOutbox(db: ChannelDb): Mailer {
  return {
    name: 'outbox',
    // Recorded is as far as an email goes here: none is ever waiting.
    pending: async () => 0,
    async send(email: Email, now: number) {
      await db.run(
        'INSERT INTO outbox (channel_id, to_email, subject, text, links_json, sent_at) VALUES (?, ?, ?, ?, ?, ?)',
        [email.channelId, email.to, email.subject, email.text, JSON.stringify(email.links), now],
      );
      await db.run('DELETE FROM outbox WHERE id <= (SELECT max(id) FROM outbox) - ?::bigint', [OUTBOX_LIMIT]);
    },
  };
}

/** The recorded emails, newest first, optionally only those to one address (any case). */
export async function listOutbox(db: ChannelDb, to: string | null): Promise<OutboxEmail[]> {
  const rows = await db.all(
    `SELECT o.*, c.channel_key FROM outbox o JOIN channels c ON c.id = o.channel_id
     ${to ? 'WHERE lower(o.to_email) = lower(?)' : ''} ORDER BY o.id DESC`,
    to ? [to] : [],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    channel_key: String(row.channel_key),
    to: String(row.to_email),
    subject: String(row.subject),
    text: String(row.text),
    links: JSON.parse(String(row.links_json)) as string[],
    sent_at: Number(row.sent_at),
  }));
}

/** Forgets recorded emails (all, or those to one address). */
export async function clearOutbox(db: ChannelDb, to: string | null): Promise<void> {
  if (to) await db.run('DELETE FROM outbox WHERE lower(to_email) = lower(?)', [to]);
  else await db.run('DELETE FROM outbox');
}
