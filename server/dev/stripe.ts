/**
 * The part of Stripe the reference server plays, so that card payments run with no network. The browser
 * side is demo/site/stripe-test-double.js (served at /stripe-test-double.js, installed as `window.Stripe`), which
 * calls this fake API on the origin it was loaded from, with the channel's publishable key (settings
 * `stripe.publishable_key`) as `Authorization: Bearer`. Bodies are form-encoded like Stripe's (`card[number]=...`)
 * or JSON (`{ card: { number } }`); answers are Stripe's shapes, errors `{ error: { type, code, message, param } }`.
 *
 *   POST /__stripe/v1/payment_methods                 type=card, card[number|exp_month|exp_year|cvc],
 *        billing_details[...] → a PaymentMethod `{ id: 'pm_…', object: 'payment_method', card: { brand, last4,
 *        exp_month, exp_year } }`, or 402 card_error: incomplete_number, invalid_number, incorrect_number (a valid
 *        number that is not one of the test cards), incomplete_expiry, invalid_expiry_month, invalid_expiry_year,
 *        incomplete_cvc, invalid_cvc; 400 invalid_request_error for another type; 401 for a missing or unknown key
 *   POST /__stripe/v1/setup_intents/{id}/confirm      client_secret, payment_method (a pm id) or
 *        payment_method_data[type]=card&payment_method_data[card][...] → `{ id, object: 'setup_intent', status:
 *        'succeeded', payment_method: 'pm_…' }`; the card is attached to the intent's customer (saved). The
 *        declined test card fails here too (402 card_declined, with `setup_intent`), as at Stripe
 *   POST /__stripe/v1/payment_intents/{id}/confirm    client_secret `{id}_secret_…`, payment_method or
 *        payment_method_data → `{ id, object: 'payment_intent', status: 'succeeded' }` or the card's decline. The
 *        server makes no PaymentIntents (stripe/buy charges server-side), so this records nothing: it is there so
 *        the double's confirmCardPayment answers like Stripe's
 *   GET  /__stripe/portal/{session}                   the customer portal page (stripe/customer-portal makes the
 *        session): the user's saved cards, each with "Remove", and "Return to the site"; POST (the Remove form)
 *        detaches a card and shows the page again
 *
 * Test cards (Stripe's documented numbers) decide every outcome: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002
 * is declined ('Your card was declined.'), 4000 0000 0000 9995 has insufficient funds ('Your card has insufficient
 * funds.'; it still passes a setup intent, and fails when charged). The card number is never stored nor logged:
 * a payment method keeps its brand, last 4 digits, expiry, the test card's outcome and a keyed fingerprint.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tokenHash } from '../accounts/accounts.js';
import type { ChannelDb, Row } from '../storage/db.js';
import { readBody, sendJson } from '../http/http.js';
import { DECLINE_MESSAGES, saveCard, savedCards, type Decline, type Outcome } from '../commerce/providers/test.js';
import { html, seeOther, standInPage } from './stand-in-page.js';

/** The test cards the fake accepts, by number. */
const TEST_CARDS: Record<string, Outcome> = {
  '4242424242424242': 'succeeded',
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
};

/** Stripe's `decline_code` of each decline. */
const DECLINE_CODES: Record<Decline, string> = {
  card_declined: 'generic_decline',
  insufficient_funds: 'insufficient_funds',
};

/** An opened customer portal session lasts this long (its link waits PORTAL_LINK_TTL, providers/test.ts). */
const PORTAL_SESSION_TTL = 3600;

export interface StripeContext {
  db: ChannelDb;
  /** Server clock, ms. */
  nowMs(): number;
  /** HMAC key of card fingerprints (kept in the database). */
  fingerprintSecret: string;
  bundleOrigin(): string;
}

/** A Stripe-shaped error answer. */
class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown>,
  ) {
    super(String(error.message));
  }
}

const cardError = (code: string, message: string, param: string, extra: Record<string, unknown> = {}) =>
  new StripeError(402, { type: 'card_error', code, message, param, ...extra });
const requestError = (status: number, message: string, extra: Record<string, unknown> = {}) =>
  new StripeError(status, { type: 'invalid_request_error', message, ...extra });

/** A nested parameter's form name: ['card', 'number'] is `card[number]`. */
const formKey = (path: string[]) => path.map((part, i) => (i === 0 ? part : `[${part}]`)).join('');

/** A parameter from a form body (`card[number]`) or a JSON one (`{ card: { number } }`), as text. */
function param(body: Record<string, unknown>, path: string[]): string | undefined {
  const flat = body[formKey(path)];
  let nested: unknown = body;
  for (const key of path)
    nested = nested !== null && typeof nested === 'object' ? (nested as Record<string, unknown>)[key] : undefined;
  const value = flat ?? nested;
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
}

