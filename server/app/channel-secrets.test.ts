/**
 * A channel's own secrets (channel/secrets.ts) on the production code path: Stripe through the official SDK against
 * the Stripe double this file starts, which takes two accounts' keys (the server's, from its options as from
 * STRIPE_SECRET_KEY, and a channel's own), and Google sign-in against a real OpenID provider (testing/oidc.ts). The
 * secrets are written with setChannelSecrets, as the operator API and the command line write them; the server learns
 * of them only by the SECRETS_CHANGED notification every process listens to (the writer is not the server here).
 *
 * - `demo-fr` with its own key and webhook signing secret: its purchases go over the wire with its key, `demo`'s with
 *   the server's; its webhooks are checked against its own secret (the server's is refused for it); removing them
 *   puts it back on the server's account.
 * - Prices synced (syncPrice): a Product per subscription, a new Price when the amount changes, the previous archived;
 *   a subscription sold at the synced Price.
 * - A live secret key with a test publishable key: no card payments for that channel, and the log says why.
 * - Production without STRIPE_SECRET_KEY: the channel with its own key sells, the others answer 503.
 * - Google sign-in with a channel's own client secret; a channel without one (and no server-wide one) is not offered
 *   Google.
 * - No secret in the log, whatever happens.
 * Run: node --import tsx --test server/app/channel-secrets.test.ts
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { endpoints } from '../../src/api/contract.js';
import { setChannelSecrets, type SecretName } from '../channel/secrets.js';
import { PAYMENTS_OFF } from '../commerce/providers/provider.js';
import { createStripeProvider } from '../commerce/providers/stripe.js';
import type { ChannelDb } from '../storage/db.js';
import { captureLog, Harness, ok, request, startTestServer, type Answer } from '../testing/harness.js';
import { TestOpenIdProvider } from '../testing/oidc.js';
import { until } from '../testing/processes.js';
import { CARDS, TestStripe } from '../testing/stripe.js';
import type { RunningServer, ServerOptions } from './server.js';

const OWN_KEY = `sk_test_own_${randomBytes(12).toString('hex')}`;
const OWN_WEBHOOK = `whsec_own_${randomBytes(16).toString('hex')}`;

const channelId = async (db: ChannelDb, key: string) =>
  Number((await db.get('SELECT id FROM channels WHERE channel_key = ?', [key]))!.id);

const setSecrets = async (db: ChannelDb, key: string, values: Partial<Record<SecretName, string | null>>) =>
  setChannelSecrets(db, await channelId(db, key), values, Date.now());

/** A client of one channel of a server: its api key, registration, purchases. */
class Viewer {
  token = '';
  private keys = 0;
  private constructor(
    private readonly base: string,
    readonly apiKey: string,
  ) {}

  static async of(base: string, channel: string): Promise<Viewer> {
    const res = await request(`${base}/api/get_api_key`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel_key: channel }),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const viewer = new Viewer(base, String(res.body.data.api_key));
    const email = `secrets-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await viewer.post('v2/auth/register', {
      first_name: 'Sam',
      last_name: 'Secret',
      email,
      password: 'secret-pass-1',
      password_confirmation: 'secret-pass-1',
      terms: true,
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    viewer.token = String(registered.body.data.token);
    return viewer;
  }

  post(path: string, body: Record<string, unknown>): Promise<Answer> {
    return request(`${this.base}/api/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}) },
      body: JSON.stringify({ api_key: this.apiKey, ...body }),
    });
  }

  get(path: string): Promise<Answer> {
    return request(`${this.base}/api/${path}?api_key=${this.apiKey}`, {
      headers: this.token ? { Authorization: `Bearer ${this.token}` } : {},
    });
  }

  buy(product: Record<string, unknown>, confirmationToken: string): Promise<Answer> {
    return this.post('stripe/buy', {
      idempotency_key: `00000000-0000-4000-8000-${String(++this.keys).padStart(12, '0')}`,
      confirmation_token: confirmationToken,
      ...product,
    });
  }
}

/** A paid event of a channel (its fixture key), as a purchase names it (with its single-event package). */
async function paidEvent(h: Harness, viewer: Viewer, channel: string, key = 'paid-live') {
  const events = (await h.call(`/__dev/events?channel_key=${channel}`)).body.data as Record<string, number>;
  ok(events[key], `${channel} has an event ${key}`);
  const event = endpoints.event.response.parse((await viewer.get(`events/${events[key]}`)).body).data;
  return { type: 'event', id: event.id, single_event_package_id: event.single_event_package_id };
}

