/**
 * The Stripe double: a stateful stand-in for the part of Stripe's REST API the channel server calls, so that card
 * payments run offline through the same `stripe` SDK code as in production, pointed here by its host, port and
 * protocol options (STRIPE_API_URL, which the configuration accepts only with a test key and a loopback address).
 * Dev mode starts one on a loopback port of its own (server.ts) and mounts it under `/__stripe/` too, for the browser
 * half (demo/site/stripe-test-double.js: the Payment Element and 3-D Secure challenges of Stripe.js); the server tests
 * start their own. It is never started by a production server.
 *
 * What it keeps and does: stripe-ledger.ts (customers, payment methods, confirmation tokens, payment intents,
 * charges, refunds, disputes, setup intents), stripe-billing.ts (products, prices, coupons, subscriptions,
 * invoices), stripe-webhooks.ts (its events, sent signed to the webhook endpoints, tried again on a 5xx); the routes
 * are stripe-api.ts, the portal and challenge pages stripe-pages.ts, the test cards stripe-cards.ts. Every outcome
 * comes from Stripe's documented test cards. Calls with the secret key may carry an `Idempotency-Key`: the same key
 * answers the same answer (`Idempotent-Replayed: true`), a key reused with other parameters is refused, a key in use
 * by a call under way answers 409. Answers are Stripe's JSON shapes (`expand[]` included); errors are
 * `{ error: { type, code, message, param, … } }`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CORS_HEADERS } from '../http/static.js';
import { apiRoutes, unknownRoute, type Route } from './stripe-api.js';
import { Billing } from './stripe-billing.js';
import { Ledger } from './stripe-ledger.js';
import { StripeRefusal, type PortalSession } from './stripe-objects.js';
import { backToPortal, challengePage, portalAction, portalGone, portalPage, type PageContext } from './stripe-pages.js';
import { parseParams, texts, type Params } from './stripe-params.js';
import { Webhooks } from './stripe-webhooks.js';

export interface StripeDoubleOptions {
  /**
   * The secret key the SDK calls with (any `pk_test_…` key is taken for the browser's calls); `addSecretKey` adds
   * others (a channel's own account: the double keeps one ledger for all of them).
   */
  secretKey: string;
  /** The double's clock, ms (the channel server's in dev mode, so a test moving one moves both). */
  now?: () => number;
  /** Where the browser reaches the double (default: its own listener); dev mode: the server's `/__stripe`. */
  browserBase?: () => string;
  /** The origin whose demo styles its pages use (default: the browser base's). */
  styleOrigin?: () => string;
  /** Delays of the attempts after a webhook delivery failed (default 1 s, 5 s, 30 s, 2 min, 10 min). */
  retryDelaysMs?: number[];
  /** A file it keeps its state in (dev mode: saved cards and subscriptions outlive a restart). */
  stateFile?: string;
}

/** An open portal link waits this long to be opened; once opened, the session lasts an hour. */
const PORTAL_LINK_SECONDS = 300;
const PORTAL_SESSION_SECONDS = 3600;
/** Idempotency keys are kept a day, as at Stripe. */
const IDEMPOTENCY_SECONDS = 86400;

interface Remembered {
  fingerprint: string;
  status: number;
  body: string;
  at: number;
}

export class StripeDouble {
  readonly ledger: Ledger;
  readonly billing: Billing;
  readonly webhooks: Webhooks;
  /** The listener's origin once it listens (`http://127.0.0.1:PORT`). */
  url = '';
  /**
   * Tests: runs before an API answer is sent (after the call took effect), e.g. to kill the channel server between
   * Stripe's charge and its commit.
   */
  beforeAnswer: ((method: string, path: string, status: number, body: unknown) => Promise<void>) | undefined;
  /** The API calls it answered, newest last (the last 1,000): what went over the wire, for the tests. */
  readonly requests: Array<{
    method: string;
    path: string;
    key: 'secret' | 'publishable' | 'other';
    /** The secret key of a secret call (which account called: tests only, never logged). */
    secretKey?: string;
    idempotencyKey?: string;
    status: number;
  }> = [];
  private readonly routes: Route[];
  private readonly secretKeys = new Set<string>();
  private readonly remembered = new Map<string, Remembered>();
  private readonly inProgress = new Set<string>();
  private readonly portals = new Map<string, { session: PortalSession; until: number; opened: boolean }>();
  private server: Server | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private readonly pages: PageContext;
  private readonly now: () => number;

