/**
 * The outside services the server runs with, chosen here at start from its configuration, once: no caller picks
 * an implementation. Each domain sees only its interface:
 *
 *   service           interface                          dev mode                          production
 *   payments          commerce/providers/provider.ts     Stripe (stripe.ts): the           Stripe: the channel's own
 *                                                        channel's own key or the          key or STRIPE_SECRET_KEY,
 *                                                        server's, else the Stripe double  else none: card calls 503
 *                                                        (dev/stripe.ts)
 *   mail              mail/mail.ts (the queue, queue.ts) SMTP with SMTP_URL, else the      SMTP with SMTP_URL, else none
 *                                                        recording outbox (outbox.ts)      (emails wait, then fail)
 *   identity          identity/provider.ts               Google and Facebook with the      Google and Facebook with the
 *                                                        channel's secret or the server's, channel's secret or the
 *                                                        else their stand-ins              server's, else none (that
 *                                                        (stand-in.ts)                     network is not offered)
 *   stream sources    media/sources/source.ts            the generated test media          the generated test media
 *
 * Payments and identity are chosen per channel: a channel with secrets of its own (channel/secrets.ts: its Stripe
 * secret key and webhook signing secret, its Google client secret, its Facebook app secret) goes through them, the
 * others through the server's (the environment's). Each process keeps every channel's secrets in memory
 * (watchChannelSecrets), read again when SECRETS_CHANGED names the channel, and makes a new Stripe client then.
 *
 * The stand-ins answer only in dev mode: the pages and APIs they need (dev/stripe.ts, dev/social.ts) are mounted
 * only then (app/server.ts), and production never chooses them. Payments go through the same Stripe code in both
 * modes: dev mode without a Stripe key of its own points it at a Stripe double it starts on a loopback port.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { PaymentProvider, PaymentProviders } from '../commerce/providers/provider.js';
import { createStripeProvider, keysDisagree, type StripeAccount } from '../commerce/providers/stripe.js';
import type { SecretsWatch } from '../channel/secrets.js';
import { StripeDouble } from '../dev/stripe.js';
import type { IdentityProvider, IdentityProviders } from '../identity/provider.js';
import { createStandInIdentity } from '../identity/stand-in.js';
import {
  FACEBOOK_AUTHORIZE_URL,
  FACEBOOK_GRAPH_URL,
  facebookIdentity,
  type FacebookOptions,
} from '../identity/facebook.js';
import { GOOGLE_ISSUER, googleIdentity, type GoogleOptions } from '../identity/google.js';
import type { Brand } from '../mail/letters.js';
import type { MailTransport } from '../mail/mail.js';
import { recordingTransport } from '../mail/outbox.js';
import { createMailQueue, noTransport, type FailReason, type MailQueue } from '../mail/queue.js';
import { smtpTransport } from '../mail/smtp.js';
import { generatedMedia } from '../media/sources/generated.js';
import type { StreamSource } from '../media/sources/source.js';
import { log } from '../observability/log.js';
import type { ChannelDb } from '../storage/db.js';

/** What the choice depends on. */
export interface ServiceChoice {
  /** Dev mode: the stand-ins. */
  dev: boolean;
  /** The generated media's cache folder. */
  mediaDir: string;
  /** The Stripe account the channels without their own charge through (STRIPE_SECRET_KEY and the rest), if set. */
  stripe?: StripeAccount | undefined;
  /** STRIPE_API_URL (tests): where the channels' own test keys are sent too (a live key never is). */
  stripeApiUrl?: string | undefined;
  /** The channel's Stripe publishable key (its settings' `stripe.publishable_key`), to check it against the secret. */
  publishableKeyOf?(channelKey: string): string | undefined;
  /** Server clock, ms. */
  nowMs(): number;
  /** This server's public origin (the stand-ins' pages are there: the social networks' and the Stripe double's). */
  origin(): string;
  /** Google sign-in: its issuer, and the server's client secret if set (the channels may have their own). */
  google: GoogleOptions | undefined;
  /** Facebook sign-in: its URLs, and the server's app secret if set (the channels may have their own). */
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
  /** Each channel's card processor (undefined for a channel without one). */
  payments: PaymentProviders;
  mailer: MailQueue;
  /** Each channel's identity providers (by channel id). */
  identity: (channelId: number) => IdentityProviders;
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

/**
 * Social sign-in, per channel: a network's real provider when the channel has its own secret there or the server
 * has one, else in dev mode its stand-in, else none (the network is not offered to that channel). One provider per
 * network serves every channel, each with its secret; Google's is made (and its issuer discovered) once a secret
 * of it is known.
 */
function chooseIdentity(
  choice: ServiceChoice,
  db: ChannelDb,
  secrets: SecretsWatch,
): (channelId: number) => IdentityProviders {
  const standIns = choice.dev ? createStandInIdentity(db, choice.origin) : {};
  const googleSecret = (channelId: number) =>
    secrets.ofId(channelId).google_client_secret ?? choice.google?.clientSecret;
  const facebookSecret = (channelId: number) =>
    secrets.ofId(channelId).facebook_app_secret ?? choice.facebook?.appSecret;
  let google: IdentityProvider | undefined;
  const googleOf = () =>
    (google ??= googleIdentity({ issuer: choice.google?.issuer ?? GOOGLE_ISSUER, secretOf: googleSecret }));
  const facebook = facebookIdentity({
    authorizeUrl: choice.facebook?.authorizeUrl ?? FACEBOOK_AUTHORIZE_URL,
    graphUrl: choice.facebook?.graphUrl ?? FACEBOOK_GRAPH_URL,
    secretOf: facebookSecret,
  });
  const warm = () => {
    if (choice.google?.clientSecret || secrets.some('google_client_secret')) googleOf();
  };
  warm();
  secrets.onChange(warm);
  return (channelId) => {
    const real: IdentityProviders = {
      ...(googleSecret(channelId) ? { google: googleOf() } : {}),
      ...(facebookSecret(channelId) ? { facebook } : {}),
    };
    return { ...standIns, ...real };
  };
}

/**
 * Card payments, per channel: Stripe with the channel's own secret key (and webhook signing secret) when it has
 * one, else with the server's account; none without either. A channel with its own webhook signing secret but no
 * key of its own is an endpoint of the server's account: its webhooks are checked against its own secret. A key of
 * the channel's own never borrows the server's webhook secret (another account's): without its own, its webhooks
 * are refused. The processors are made on first use and made again when the account they were made with changes.
 * A live key with a test publishable key (or the reverse), or a live key of a channel's own with STRIPE_API_URL,
 * leaves the channel without card payments, and the log says why (once, never the key).
 */
function choosePayments(
  choice: ServiceChoice,
  server: StripeAccount | undefined,
  secrets: SecretsWatch,
): PaymentProviders {
  const made = new Map<string, { account: StripeAccount; provider: PaymentProvider }>();
  const reported = new Set<string>();
  const report = (channelKey: string, why: string) => {
    if (reported.has(`${channelKey}\n${why}`)) return;
    reported.add(`${channelKey}\n${why}`);
    log().error(`channel ${channelKey} has no card payments: ${why}`);
  };
  // Forgotten at once when a channel's secrets change (made again on next use).
  secrets.onChange(() => {
    made.clear();
    reported.clear();
  });
  const ownApiUrl = choice.stripeApiUrl ?? choice.stripe?.apiUrl;

  function accountOf(channelKey: string): StripeAccount | undefined {
    const own = secrets.ofKey(channelKey);
    if (own.stripe_secret_key) {
      if (ownApiUrl && !/^(sk|rk)_test_/.test(own.stripe_secret_key)) {
        report(channelKey, 'its own Stripe secret key is a live key, and STRIPE_API_URL is for a test double only');
        return undefined;
      }
      return { secretKey: own.stripe_secret_key, webhookSecret: own.stripe_webhook_secret ?? '', apiUrl: ownApiUrl };
    }
    if (!server) return undefined;
    return own.stripe_webhook_secret ? { ...server, webhookSecret: own.stripe_webhook_secret } : server;
  }

  return (channelKey) => {
    const account = accountOf(channelKey);
    if (!account) return undefined;
    const disagree = keysDisagree(account.secretKey, choice.publishableKeyOf?.(channelKey));
    if (disagree) {
      report(channelKey, disagree);
      return undefined;
    }
    const known = made.get(channelKey);
    if (
      known &&
      known.account.secretKey === account.secretKey &&
      known.account.webhookSecret === account.webhookSecret &&
      known.account.apiUrl === account.apiUrl
    )
      return known.provider;
    const provider = createStripeProvider(account, choice.nowMs, channelKey);
    made.set(channelKey, { account, provider });
    return provider;
  };
}

/** The services over the server's database and each channel's secrets. */
export function chooseServices(
  choice: ServiceChoice,
  db: ChannelDb,
  stripe: StripeAccount | undefined,
  secrets: SecretsWatch,
): Services {
  const { mail } = choice;
  return {
    payments: choosePayments(choice, stripe, secrets),
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
    identity: chooseIdentity(choice, db, secrets),
  };
}
