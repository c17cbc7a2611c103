/**
 * The outside services the server runs with, chosen here at start from its configuration, once: no caller picks
 * an implementation. Each domain sees only its interface:
 *
 *   service           interface                          dev mode                          production
 *   payments          commerce/providers/provider.ts     Stripe (stripe.ts) over the       Stripe (STRIPE_SECRET_KEY),
 *                                                        Stripe double (dev/stripe.ts)     else none: card calls 503
 *   mail              mail/mail.ts                       the recording outbox              the recording outbox
 *   identity          identity/provider.ts               the stand-ins (stand-in.ts)       none: social sign-in refused
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
import type { Mailer } from '../mail/mail.js';
import { createOutbox } from '../mail/outbox.js';
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
}

/** The services that keep their state in the database. */
export interface Services {
  /** Each channel's card processor; undefined when none is set up. */
  payments: PaymentProviders | undefined;
  mailer: Mailer;
  identity: IdentityProviders;
}

/** The stream source (chosen before the database opens: the media is made while it does). */
export function chooseStreamSource(choice: ServiceChoice): StreamSource {
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
  bundleOrigin: () => string,
): Promise<{ account: StripeAccount | undefined; double: StripeDouble | undefined }> {
  if (choice.stripe || !choice.dev) return { account: choice.stripe, double: undefined };
  const secretKey = `sk_test_double_${randomBytes(12).toString('hex')}`;
  const double = new StripeDouble({
    secretKey,
    now: choice.nowMs,
    browserBase: () => `${bundleOrigin()}/__stripe`,
    styleOrigin: bundleOrigin,
    stateFile: join(dataDir, 'stripe-double.json'),
  });
  const apiUrl = await double.listen(0);
  return { account: { secretKey, webhookSecret: `whsec_${randomBytes(24).toString('hex')}`, apiUrl }, double };
}

/** The services over the server's database. */
export function chooseServices(choice: ServiceChoice, db: ChannelDb, stripe: StripeAccount | undefined): Services {
  // One account for every channel for now: one processor, each channel's webhooks signed with the same secret.
  const processor = stripe ? createStripeProvider(stripe, choice.nowMs) : undefined;
  return {
    payments: processor ? () => processor : undefined,
    mailer: createOutbox(db),
    identity: choice.dev ? createStandInIdentity(db) : {},
  };
}
