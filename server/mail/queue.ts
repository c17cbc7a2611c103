/**
 * The mail queue: the `outbox` table. `send` writes an email there in the caller's transaction (written out in its
 * language, with its Message-ID and Date chosen then) and tells every process after the commit; whichever process
 * leases it first hands it to the transport, and records what came of it:
 *
 *   pending ──deliver──▶ sent
 *      │  ╰─ refused for good (5xx) ─▶ failed (logged, counted: channel_emails_failed_total{reason="rejected"})
 *      ╰─ not this time (unreachable, 4xx): pending again, after 1, 2, 4 ... minutes (at most an hour apart),
 *         until 24 h after it was queued: then failed (reason "expired")
 *
 * Leases (`FOR UPDATE SKIP LOCKED`, then `lease_owner` until `lease_until` on the database's clock, renewed while
 * a delivery runs) make each email go out once with any number of processes. A process that dies holding one
 * (SIGKILL) leaves it to another once its lease runs out; on the embedded database, which is one process's alone,
 * the next start takes it at once. The one window left is the mail service accepting an email and the process dying
 * before it records so: that email goes again, with the same Message-ID.
 *
 * Retry times and the 24 hours count on the server clock (ms, which tests move); leases on the database's clock
 * (every process agrees on it). Sent and failed emails are kept for 30 days (dev mode: the newest 1,000, for the
 * outbox page), without their text once sent unless the transport keeps it (dev mode's recording outbox): a sent
 * link has no business staying in the database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ChannelDb, Row } from '../storage/db.js';
import { layOut } from './layout.js';
import { linksOf, write, type Brand } from './letters.js';
import type { Delivery, Email, Mailer, MailTransport, OutgoingEmail } from './mail.js';
import { log } from '../observability/log.js';

/** The database's clock in ms (as clip-jobs.ts): leases agree across hosts whose clocks differ. */
const DB_NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';
/** The notification that an email was queued (sent at the commit of the transaction that queued it). */
const QUEUED = 'mail_queued';
/** How long an email is tried before it fails. */
export const GIVE_UP_MS = 24 * 3600_000;
/** The longest wait between two attempts. */
const MAX_BACKOFF_MS = 3600_000;
/** Sent and failed emails are forgotten after this long; dev mode keeps the newest OUTBOX_LIMIT. */
const KEEP_SECONDS = 30 * 86400;
export const OUTBOX_LIMIT = 1000;

/** Why an email failed, as the failed counter labels it. */
export type FailReason = 'rejected' | 'expired';

export interface MailQueueOptions {
  db: ChannelDb;
  transport: MailTransport;
  /** The channel an email speaks for (its name, language, colours, contact address). */
  brandOf(channelId: number): Promise<Brand>;
  /** The sender's address (MAIL_FROM); the channel's name is its display name. */
  from: string;
  /** The server clock, ms. */
  nowMs(): number;
  /** Keep a sent email's text (dev mode: the outbox page shows it). */
  keepSent: boolean;
  /** The first retry's wait (ms, doubled each time); default a minute. */
  retryMs?: number | undefined;
  /** How long a lease holds without renewal (ms, database clock); default a minute. */
  leaseMs?: number | undefined;
  /** How often the queue looks for due emails besides being told (ms); default 2 s. */
  pollMs?: number | undefined;
  /** Counts an email that failed (the metrics). */
  failed?(reason: FailReason): void;
}

/** The queue: a Mailer, and the process's share of the sending. */
export interface MailQueue extends Mailer {
  /** Starts sending: what is due now, then what is queued (told, and every pollMs). */
  start(): Promise<void>;
  /** Looks for due emails now (tests that moved the clock). */
  wake(): void;
  /** Stops sending; a delivery under way is waited for (a few seconds at most), then its lease handed back. */
  stop(): Promise<void>;
  /** Forgets old sent and failed emails (hourly, with the server's other pruning). */
  prune(): Promise<void>;
}

/** The domain part of an address, for Message-IDs. */
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1) || 'localhost';

/** A transport that sends nothing: production without SMTP_URL. Every attempt fails until the email expires. */
export function noTransport(): MailTransport {
  return {
    name: 'none',
    deliver: async () => ({ sent: false, permanent: false, reason: 'no mail service is set up (SMTP_URL)' }),
    close: async () => undefined,
  };
}

