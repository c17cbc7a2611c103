/**
 * Email as the server's domains see it: one `Mailer`, whose `send` queues a letter (letters.ts: what it says, in
 * English or French) for one address. The queue (queue.ts) is the `outbox` table: `send` writes the email in the
 * caller's transaction, so it is kept with the write it belongs to (a reset link with its token, a receipt with its
 * payment) or not at all, and a request never waits for the mail service. Whichever process holds an email's lease
 * then hands it to the transport chosen at start from configuration (app/services.ts), never by a caller:
 *
 *   transport   module       when
 *   smtp        smtp.ts      SMTP_URL is set (nodemailer)
 *   outbox      outbox.ts    dev mode without SMTP_URL: recorded, nothing leaves the machine (GET /__dev/outbox)
 *   none        queue.ts     production without SMTP_URL: every attempt fails, and the email with it after 24 h
 *
 * Emailed links point at the channel site's account routes: settings `site_url`, or when that is empty this
 * server's public origin (PUBLIC_URL; never the request's Host header), which serves those routes with its account
 * page (in dev mode the demo's, demo/site/account.html; in production server/pages/account.html for the channel the
 * link's `channel_key` names, which auth.ts adds to such links).
 */
import type { Language, Letter } from './letters.js';

export { LANGUAGES, languageOf, type Language } from './letters.js';

/** One email to queue: a letter to one address of a channel. */
export interface Email {
  channelId: number;
  to: string;
  letter: Letter;
  /** The recipient's language (a viewer's account); the channel's when absent. */
  language?: Language | undefined;
  /** Where replies go, when not to the channel's contact address (the contact form: the viewer who wrote it). */
  replyTo?: string | undefined;
}

export interface Mailer {
  /** Its transport's name in configuration and logs (`smtp`, `outbox`, `none`). */
  readonly name: string;
  /** Queues one email in the caller's transaction (if any), `now` in UNIX seconds; it is sent after the commit. */
  send(email: Email, now: number): Promise<void>;
  /** How many emails are queued and not yet handed to the mail service (the metrics). */
  pending(): Promise<number>;
}

/** An email as the queue hands it to a transport: written, addressed, with its Message-ID and Date. */
export interface OutgoingEmail {
  /** Its row in the outbox (for logs: never the address). */
  id: number;
  from: { name: string; address: string };
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
  /** `<random@domain>`, chosen when it was queued: a retry after a crash carries the same one. */
  messageId: string;
  date: Date;
}

/**
 * What a transport made of one attempt: delivered (the mail service took it), or refused for good (a 5xx answer
 * about the recipient or the message), or not this time (the service unreachable, a 4xx answer: tried again later).
 * `reason` is for the log and the outbox row: a code and the service's words, never the address.
 */
export type Delivery = { sent: true } | { sent: false; permanent: boolean; reason: string };

/** Hands emails to a mail service. */
export interface MailTransport {
  readonly name: string;
  deliver(email: OutgoingEmail): Promise<Delivery>;
  /** Closes its connections (the server is stopping). */
  close(): Promise<void>;
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