  constructor(private readonly options: StripeDoubleOptions) {
    this.now = options.now ?? Date.now;
    this.secretKeys.add(options.secretKey);
    this.webhooks = new Webhooks(this.now, options.retryDelaysMs ?? [1000, 5000, 30_000, 120_000, 600_000]);
    const browserBase = () => options.browserBase?.() ?? this.url;
    const emit = (type: string, object: unknown, previous?: Record<string, unknown>) => {
      this.webhooks.emit(type, object, previous);
      this.changed();
    };
    this.ledger = new Ledger({ now: this.now, fingerprintKey: options.secretKey, browserBase, emit });
    this.billing = new Billing(this.ledger, { now: this.now, emit });
    this.pages = {
      ledger: this.ledger,
      billing: this.billing,
      browserBase,
      styleOrigin: () => options.styleOrigin?.() ?? new URL(browserBase()).origin,
    };
    this.routes = apiRoutes({
      ledger: this.ledger,
      billing: this.billing,
      webhooks: this.webhooks,
      portalSession: (customer, returnUrl) => this.portalSession(customer, returnUrl),
    });
    if (options.stateFile) this.load(options.stateFile);
  }

  /** Takes calls with this secret key too (another account: a channel's own). */
  addSecretKey(key: string): void {
    this.secretKeys.add(key);
  }

  /** Listens on a loopback port (0: any free one); answers its origin. */
  async listen(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      this.handle(req, res, url.pathname, url.search).catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.webhooks.close();
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.save();
    }
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Sends its events to a webhook endpoint from now on, signed with `secret`. */
  addEndpoint(url: string, secret: string): void {
    this.webhooks.endpoints.push({ url, secret });
  }

  /** Bills every subscription whose period ended on its clock. */
  tick(): void {
    this.billing.tick();
  }