export function createMailQueue(options: MailQueueOptions): MailQueue {
  const { db, transport } = options;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const retryMs = options.retryMs ?? 60_000;
  const leaseMs = Math.max(1000, options.leaseMs ?? 60_000);
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  /** The wait after the nth failed attempt: retryMs, doubling, at most an hour. */
  const backoff = (attempts: number) => Math.min(MAX_BACKOFF_MS, retryMs * 2 ** Math.min(20, attempts - 1));

  async function send(email: Email, now: number): Promise<void> {
    const brand = await options.brandOf(email.channelId);
    const language = email.language ?? brand.language;
    const written = layOut(write(email.letter, language, brand), language, brand);
    const queuedMs = options.nowMs();
    await db.run(
      `INSERT INTO outbox (channel_id, to_email, kind, language, subject, text, html, links_json, from_name, reply_to,
         message_id, status, queued_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      [
        email.channelId,
        email.to,
        email.letter.kind,
        language,
        written.subject,
        written.text,
        written.html,
        JSON.stringify(linksOf(email.letter)),
        brand.name,
        email.replyTo ?? brand.contact,
        `<${randomUUID()}@${domainOf(options.from)}>`,
        now,
        queuedMs,
      ],
    );
    // Heard by every process (this one too) once the caller's transaction commits: never before the row is there.
    await db.notify(QUEUED);
  }

  /** Takes the next due email nobody holds, or none. */
  async function claim(): Promise<Row | undefined> {
    return db.get(
      `UPDATE outbox SET lease_owner = ?, lease_until = ${DB_NOW_MS} + ?::bigint, attempts = attempts + 1
       WHERE id = (SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?
                     AND (lease_until IS NULL OR lease_until < ${DB_NOW_MS})
                   ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [owner, leaseMs, options.nowMs()],
    );
  }

  /** Records an outcome, only while this process still holds the email. */
  async function settle(id: number, sets: string, params: Array<string | number | null>): Promise<number> {
    return db.run(
      `UPDATE outbox SET ${sets}, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`,
      [...params, id, owner],
    );
  }

  const erase = options.keepSent ? '' : ", text = '', html = '', links_json = '[]'";

  async function fail(row: Row, reason: FailReason, error: string): Promise<void> {
    const id = Number(row.id);
    if ((await settle(id, `status = 'failed', error = ?${erase}`, [error.slice(0, 500)])) === 0) return;
    // The id and the kind of letter only: never the address, nor the service's words (which may quote it).
    log().error(
      `email ${id} (${String(row.kind)}) failed: ${reason === 'expired' ? 'not delivered within 24 hours' : 'refused by the mail service'}`,
    );
    options.failed?.(reason);
  }

  async function deliver(row: Row): Promise<void> {
    const id = Number(row.id);
    const firstQueued = Number(row.queued_at) * 1000;
    const now = options.nowMs();
    if (now - firstQueued >= GIVE_UP_MS) return fail(row, 'expired', String(row.error ?? 'expired'));
    const email: OutgoingEmail = {
      id,
      from: { name: String(row.from_name), address: options.from },
      to: String(row.to_email),
      replyTo: row.reply_to === null ? null : String(row.reply_to),
      subject: String(row.subject),
      text: String(row.text),
      html: String(row.html),
      messageId: String(row.message_id),
      date: new Date(firstQueued),
    };
    // The lease is renewed while the mail service takes its time; losing it (taken over) changes nothing here: the
    // outcome is recorded only by its holder.
    const renew = setInterval(
      () => {
        db.run(`UPDATE outbox SET lease_until = ${DB_NOW_MS} + ?::bigint WHERE id = ? AND lease_owner = ?`, [
          leaseMs,
          id,
          owner,
        ]).catch(() => undefined);
      },
      Math.max(200, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    let outcome: Delivery;
    try {
      outcome = await transport.deliver(email);
    } catch (error) {
      outcome = { sent: false, permanent: false, reason: (error as Error).message };
    } finally {
      clearInterval(renew);
    }
    if (outcome.sent) {
      await settle(id, `status = 'sent', sent_at = ?, error = NULL${erase}`, [Math.floor(options.nowMs() / 1000)]);
      return;
    }
    if (outcome.permanent) return fail(row, 'rejected', outcome.reason);
    const next = options.nowMs() + backoff(Number(row.attempts));
    if (next - firstQueued >= GIVE_UP_MS) return fail(row, 'expired', outcome.reason);
    await settle(id, 'next_attempt_at = ?, error = ?', [next, outcome.reason.slice(0, 500)]);
    log().warn(
      `email ${id} (${String(row.kind)}) not delivered yet, tried again in ${Math.round((next - options.nowMs()) / 1000)} s: ${outcome.reason.replace(/\S+@\S+/g, '[address]').slice(0, 200)}`,
    );
  }

  /** Sends what is due, one email at a time, until nothing is. */
  async function drain(): Promise<void> {
    while (!stopped) {
      const row = await claim();
      if (!row) return;
      await deliver(row);
    }
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => log().error(`the mail queue stopped on an error: ${(error as Error).message}`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  return {
    name: transport.name,
    send,
    pending: async () => Number((await db.get("SELECT count(*) AS n FROM outbox WHERE status = 'pending'"))?.n ?? 0),
    wake,
    async start() {
      // The embedded database has no other process: a lease still held was this server's previous run's, which died
      // holding it (a stop hands leases back).
      if (db.kind === 'pglite') await db.run("UPDATE outbox SET lease_until = NULL WHERE status = 'pending'");
      await db.listen(QUEUED, () => wake());
      const poll = () => {
        timer = setTimeout(() => {
          wake();
          poll();
        }, options.pollMs ?? 2000);
        timer.unref();
      };
      poll();
      wake();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // A delivery under way may finish; one stuck on a slow service is left, its lease handed back for the next.
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      await db
        .run("UPDATE outbox SET lease_until = NULL WHERE lease_owner = ? AND status = 'pending'", [owner])
        .catch(() => undefined);
      await transport.close().catch(() => undefined);
    },
    async prune() {
      const now = Math.floor(options.nowMs() / 1000);
      await db.run("DELETE FROM outbox WHERE status <> 'pending' AND queued_at < ?", [now - KEEP_SECONDS]);
      if (options.keepSent)
        await db.run(
          "DELETE FROM outbox WHERE status <> 'pending' AND id <= (SELECT max(id) FROM outbox) - ?::bigint",
          [OUTBOX_LIMIT],
        );
    },
  };
}