/** Luhn's checksum, which every real card number passes. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export function brandOf(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65)/.test(digits)) return 'discover';
  return 'unknown';
}

/** A card the fake accepts, read from a body's card fields. */
interface Card {
  digits: string;
  brand: string;
  exp_month: number;
  exp_year: number;
  outcome: Outcome;
}

/** Checks card fields like Stripe does, in its order (number, expiry, security code); throws the first problem. */
function checkCard(body: Record<string, unknown>, prefix: string[], nowMs: number): Card {
  const field = (name: string) => param(body, [...prefix, name]) ?? '';
  const name = (key: string) => formKey([...prefix, key]);
  const digits = field('number').replace(/[\s-]/g, '');
  const brand = brandOf(digits);
  const length = brand === 'amex' ? 15 : 16;
  if (!/^\d+$/.test(digits) || digits.length < length)
    throw cardError('incomplete_number', 'Your card number is incomplete.', name('number'));
  if (digits.length > 19 || !luhn(digits))
    throw cardError('invalid_number', 'Your card number is invalid.', name('number'));
  const outcome = TEST_CARDS[digits];
  if (!outcome) throw cardError('incorrect_number', 'Your card number is incorrect.', name('number'));

  const month = field('exp_month');
  const yearText = field('exp_year');
  if (!/^\d{1,2}$/.test(month) || !/^\d{2}(\d{2})?$/.test(yearText)) {
    throw cardError(
      'incomplete_expiry',
      "Your card's expiration date is incomplete.",
      name(month ? 'exp_year' : 'exp_month'),
    );
  }
  const expMonth = Number(month);
  if (expMonth < 1 || expMonth > 12)
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", name('exp_month'));
  const now = new Date(nowMs);
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (year < now.getUTCFullYear())
    throw cardError('invalid_expiry_year', "Your card's expiration year is in the past.", name('exp_year'));
  if (year > now.getUTCFullYear() + 50)
    throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", name('exp_year'));
  if (year === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1) {
    throw cardError('invalid_expiry_month', "Your card's expiration date is in the past.", name('exp_month'));
  }

  const cvc = field('cvc');
  if (!/^\d*$/.test(cvc)) throw cardError('invalid_cvc', "Your card's security code is invalid.", name('cvc'));
  if (cvc.length < (brand === 'amex' ? 4 : 3))
    throw cardError('incomplete_cvc', "Your card's security code is incomplete.", name('cvc'));
  if (cvc.length > 4) throw cardError('invalid_cvc', "Your card's security code is invalid.", name('cvc'));
  return { digits, brand, exp_month: expMonth, exp_year: year, outcome };
}

/** A payment method row as Stripe's PaymentMethod. */
function paymentMethodJson(row: Row, billing: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: String(row.id),
    object: 'payment_method',
    type: 'card',
    card: {
      brand: String(row.brand),
      last4: String(row.last4),
      exp_month: Number(row.exp_month),
      exp_year: Number(row.exp_year),
      funding: 'credit',
      country: 'US',
    },
    billing_details: { name: billing.name ?? null, email: billing.email ?? null },
    customer: null,
    created: Math.floor(Number(row.created_at)),
    livemode: false,
  };
}

/** The channel whose settings name this publishable key. */
async function channelOfKey(db: ChannelDb, key: string): Promise<number | undefined> {
  for (const row of await db.all('SELECT channel_id, json FROM settings ORDER BY channel_id')) {
    const settings = JSON.parse(String(row.json)) as { stripe?: { publishable_key?: string } | null };
    if (settings.stripe?.publishable_key === key) return Number(row.channel_id);
  }
  return undefined;
}

