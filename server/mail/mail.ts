/**
 * Email as the server's domains see it: one `Mailer`, chosen at start from configuration (app/services.ts) and never
 * by a caller. Its first implementation is the recording outbox (outbox.ts), which keeps every email in the database
 * instead of sending it; SMTP is the next. A mailer's `send` runs inside the caller's transaction: the email is
 * recorded with the write it belongs to (a reset link with its email), or not at all.
 *
 * Emailed links point at the channel site's account routes: settings `site_url`, or when that is empty this
 * server's public origin (PUBLIC_URL; never the request's Host header), which serves those routes with its account
 * page (in dev mode the demo's, demo/site/account.html; in production server/pages/account.html for the channel the
 * link's `channel_key` names, which auth.ts adds to such links).
 */

/** One email to send; `links` are the URLs the text refers to, listed apart so pages and tests can follow them. */
export interface Email {
  channelId: number;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export interface Mailer {
  /** Its name in configuration and logs (`outbox`, `smtp`). */
  readonly name: string;
  /** Sends (or queues) one email, `now` in UNIX seconds. */
  send(email: Email, now: number): Promise<void>;
  /** How many emails it accepted and has not handed to the mail service yet (the metrics). */
  pending(): Promise<number>;
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
