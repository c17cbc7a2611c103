/**
 * The outside services the server runs with, chosen here at start from its configuration, once: no caller picks
 * an implementation. Each domain sees only its interface:
 *
 *   service           interface                          dev mode                      production (today)
 *   payments          commerce/providers/provider.ts     the test cards (test.ts)      none: card calls answer 503
 *   mail              mail/mail.ts                       the recording outbox          the recording outbox
 *   identity          identity/provider.ts               the stand-ins (stand-in.ts)   none: social sign-in refused
 *   stream sources    media/sources/source.ts            the generated test media      the generated test media
 *
 * The stand-ins answer only in dev mode: the pages and APIs they need (dev/stripe.ts, dev/social.ts) are mounted
 * only then (app/server.ts), and production never chooses them.
 */
import { createTestPayments } from '../commerce/providers/test.js';
import type { PaymentProvider } from '../commerce/providers/provider.js';
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
}

/** The services that keep their state in the database. */
export interface Services {
  /** The card processor; undefined when none is set up. */
  payments: PaymentProvider | undefined;
  mailer: Mailer;
  identity: IdentityProviders;
}

/** The stream source (chosen before the database opens: the media is made while it does). */
export function chooseStreamSource(choice: ServiceChoice): StreamSource {
  return generatedMedia(choice.mediaDir);
}

/** The services over the server's database. */
export function chooseServices(choice: ServiceChoice, db: ChannelDb): Services {
  return {
    payments: choice.dev ? createTestPayments(db) : undefined,
    mailer: createOutbox(db),
    identity: choice.dev ? createStandInIdentity(db) : {},
  };
}