  /** Answers a request for `path` (`/v1/…`, `/portal/…`): on its own listener, or mounted under a prefix. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, search: string): Promise<void> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...CORS_HEADERS, 'Content-Length': '0' });
      res.end();
      return;
    }
    const bodyText = method === 'GET' ? '' : await readText(req);
    const portal = /^\/portal\/(bps_[0-9a-f]+)$/.exec(path);
    if (portal) return this.portal(res, portal[1]!, method, bodyText, new URLSearchParams(search).get('done') ?? '');
    const challenge = /^\/v1\/3ds\/(3ds_[0-9a-f]+)$/.exec(path);
    const wantsPage = (req.headers.accept ?? '').includes('text/html');
    if (challenge && wantsPage) {
      if (method === 'POST')
        this.run(() => this.ledger.authenticate(challenge[1]!, parseParams(bodyText).result === 'complete'));
      return challengePage(
        res,
        this.pages,
        challenge[1]!,
        method === 'GET' && this.ledger.challenges.has(challenge[1]!),
      );
    }
    const params = parseParams(method === 'GET' || method === 'DELETE' ? search.slice(1) : bodyText);
    const key = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const idempotencyKey = method === 'POST' && this.secretKeys.has(key) ? req.headers['idempotency-key'] : undefined;
    const fingerprint = createHash('sha256').update(`${method} ${path} ${bodyText}`).digest('hex');
    if (typeof idempotencyKey === 'string') {
      const known = this.remembered.get(idempotencyKey);
      if (known && known.at > this.now() / 1000 - IDEMPOTENCY_SECONDS) {
        if (known.fingerprint !== fingerprint)
          return this.send(res, 400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        return this.send(res, known.status, known.body, { 'Idempotent-Replayed': 'true' });
      }
      if (this.inProgress.has(idempotencyKey))
        return this.send(res, 409, {
          error: {
            type: 'idempotency_error',
            message:
              'There is currently another in-progress request using this Idempotent Key. Please try again later.',
          },
        });
      this.inProgress.add(idempotencyKey);
    }
    try {
      const { status, body } = this.answer(method, path, key, params);
      this.requests.push({
        method,
        path,
        key: this.secretKeys.has(key) ? 'secret' : key.startsWith('pk_') ? 'publishable' : 'other',
        ...(this.secretKeys.has(key) ? { secretKey: key } : {}),
        ...(typeof idempotencyKey === 'string' ? { idempotencyKey } : {}),
        status,
      });
      if (this.requests.length > 1000) this.requests.shift();
      const text = JSON.stringify(body);
      if (typeof idempotencyKey === 'string' && status < 500)
        this.remembered.set(idempotencyKey, { fingerprint, status, body: text, at: this.now() / 1000 });
      if (method !== 'GET') this.changed();
      await this.beforeAnswer?.(method, path, status, body);
      this.send(res, status, text);
    } finally {
      if (typeof idempotencyKey === 'string') this.inProgress.delete(idempotencyKey);
    }
  }

  /** Runs an API call: its status and body (an error's too). */
  private answer(method: string, path: string, key: string, params: Params): { status: number; body: unknown } {
    try {
      const route = this.routes.find((r) => r.method === method && r.path.test(path));
      if (!route) throw unknownRoute(method, path);
      const secret = this.secretKeys.has(key);
      const publishable = /^pk_test_\w+$/.test(key);
      if (route.access !== 'anyone' && !secret && !(publishable && route.access === 'publishable')) {
        const message = !key
          ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."
          : publishable
            ? 'This API call cannot be made with a publishable API key. Please use a secret API key.'
            : `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;
        throw new StripeRefusal(publishable ? 403 : 401, { type: 'authentication_error', message });
      }
      const ids = route.path.exec(path)!.slice(1);
      const result = route.run({ params, ids, browser: !secret });
      return { status: 200, body: this.expand(result, texts(params, 'expand')) };
    } catch (error) {
      if (!(error instanceof StripeRefusal)) throw error;
      return { status: error.status, body: { error: error.body } };
    }
  }

  /** Runs a change that answers no API call (a page's form), keeping Stripe's refusals to itself. */
  private run(change: () => unknown): void {
    try {
      change();
      this.changed();
    } catch (error) {
      if (!(error instanceof StripeRefusal)) throw error;
    }
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      ...CORS_HEADERS,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
      'Cache-Control': 'no-store',
      'Request-Id': `req_${randomBytes(7).toString('hex')}`,
      ...headers,
    });
    res.end(text);
  }

  // ------------------------------------------------------------------ expansion

  /** An object by its id, whatever its kind. */
  private find(id: string): unknown {
    const { ledger, billing } = this;
    for (const map of [
      ledger.customers,
      ledger.paymentMethods,
      ledger.paymentIntents,
      ledger.charges,
      ledger.setupIntents,
      billing.invoices,
      billing.subscriptions,
      billing.prices,
      billing.products,
    ] as Map<string, unknown>[])
      if (map.has(id)) return map.get(id);
    return undefined;
  }

  /** The answer with `expand[]`'s ids replaced by their objects (and an invoice's includable fields included). */
  private expand(result: unknown, paths: string[]): unknown {
    const copy = structuredClone(result);
    const walk = (node: unknown, parts: string[]): void => {
      if (!node || typeof node !== 'object' || parts.length === 0) return;
      const record = node as Record<string, unknown>;
      const [head, ...rest] = parts as [string, ...string[]];
      if (record.object === 'list' && head === 'data') {
        for (const item of record.data as unknown[]) walk(item, rest);
        return;
      }
      if (record.object === 'invoice' && head === 'payments')
        record.payments = {
          object: 'list',
          // Copies: what is expanded inside them must not change the double's own payments.
          data: structuredClone(this.billing.paymentsOf({ invoice: String(record.id) })),
          has_more: false,
        };
      else if (record.object === 'invoice' && head === 'confirmation_secret') {
        const payment = this.billing.paymentsOf({ invoice: String(record.id) })[0];
        const intent = payment && this.ledger.paymentIntents.get(payment.payment.payment_intent);
        record.confirmation_secret = intent ? { client_secret: intent.client_secret, type: 'payment_intent' } : null;
      } else if (typeof record[head] === 'string')
        record[head] = structuredClone(this.find(record[head]) ?? record[head]);
      walk(record[head], rest);
    };
    for (const path of paths) walk(copy, path.split('.'));
    return copy;
  }

  // ------------------------------------------------------------------ the customer portal

  private portalSession(customer: string, returnUrl: string): PortalSession {
    const id = `bps_${randomBytes(24).toString('hex')}`;
    const now = Math.floor(this.now() / 1000);
    const session: PortalSession = {
      id,
      object: 'billing_portal.session',
      customer,
      return_url: returnUrl,
      url: `${this.pages.browserBase()}/portal/${id}`,
      created: now,
      livemode: false,
    };
    for (const [key, open] of this.portals) if (open.until <= now) this.portals.delete(key);
    this.portals.set(id, { session, until: now + PORTAL_LINK_SECONDS, opened: false });
    return session;
  }

  private portal(res: ServerResponse, id: string, method: string, bodyText: string, done: string): void {
    const now = Math.floor(this.now() / 1000);
    const open = this.portals.get(id);
    if (!open || open.until <= now) return portalGone(res, this.pages);
    if (!open.opened) Object.assign(open, { opened: true, until: now + PORTAL_SESSION_SECONDS });
    if (method === 'POST') {
      let done = '';
      this.run(() => (done = portalAction(this.pages, open.session, new URLSearchParams(bodyText))));
      return backToPortal(res, this.pages, id, done);
    }
    portalPage(res, this.pages, open.session, done);
  }

  // ------------------------------------------------------------------ its state in a file (dev mode)

  /** What is kept: every object map. */
  private maps(): Record<string, Map<string, unknown>> {
    const { ledger, billing } = this;
    return {
      customers: ledger.customers,
      paymentMethods: ledger.paymentMethods,
      tokens: ledger.tokens,
      paymentIntents: ledger.paymentIntents,
      charges: ledger.charges,
      refunds: ledger.refunds,
      disputes: ledger.disputes,
      setupIntents: ledger.setupIntents,
      cards: ledger.cards,
      challenges: ledger.challenges,
      products: billing.products,
      prices: billing.prices,
      coupons: billing.coupons,
      subscriptions: billing.subscriptions,
      invoices: billing.invoices,
      invoicePayments: billing.invoicePayments,
    } as Record<string, Map<string, unknown>>;
  }

  private changed(): void {
    if (!this.options.stateFile || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, 200);
    this.saveTimer.unref();
  }

  private save(): void {
    const file = this.options.stateFile;
    if (!file) return;
    const state = Object.fromEntries(Object.entries(this.maps()).map(([name, map]) => [name, [...map]]));
    writeFileSync(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  private load(file: string): void {
    let state: Record<string, Array<[string, unknown]>>;
    try {
      state = JSON.parse(readFileSync(file, 'utf8')) as typeof state;
    } catch {
      return; // none yet (or unreadable: a fresh double)
    }
    for (const [name, map] of Object.entries(this.maps()))
      for (const [id, value] of state[name] ?? []) map.set(id, value);
  }
}

/** A request's body as text (1 MB at most, like Stripe's limit order of magnitude). */
async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1024 * 1024) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
