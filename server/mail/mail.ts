/**
 * The outbox: every email the reference server "sends" is recorded here instead of leaving the machine, so a
 * developer (GET /__dev/outbox, the demo's outbox.html) or a test can read it and follow its links.
 *
 * Emailed links point at the channel site's account routes: settings `site_url`, or when that is empty this
 * server's public origin (PUBLIC_URL; never the request's Host header), which serves those routes with its account
 * page (in dev mode the demo's, demo/site/account.html; in production server/pages/account.html for the channel the
 * link's `channel_key` names, which auth.ts adds to such links). Only the newest OUTBOX_LIMIT emails are kept. The outbox can be read only in dev mode
 * (GET /__dev/outbox, with the dev secret); a production deployment replaces sendEmail with its mail service.
 */
import type { ChannelDb } from '../storage/db.js';

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

/** Records an email; `links` are the URLs the text refers to, listed apart so pages and tests can follow them. */
export async function sendEmail(
  db: ChannelDb,
  email: { channelId: number; to: string; subject: string; text: string; links: string[] },
  now: number,
): Promise<void> {
  await db.run(
    'INSERT INTO outbox (channel_id, to_email, subject, text, links_json, sent_at) VALUES (?, ?, ?, ?, ?, ?)',
    [email.channelId, email.to, email.subject, email.text, JSON.stringify(email.links), now],
  );
  await db.run('DELETE FROM outbox WHERE id <= (SELECT max(id) FROM outbox) - ?::bigint', [OUTBOX_LIMIT]);
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

/** `{site}{path}?{query}`: a link to one of the site's account routes (a site with a base path keeps it). */
export function siteLink(site: string, path: string, query: Record<string, string | number>): string {
  const url = new URL(site);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  return url.toString();
}
