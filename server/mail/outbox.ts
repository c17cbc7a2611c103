/**
 * The recording outbox (dev mode without SMTP_URL, and the tests): a transport that delivers nothing, so every
 * email the queue sends stays in the `outbox` table with its text, where a developer (GET /__dev/outbox, the demo's
 * outbox.html) or a test reads it and follows its links. The outbox can be read only in dev mode (GET /__dev/outbox,
 * with the dev secret); it lists what the queue holds, whatever the transport: pending, sent or failed.
 */
import type { ChannelDb } from '../storage/db.js';
import type { MailTransport } from './mail.js';

/** One email of the queue, as GET /__dev/outbox lists it. */
export interface OutboxEmail {
  id: number;
  channel_key: string;
  to: string;
  kind: string;
  language: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  reply_to: string | null;
  message_id: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  /** When it was queued, UNIX seconds. */
  queued_at: number;
  /** When it was sent (recorded), or null. */
  sent_at: number | null;
}

/** The transport that records: every email is "sent" at once, and the queue keeps it. */
export function recordingTransport(): MailTransport {
  return { name: 'outbox', deliver: async () => ({ sent: true }), close: async () => undefined };
}

/** The queue's emails, newest first, optionally only those to one address (any case). */
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
    kind: String(row.kind),
    language: String(row.language),
    subject: String(row.subject),
    text: String(row.text),
    html: String(row.html),
    links: JSON.parse(String(row.links_json)) as string[],
    reply_to: row.reply_to === null ? null : String(row.reply_to),
    message_id: String(row.message_id),
    status: String(row.status) as OutboxEmail['status'],
    attempts: Number(row.attempts),
    queued_at: Number(row.queued_at),
    sent_at: row.sent_at === null ? null : Number(row.sent_at),
  }));
}

/** Forgets the queue's emails (all, or those to one address): pending ones too, which are then never sent. */
export async function clearOutbox(db: ChannelDb, to: string | null): Promise<void> {
  if (to) await db.run('DELETE FROM outbox WHERE lower(to_email) = lower(?)', [to]);
  else await db.run('DELETE FROM outbox');
}
