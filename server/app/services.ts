/**
 * The outside services the server runs with, chosen here at start from its configuration, once: no caller picks
 * an implementation. Each domain sees only its interface:
 *
 *   service           interface                          dev mode                          production
 *   payments          commerce/providers/provider.ts     Stripe (stripe.ts) over the       Stripe (STRIPE_SECRET_KEY),
 *                                                        Stripe double (dev/stripe.ts)     else none: card calls 503
 *   mail              mail/mail.ts (the queue, queue.ts) SMTP with SMTP_URL, else the      SMTP with SMTP_URL, else none
 *                                                        recording outbox (outbox.ts)      (emails wait, then fail)
 *   identity          identity/provider.ts               Google and Facebook with          Google and Facebook with
 *                                                        their secrets, else their         their secrets, else none
 *                                                        stand-ins (stand-in.ts)           (that network is not offered)
 *   stream sources    media/sources/source.ts            the generated test media          the generated test media
 *
 * The stand-ins answer only in dev mode: the pages and APIs they need (dev/stripe.ts, dev/social.ts) are mounted
 * only then (app/server.ts), and production never chooses them. Payments go through the same Stripe code in both
 * modes: dev mode without a Stripe key of its own points it at a Stripe double it starts on a loopback port.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { PaymentProviders } from '../commerce/providers/provider.js';
import { createStripeProvider, type StripeAccount } from '../commerce/providers/stripe.js';
import { StripeDouble } from '../dev/stripe.js';
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
  /** The Stripe account every channel charges through (STRIPE_SECRET_KEY and the rest), if configured. */
  stripe?: StripeAccount | undefined;
  /** Server clock, ms. */
  nowMs(): number;
  /** This server's public origin (the stand-ins' pages are there: the social networks' and the Stripe double's). */
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
  /** Each channel's card processor; undefined when none is set up. */
  payments: PaymentProviders | undefined;
  mailer: MailQueue;
  identity: IdentityProviders;
}

/** The stream source (chosen before the database opens: the media is made while it does). */
export function chooseStreamSource(choice: Pick<ServiceChoice, 'dev' | 'mediaDir'>): StreamSource {
  return generatedMedia(choice.mediaDir);
}

/**
 * The Stripe account payments go through: the configured one; in dev mode without one, a Stripe double started
 * here on a loopback port (its state kept in DATA_DIR), with a test key and a webhook secret of this start's. The
 * double's browser half and webhook endpoints are wired by server.ts once the listeners are bound.
 */
export async function chooseStripe(
  choice: ServiceChoice,
  dataDir: string,
): Promise<{ account: StripeAccount | undefined; double: StripeDouble | undefined }> {
  if (choice.stripe || !choice.dev) return { account: choice.stripe, double: undefined };
  const secretKey = `sk_test_double_${randomBytes(12).toString('hex')}`;
  const double = new StripeDouble({
    secretKey,
    now: choice.nowMs,
    browserBase: () => `${choice.origin()}/__stripe`,
    styleOrigin: choice.origin,
    stateFile: join(dataDir, 'stripe-double.json'),
  });
  const apiUrl = await double.listen(0);
  return { account: { secretKey, webhookSecret: `whsec_${randomBytes(24).toString('hex')}`, apiUrl }, double };
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
export function chooseServices(choice: ServiceChoice, db: ChannelDb, stripe: StripeAccount | undefined): Services {
  const { mail } = choice;
  // One account for every channel for now: one processor, each channel's webhooks signed with the same secret.
  const processor = stripe ? createStripeProvider(stripe, choice.nowMs) : undefined;
  return {
    payments: processor ? () => processor : undefined,
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