describe("a channel's own Stripe account (dev mode, the server's account set too)", () => {
  const options: ServerOptions = {};
  const h = new Harness(options);
  const stripe = new TestStripe(() => h.nowMs);
  let log: ReturnType<typeof captureLog>;

  before(async () => {
    log = captureLog();
    options.stripe = await stripe.start();
    stripe.double.addSecretKey(OWN_KEY);
    await h.start();
    // Stripe's endpoints: demo's signed with the server's secret, demo-fr's with its own.
    stripe.sendTo([h.base], ['demo']);
    stripe.double.addEndpoint(`${h.base}/stripe/webhooks/demo-fr`, OWN_WEBHOOK);
    await setSecrets(h.server.db, 'demo-fr', { stripe_secret_key: OWN_KEY, stripe_webhook_secret: OWN_WEBHOOK });
  });
  after(async () => {
    await stripe.idle();
    await h.stop();
    await stripe.close();
    log.restore();
  });

  /** A harmless event (no fact in it), signed with `secret`, posted to a channel's endpoint. */
  const ping = (channel: string, secret: string) => {
    const payload = JSON.stringify({
      id: `evt_${randomBytes(8).toString('hex')}`,
      object: 'event',
      type: 'customer.created',
      created: Math.floor(h.nowMs / 1000),
      data: { object: { id: 'cus_x', object: 'customer' } },
    });
    return request(`${h.base}/stripe/webhooks/${channel}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripe.signature(payload, undefined, secret) },
      body: payload,
    });
  };

  test("its webhooks are checked against its own signing secret: the server's is refused for it", async () => {
    // The server hears of the new secrets by the notification: once it has, its own secret signs.
    await until('demo-fr takes its own signature', async () => (await ping('demo-fr', OWN_WEBHOOK)).status === 200);
    const refused = await ping('demo-fr', stripe.webhookSecret);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal((await ping('demo', stripe.webhookSecret)).status, 200, "demo keeps the server's");
    assert.equal((await ping('demo', OWN_WEBHOOK)).status, 400, "and demo-fr's secret is not demo's");
  });

  test("a purchase goes over the wire with the channel's own key; another channel's with the server's", async () => {
    const fr = await Viewer.of(h.base, 'demo-fr');
    const demo = await Viewer.of(h.base, 'demo');
    const before = stripe.double.requests.length;
    const frBuy = await fr.buy(await paidEvent(h, fr, 'demo-fr'), await stripe.token(CARDS.ok, 'pk_test_demo_fr'));
    assert.equal(frBuy.status, 200, JSON.stringify(frBuy.body));
    const frOrder = endpoints.buy.response.parse(frBuy.body).data.order;
    const demoBuy = await demo.buy(await paidEvent(h, demo, 'demo'), await stripe.token());
    assert.equal(demoBuy.status, 200, JSON.stringify(demoBuy.body));
    const intents = stripe.double.requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    assert.deepEqual(
      intents.map((r) => r.secretKey === OWN_KEY),
      [true, false],
      'demo-fr with its key, demo with the server’s',
    );
    assert.equal(intents[1]!.secretKey, stripe.secretKey);
    // Settled by demo-fr's own webhooks (signed with its secret) too.
    await stripe.idle();
    const row = await h.server.db.get('SELECT status FROM orders WHERE id = ?', [frOrder.id]);
    assert.equal(row?.status, 'paid');
  });

  test('prices synced: a Product per subscription, a new Price for a new amount, the old one archived; a sale at the synced Price', async () => {
    const db = h.server.db;
    const frId = await channelId(db, 'demo-fr');
    const sub = (await db.get("SELECT * FROM subscriptions WHERE channel_id = ? AND offer = 'monthly' ORDER BY id", [
      frId,
    ]))!;
    const provider = createStripeProvider(
      { secretKey: OWN_KEY, webhookSecret: OWN_WEBHOOK, apiUrl: stripe.double.url },
      () => h.nowMs,
      'demo-fr',
    );
    const product = {
      kind: 'subscription' as const,
      id: Number(sub.id),
      name: 'Pass mensuel',
      amount: 3.5,
      currency: String((await h.call('/__dev/settings?channel_key=demo-fr')).body.data.currency),
      interval: 'month' as const,
    };
    const first = await provider.syncPrice!({ ...product, previous: null });
    assert.equal(await provider.syncPrice!({ ...product, previous: first }), first, 'the same amount: the same Price');
    const second = await provider.syncPrice!({ ...product, amount: 4.5, previous: first });
    assert.notEqual(second, first);
    const prices = stripe.double.billing.prices;
    assert.deepEqual(
      [prices.get(first)!.active, prices.get(second)!.active, prices.get(second)!.unit_amount],
      [false, true, 450],
    );
    assert.equal(stripe.double.billing.products.get(prices.get(second)!.product)!.name, 'Pass mensuel');
    // Sold at the stored Price when it says the sale's amount (the subscription's price with its fee).
    const fee = Number(sub.service_fee ?? 0);
    const base = sub.base_price == null ? Number(sub.price) - fee : Number(sub.base_price);
    const amount = Math.round((base + fee) * 100) / 100;
    const synced = await provider.syncPrice!({ ...product, amount, previous: second });
    await db.run('UPDATE subscriptions SET processor_price = ? WHERE id = ?', [synced, sub.id!]);
    const fr = await Viewer.of(h.base, 'demo-fr');
    const res = await fr.buy(
      { type: 'subscription', id: Number(sub.id) },
      await stripe.token(CARDS.ok, 'pk_test_demo_fr'),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const made = [...stripe.double.billing.subscriptions.values()].filter((s) => s.metadata.channel === 'demo-fr');
    assert.equal(made.at(-1)?.items.data[0]?.price.id, synced);
  });

  test('a live secret key with a test publishable key: no card payments for that channel, and the log says why', async () => {
    const live = `sk_live_${randomBytes(12).toString('hex')}`;
    await setSecrets(h.server.db, 'demo-fr', { stripe_secret_key: live });
    const fr = await Viewer.of(h.base, 'demo-fr');
    const answer = await until('demo-fr refuses card calls', async () => {
      const res = await fr.post('stripe/setup-intent', {});
      return res.status === 503 ? res : undefined;
    });
    assert.equal(answer.body.message, PAYMENTS_OFF);
    ok(
      log.lines.some((line) => line.includes('channel demo-fr has no card payments') && line.includes('a live key')),
      'the log says why',
    );
    // Back to its test key.
    await setSecrets(h.server.db, 'demo-fr', { stripe_secret_key: OWN_KEY });
    await until('demo-fr sells again', async () => (await fr.post('stripe/setup-intent', {})).status === 200);
  });

  test("without its own secrets, the channel is back on the server's account", async () => {
    await setSecrets(h.server.db, 'demo-fr', { stripe_secret_key: null, stripe_webhook_secret: null });
    await until(
      "demo-fr takes the server's signature again",
      async () => (await ping('demo-fr', stripe.webhookSecret)).status === 200,
    );
    assert.equal((await ping('demo-fr', OWN_WEBHOOK)).status, 400);
    const fr = await Viewer.of(h.base, 'demo-fr');
    const before = stripe.double.requests.length;
    assert.equal((await fr.post('stripe/setup-intent', {})).status, 200);
    ok(
      stripe.double.requests.slice(before).every((r) => r.secretKey === stripe.secretKey),
      "the server's key only",
    );
  });

  test("a signing secret alone is its endpoint's in the server's account; a key alone borrows no signing secret", async () => {
    await setSecrets(h.server.db, 'demo-fr', { stripe_webhook_secret: OWN_WEBHOOK });
    await until('demo-fr takes its own signature', async () => (await ping('demo-fr', OWN_WEBHOOK)).status === 200);
    assert.equal((await ping('demo-fr', stripe.webhookSecret)).status, 400);
    await setSecrets(h.server.db, 'demo-fr', { stripe_secret_key: OWN_KEY, stripe_webhook_secret: null });
    const refused = await until('demo-fr refuses every signature', async () => {
      const res = await ping('demo-fr', OWN_WEBHOOK);
      return res.status === 400 && (await ping('demo-fr', stripe.webhookSecret)).status === 400 ? res : undefined;
    });
    assert.equal(refused.body.message, 'No webhook signing secret is set for this channel.');
    await setSecrets(h.server.db, 'demo-fr', { stripe_secret_key: null });
  });

  test('the publishable key and the client ids are settings checked when written, each refusal naming its field', async () => {
    const change = (body: unknown) =>
      h.call('/__dev/settings?channel_key=demo-fr', {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify(body),
      });
    try {
      for (const [bad, field] of [
        [{ stripe: { publishable_key: 'sk_test_123' } }, 'stripe.publishable_key'],
        [{ stripe: { publishable_key: 'pk_demo' } }, 'stripe.publishable_key'],
        [{ social: { google: { client_id: 'two words' } } }, 'social.google.client_id'],
        [{ social: { facebook: { client_id: '' } } }, 'social.facebook.client_id'],
      ] as const) {
        const res = await change(bad);
        assert.equal(res.status, 422, JSON.stringify(bad));
        ok(res.body.errors?.[field]?.length, `${field} named: ${JSON.stringify(res.body)}`);
      }
      assert.equal((await change({ stripe: { publishable_key: 'pk_live_51Habc' } })).status, 200);
    } finally {
      await h.call('/__dev/settings?channel_key=demo-fr', { method: 'DELETE' });
    }
  });

  test('no secret is ever logged', () => {
    const text = log.lines.join('\n');
    for (const secret of [OWN_KEY, OWN_WEBHOOK, stripe.secretKey, stripe.webhookSecret])
      assert.ok(!text.includes(secret), 'a secret in the log');
    assert.doesNotMatch(text, /sk_live_[0-9a-f]{6}/);
  });
});

describe('production without STRIPE_SECRET_KEY: the channels with their own key sell, the others answer 503', () => {
  const stripe = new TestStripe();
  let server: RunningServer;
  let dir = '';
  before(async () => {
    await stripe.start();
    stripe.double.addSecretKey(OWN_KEY);
    dir = mkdtempSync(join(tmpdir(), 'channel-secrets-prod-'));
    server = await startTestServer({ port: 0, dataDir: join(dir, 'data'), stripeApiUrl: stripe.double.url });
  });
  after(async () => {
    await server.stop();
    await stripe.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('demo with its own key takes card calls; demo-fr has none', async () => {
    const demo = await Viewer.of(server.origin, 'demo');
    const fr = await Viewer.of(server.origin, 'demo-fr');
    const off = await demo.post('stripe/setup-intent', {});
    assert.equal(off.status, 503, 'nothing before its secrets');
    assert.equal(off.body.message, PAYMENTS_OFF);
    await setSecrets(server.db, 'demo', { stripe_secret_key: OWN_KEY, stripe_webhook_secret: OWN_WEBHOOK });
    const setup = await until('demo takes card calls', async () => {
      const res = await demo.post('stripe/setup-intent', {});
      return res.status === 200 ? res : undefined;
    });
    ok(String(setup.body.data.client_secret).startsWith('seti_'), JSON.stringify(setup.body));
    assert.equal(stripe.double.requests.at(-1)?.secretKey, OWN_KEY);
    assert.equal((await fr.post('stripe/setup-intent', {})).status, 503);
  });
});

describe("Google sign-in with a channel's own client secret (production, no server-wide secret)", () => {
  const OWN_GOOGLE = `google-own-${randomBytes(8).toString('hex')}`;
  let op: TestOpenIdProvider;
  let server: RunningServer;
  let dir = '';
  let log: ReturnType<typeof captureLog>;
  before(async () => {
    log = captureLog();
    op = await TestOpenIdProvider.start();
    dir = mkdtempSync(join(tmpdir(), 'channel-secrets-google-'));
    server = await startTestServer({ port: 0, dataDir: join(dir, 'data'), google: { issuer: op.issuer } });
    op.register([
      {
        client_id: 'demo-google-client',
        client_secret: OWN_GOOGLE,
        redirect_uris: [`${server.origin}/auth/login/google/callback`],
      },
    ]);
  });
  after(async () => {
    await server.stop();
    await op.stop();
    rmSync(dir, { recursive: true, force: true });
    log.restore();
  });

  const settings = async (channel: string) =>
    endpoints.settings.response.parse((await request(`${server.origin}/api/settings?channel_key=${channel}`)).body)
      .data;

  test('offered to the channel with its own secret only, and signing in with it', async () => {
    assert.equal((await settings('demo')).social?.google, undefined, 'no secret anywhere: not offered');
    await setSecrets(server.db, 'demo', { google_client_secret: OWN_GOOGLE });
    await until('demo offers Google', async () => (await settings('demo')).social?.google);
    assert.equal((await settings('demo-fr')).social?.google, undefined, 'demo-fr has no secret: not offered');
    op.people.set('g-own', { email: 'own@gmail.test', email_verified: true, given_name: 'Owen', family_name: 'Own' });
    const viewer = await Viewer.of(server.origin, 'demo');
    viewer.token = '';
    const callback = `${server.origin}/auth/login/google/callback`;
    const started = await viewer.post('v2/auth/social/google/start', { redirect_uri: callback });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const at = await op.signIn(String(started.body.data.url), 'g-own');
    const res = await viewer.post('v2/auth/social/google', {
      code: at.searchParams.get('code'),
      state: at.searchParams.get('state'),
      iss: at.searchParams.get('iss'),
      redirect_uri: callback,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const session = endpoints.socialLogin.response.parse(res.body).data;
    assert.deepEqual([session.user.email, session.user.provider], ['own@gmail.test', 'google']);
    // demo-fr: not offered, so a start is refused.
    const fr = await Viewer.of(server.origin, 'demo-fr');
    assert.equal((await fr.post('v2/auth/social/google/start', { redirect_uri: callback })).status, 404);
    assert.ok(!log.lines.join('\n').includes(OWN_GOOGLE), 'the secret is never logged');
  });
});