/** The channel of the request's publishable key, or a 401 like Stripe's. */
async function authenticate(db: ChannelDb, req: IncomingMessage): Promise<number> {
  const key = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!key) {
    throw requestError(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  const channelId = await channelOfKey(db, key);
  if (channelId === undefined)
    throw requestError(
      401,
      `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
      { code: 'api_key_invalid' },
    );
  return channelId;
}

/** Answers a /__stripe/ request; false when the path is not one of them. */
export async function handleStripe(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: StripeContext,
): Promise<boolean> {
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.startsWith('/__stripe/')) return false;
  const portal = /^\/__stripe\/portal\/(bps_[0-9a-f]+)$/.exec(path);
  if (portal && (req.method === 'GET' || req.method === 'HEAD' || req.method === 'POST')) {
    await portalPage(req, res, portal[1]!, ctx);
    return true;
  }
  try {
    if (req.method !== 'POST')
      throw requestError(405, `Unrecognized request URL (${req.method ?? 'GET'}: ${path.replace('/__stripe', '')}).`);
    const channelId = await authenticate(ctx.db, req);
    const body = await readBody(req);
    let m: RegExpExecArray | null;
    if (path === '/__stripe/v1/payment_methods') {
      sendJson(res, 200, await createPaymentMethod(ctx, channelId, body));
    } else if ((m = /^\/__stripe\/v1\/setup_intents\/(seti_\w+)\/confirm$/.exec(path))) {
      sendJson(res, 200, await confirmSetupIntent(ctx, channelId, m[1]!, body));
    } else if ((m = /^\/__stripe\/v1\/payment_intents\/(pi_\w+)\/confirm$/.exec(path))) {
      sendJson(res, 200, await confirmPaymentIntent(ctx, channelId, m[1]!, body));
    } else {
      throw requestError(404, `Unrecognized request URL (POST: ${path.replace('/__stripe', '')}).`);
    }
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    sendJson(res, error.status, { error: error.error });
  }
  return true;
}

/** `POST /v1/payment_methods`: checks the card and stores what a charge needs. */
async function createPaymentMethod(
  ctx: StripeContext,
  channelId: number,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const type = param(body, ['type']);
  if (type !== 'card')
    throw requestError(
      400,
      type ? `Invalid payment method type: ${type}. This fake supports card only.` : 'Missing required param: type.',
      { param: 'type' },
    );
  const billing = { name: param(body, ['billing_details', 'name']), email: param(body, ['billing_details', 'email']) };
  return paymentMethodJson(await storePaymentMethod(ctx, channelId, checkCard(body, ['card'], ctx.nowMs())), billing);
}

async function storePaymentMethod(ctx: StripeContext, channelId: number, card: Card): Promise<Row> {
  const id = `pm_${randomBytes(12).toString('hex')}`;
  const fingerprint = createHmac('sha256', ctx.fingerprintSecret).update(card.digits).digest('hex').slice(0, 16);
  const row = await ctx.db.get(
    'INSERT INTO payment_methods (id, channel_id, brand, last4, exp_month, exp_year, fingerprint, outcome, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *',
    [
      id,
      channelId,
      card.brand,
      card.digits.slice(-4),
      card.exp_month,
      card.exp_year,
      fingerprint,
      card.outcome,
      Math.floor(ctx.nowMs() / 1000),
    ],
  );
  return row!;
}

/**
 * The payment method a confirmation uses: an existing one of the channel (`payment_method`, not attached to another
 * customer than `userId`), or a new one from `payment_method_data`.
 */
async function confirmationMethod(
  ctx: StripeContext,
  channelId: number,
  body: Record<string, unknown>,
  userId: number | null,
): Promise<Row> {
  const id = param(body, ['payment_method']);
  if (id) {
    const row = await ctx.db.get('SELECT * FROM payment_methods WHERE id = ? AND channel_id = ?', [id, channelId]);
    if (!row || (row.user_id !== null && userId !== null && Number(row.user_id) !== userId)) {
      throw requestError(404, `No such PaymentMethod: '${id}'`, { code: 'resource_missing', param: 'payment_method' });
    }
    return row;
  }
  if (param(body, ['payment_method_data', 'type']) === 'card') {
    return await storePaymentMethod(ctx, channelId, checkCard(body, ['payment_method_data', 'card'], ctx.nowMs()));
  }
  throw requestError(400, 'You must provide a payment_method or payment_method_data[type]=card to confirm.', {
    param: 'payment_method',
  });
}

/** `POST /v1/setup_intents/{id}/confirm` (trials): saves the card for the intent's customer. */
async function confirmSetupIntent(
  ctx: StripeContext,
  channelId: number,
  id: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { db } = ctx;
  const secret = param(body, ['client_secret']) ?? '';
  const intent = await db.get('SELECT * FROM setup_intents WHERE id = ? AND channel_id = ?', [id, channelId]);
  if (!intent || intent.secret_hash !== tokenHash(secret)) {
    throw requestError(404, `No such setupintent: '${id}'`, { code: 'resource_missing', param: 'intent' });
  }
  const json = (status: string, paymentMethod: string | null) => ({
    id,
    object: 'setup_intent',
    status,
    payment_method: paymentMethod,
    client_secret: secret,
    usage: 'off_session',
    livemode: false,
  });
  if (intent.status === 'succeeded') {
    throw requestError(400, 'You cannot confirm this SetupIntent because it has already succeeded.', {
      code: 'setup_intent_unexpected_state',
      setup_intent: json('succeeded', String(intent.payment_method)),
    });
  }
  const userId = Number(intent.user_id);
  const pm = await confirmationMethod(ctx, channelId, body, userId);
  if (pm.outcome === 'card_declined') {
    throw cardError('card_declined', DECLINE_MESSAGES.card_declined, 'payment_method', {
      decline_code: DECLINE_CODES.card_declined,
      setup_intent: json('requires_payment_method', null),
    });
  }
  await db.run("UPDATE setup_intents SET status = 'succeeded', payment_method = ? WHERE id = ?", [String(pm.id), id]);
  await saveCard(db, userId, String(pm.id));
  return json('succeeded', String(pm.id));
}

/** `POST /v1/payment_intents/{id}/confirm`: the card's outcome, recording nothing (see the header). */
async function confirmPaymentIntent(
  ctx: StripeContext,
  channelId: number,
  id: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const secret = param(body, ['client_secret']) ?? '';
  if (!secret.startsWith(`${id}_secret_`))
    throw requestError(404, `No such payment_intent: '${id}'`, { code: 'resource_missing', param: 'intent' });
  const pm = await confirmationMethod(ctx, channelId, body, null);
  const outcome = String(pm.outcome) as Outcome;
  const json = (status: string) => ({
    id,
    object: 'payment_intent',
    status,
    payment_method: String(pm.id),
    client_secret: secret,
    livemode: false,
  });
  if (outcome !== 'succeeded') {
    throw cardError('card_declined', DECLINE_MESSAGES[outcome], 'payment_method', {
      decline_code: DECLINE_CODES[outcome],
      payment_intent: json('requires_payment_method'),
    });
  }
  return json('succeeded');
}

/** The customer portal: the session's user's saved cards, with Remove, and the way back to the site. */
async function portalPage(req: IncomingMessage, res: ServerResponse, id: string, ctx: StripeContext): Promise<void> {
  const { db } = ctx;
  const now = Math.floor(ctx.nowMs() / 1000);
  const hash = tokenHash(id);
  const session = await db.get(
    'SELECT s.*, u.email, c.name AS channel FROM portal_sessions s JOIN users u ON u.id = s.user_id JOIN channels c ON c.id = s.channel_id WHERE s.id_hash = ? AND s.expires_at > ?',
    [hash, now],
  );
  if (!session) {
    standInPage(
      res,
      ctx.bundleOrigin(),
      404,
      'Billing',
      '<p class="stand-in-error" role="alert">This link has expired. Open the customer portal again from the site.</p>',
    );
    return;
  }
  const userId = Number(session.user_id);
  if (req.method === 'POST') {
    const body = await readBody(req);
    const card = typeof body.payment_method === 'string' ? body.payment_method : '';
    await db.run('UPDATE payment_methods SET saved = 0 WHERE id = ? AND user_id = ?', [card, userId]);
    // Back to this same page on the public origin (never built from the Host header).
    seeOther(res, new URL(`/__stripe/portal/${encodeURIComponent(id)}`, ctx.bundleOrigin()).href, { removed: '1' });
    return;
  }
  // Opening the link starts the session: it then lasts an hour from now, instead of the link's few minutes.
  await db.run('UPDATE portal_sessions SET expires_at = greatest(expires_at, ?) WHERE id_hash = ?', [
    now + PORTAL_SESSION_TTL,
    hash,
  ]);
  const cards = await savedCards(db, userId);
  const month = (n: unknown) => String(n).padStart(2, '0');
  const list = cards.length
    ? `<ul class="outbox-list">${cards
        .map(
          (card) => `<li class="outbox-email"><form method="post" class="stand-in-actions">
<span>${html(String(card.brand).toUpperCase())} •••• ${html(String(card.last4))}, expires ${month(card.exp_month)}/${html(String(card.exp_year))}</span>
<input type="hidden" name="payment_method" value="${html(String(card.id))}">
<button type="submit" aria-label="Remove the card ending in ${html(String(card.last4))}">Remove</button>
</form></li>`,
        )
        .join('\n')}</ul>`
    : '<p>No saved cards.</p>';
  const removed = new URL(req.url ?? '/', 'http://localhost').searchParams.has('removed')
    ? '<p role="status">The card was removed.</p>'
    : '';
  standInPage(
    res,
    ctx.bundleOrigin(),
    200,
    `${String(session.channel)} billing`,
    `<section class="stand-in" aria-labelledby="cards-title">
<p>This page stands in for Stripe's customer portal so the demo runs offline. Signed in as <strong>${html(String(session.email))}</strong>.</p>
<h2 id="cards-title">Payment methods</h2>
${removed}
${list}
<p><a href="${html(String(session.return_url))}">Return to the site</a></p>
</section>`,
  );
}
