/**
 * The outside services the server runs with, chosen here at start from its configuration, once: no caller picks
 * an implementation. Each domain sees only its interface:
 *
 *   service           interface                          dev mode                      production
 *   payments          commerce/providers/provider.ts     the test cards (test.ts)      none: card calls answer 503
 *   mail              mail/mail.ts (the queue, queue.ts) SMTP with SMTP_URL, else the  SMTP with SMTP_URL, else none
 *                                                        recording outbox (outbox.ts)  (emails wait, then fail)
 *   identity          identity/provider.ts               Google and Facebook with      Google and Facebook with
 *                                                        their secrets, else their     their secrets, else none
 *                                                        stand-ins (stand-in.ts)       (that network is not offered)
 *   stream sources    media/sources/source.ts            the generated test media      the generated test media
 *
 * The stand-ins answer only in dev mode: the pages and APIs they need (dev/stripe.ts, dev/social.ts) are mounted
 * only then (app/server.ts), and production never chooses them.
 */
import { createTestPayments } from '../commerce/providers/test.js';
import type { PaymentProvider } from '../commerce/providers/provider.js';
import type { IdentityProviders } from '../identity/provider.js';
import { createStandInIdentity } from '../identity/stand-in.js';
import { facebookIdentity, type FacebookOptions } from '../identity/facebook.js';
import { googleIdentity, type GoogleOptions } from '../identity/google.js';
import type { Brand } from '../mail/letters.js';
import type { MailTransport } from '../mail/mail.js';
import { recordingTransport } from '../mail/outbox.js';
import { createMailQueue, noTransport, type FailReason, type MailQueue } from '../mail/queue.js';
import { smtpTransport } from '../mail/smtp.js';
import { generatedMedia } from '../media/sources/generated.js';
import type { StreamSource } from '../media/sources/source.js';
import type { ChannelDb } from '../storage/db.js';

/** What the choice depends on. */
export interface ServiceChoice {
  /** Dev mode: the stand-ins. */
  dev: boolean;
  /** The generated media's cache folder. */
  mediaDir: string;
  /** This server's public origin (the stand-ins' authorize pages are there). */
  origin(): string;
  /** Google sign-in, when its secret is set. */
  google: GoogleOptions | undefined;
  /** Facebook sign-in, when its secret is set. */
  facebook: FacebookOptions | undefined;
  mail: {
    /** SMTP_URL: the mail service; without it dev mode records, and production sends nothing. */
    smtpUrl: string | undefined;
    /** MAIL_FROM (needed with smtpUrl; otherwise a placeholder on the public origin's host). */
    from: string;
    brandOf(channelId: number): Promise<Brand>;
    nowMs(): number;
    /** Tests: the first retry's wait and the lease (ms). */
    retryMs?: number | undefined;
    leaseMs?: number | undefined;
    failed(reason: FailReason): void;
  };
}

/** The services that keep their state in the database. */
export interface Services {
  /** The card processor; undefined when none is set up. */
  payments: PaymentProvider | undefined;
  mailer: MailQueue;
  identity: IdentityProviders;
}

/** The stream source (chosen before the database opens: the media is made while it does). */
export function chooseStreamSource(choice: Pick<ServiceChoice, 'dev' | 'mediaDir'>): StreamSource {
  return generatedMedia(choice.mediaDir);
}

/** The transport of the mail queue: SMTP when configured, else the recording outbox in dev mode, else none. */
function mailTransport(choice: ServiceChoice): MailTransport {
  if (choice.mail.smtpUrl) return smtpTransport(choice.mail.smtpUrl);
  return choice.dev ? recordingTransport() : noTransport();
}

/** Social sign-in: each network's real provider when its secret is set, else in dev mode its stand-in. */
function chooseIdentity(choice: ServiceChoice, db: ChannelDb): IdentityProviders {
  const real: IdentityProviders = {
    ...(choice.google ? { google: googleIdentity(choice.google) } : {}),
    ...(choice.facebook ? { facebook: facebookIdentity(choice.facebook) } : {}),
  };
  return choice.dev ? { ...createStandInIdentity(db, choice.origin), ...real } : real;
}

/** The services over the server's database. */
export function chooseServices(choice: ServiceChoice, db: ChannelDb): Services {
  const { mail } = choice;
  return {
    payments: choice.dev ? createTestPayments(db) : undefined,
    mailer: createMailQueue({
      db,
      transport: mailTransport(choice),
      brandOf: mail.brandOf,
      from: mail.from,
      nowMs: mail.nowMs,
      // Dev mode keeps what it sent, for the outbox page; production keeps no sent link.
      keepSent: choice.dev,
      retryMs: mail.retryMs,
      leaseMs: mail.leaseMs,
      failed: mail.failed,
    }),
    identity: chooseIdentity(choice, db),
  };
}
