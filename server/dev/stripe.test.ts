/**
 * The Stripe double itself (dev/stripe.ts), as the official SDK and Stripe.js's double see it: the test cards and
 * Stripe's card errors, the keys (a publishable key only for what Stripe.js may call), idempotency keys, intents
 * read by their client secret, the 3-D Secure challenge page, expansion that only reads (an invoice's payments),
 * amounts by currency (currencies.ts), and webhooks signed as Stripe signs them and sent again after a 5xx.
 * Run: node --import tsx --test server/dev/stripe.test.ts
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Stripe from 'stripe';
import { toMajorUnits, toMinorUnits } from '../commerce/providers/currencies.js';
import { ok, request } from '../testing/harness.js';
import { CARDS, PUBLISHABLE_KEY, TestStripe } from '../testing/stripe.js';

const stripe = new TestStripe(Date.now, [30, 60]);
before(() => stripe.start());
after(() => stripe.close());

const card = (number: string, extra: Record<string, string> = {}) => ({
  'payment_method_data[type]': 'card',
  'payment_method_data[card][number]': number,
  'payment_method_data[card][exp_month]': '12',
  'payment_method_data[card][exp_year]': '2040',
  'payment_method_data[card][cvc]': '123',
  ...extra,
});

describe('cards and keys', () => {
  test('confirmation tokens of the test cards; Stripe’s card errors in its order; the number never kept', async () => {
    const token = await stripe.browser('POST', '/v1/confirmation_tokens', PUBLISHABLE_KEY, card('4242 4242 4242 4242'));
    assert.equal(token.status, 200);
    assert.equal(token.headers.get('access-control-allow-origin'), '*');
    ok(/^ctoken_[0-9a-f]+$/.test(token.body.id), token.body.id);
    assert.deepEqual(
      [token.body.payment_method_preview.card.brand, token.body.payment_method_preview.card.last4],
      ['visa', '4242'],
    );
    const cases: Array<[Record<string, string>, string]> = [
      [card('4242 4242'), 'incomplete_number'],
      [card('4242424242424241'), 'invalid_number'],
      [card('4111111111111111'), 'incorrect_number'],
      [card(CARDS.ok, { 'payment_method_data[card][exp_year]': '' }), 'incomplete_expiry'],
      [card(CARDS.ok, { 'payment_method_data[card][exp_month]': '13' }), 'invalid_expiry_month'],
      [card(CARDS.ok, { 'payment_method_data[card][exp_year]': '2020' }), 'invalid_expiry_year'],
      [card(CARDS.ok, { 'payment_method_data[card][cvc]': '12' }), 'incomplete_cvc'],
    ];
    for (const [params, code] of cases) {
      const res = await stripe.browser('POST', '/v1/confirmation_tokens', PUBLISHABLE_KEY, params);
      assert.deepEqual([res.status, res.body.error.type, res.body.error.code], [402, 'card_error', code]);
      ok(String(res.body.error.param).startsWith('payment_method_data[card]'), 'names the field');
    }
    ok(!JSON.stringify([...stripe.double.ledger.tokens.values()]).includes(CARDS.ok), 'no card number kept');
  });

  test('a publishable key reaches only what Stripe.js calls; a wrong key is masked; unknown routes 404', async () => {
    const secretOnly = await stripe.browser('POST', '/v1/customers', PUBLISHABLE_KEY, { email: 'x@example.com' });
    assert.deepEqual([secretOnly.status, secretOnly.body.error.type], [403, 'authentication_error']);
    const wrong = await stripe.browser('POST', '/v1/confirmation_tokens', 'sk_test_nobody_knows', card(CARDS.ok));
    assert.equal(wrong.status, 401);
    ok(!JSON.stringify(wrong.body).includes('sk_test_nobody_knows'), 'the key is masked');
    assert.equal((await stripe.browser('POST', '/v1/confirmation_tokens', '', card(CARDS.ok))).status, 401);
    assert.equal((await stripe.browser('GET', '/v1/nothing', PUBLISHABLE_KEY)).status, 404);
  });

  test('an intent is read by the browser only with its client secret', async () => {
    const customer = await stripe.sdk.customers.create({ email: 'reader@example.com' });
    const intent = await stripe.sdk.paymentIntents.create({ amount: 500, currency: 'usd', customer: customer.id });
    const read = (secret: string) =>
      stripe.browser('GET', `/v1/payment_intents/${intent.id}`, PUBLISHABLE_KEY, { client_secret: secret });
    assert.equal((await read(intent.client_secret!)).status, 200);
    assert.equal((await read(`${intent.id}_secret_wrong`)).status, 404);
  });
});

describe('the SDK’s calls', () => {
  test('an idempotency key answers the same answer; reused with other parameters, it is refused', async () => {
    const customer = await stripe.sdk.customers.create({ email: 'twice@example.com' });
    const params = {
      amount: 1000,
      currency: 'usd',
      customer: customer.id,
      confirm: true,
      confirmation_token: await stripe.token(),
    };
    const first = await stripe.sdk.paymentIntents.create(params, { idempotencyKey: 'key-1' });
    const again = await stripe.sdk.paymentIntents.create(params, { idempotencyKey: 'key-1' });
    assert.equal(again.id, first.id);
    assert.equal(again.lastResponse.headers['idempotent-replayed'], 'true');
    await assert.rejects(
      stripe.sdk.paymentIntents.create({ ...params, amount: 2000 }, { idempotencyKey: 'key-1' }),
      (error: unknown) => error instanceof Stripe.errors.StripeIdempotencyError,
    );
    assert.equal([...stripe.double.ledger.charges.values()].filter((c) => c.customer === customer.id).length, 1);
  });

  test('a declined card: 402 card_error with the intent, as the SDK’s StripeCardError', async () => {
    const customer = await stripe.sdk.customers.create({ email: 'declined@example.com' });
    await assert.rejects(
      stripe.sdk.paymentIntents.create({
        amount: 1000,
        currency: 'eur',
        customer: customer.id,
        confirm: true,
        confirmation_token: await stripe.token(CARDS.insufficient),
      }),
      (error: unknown) => {
        assert.ok(error instanceof Stripe.errors.StripeCardError);
        assert.deepEqual(
          [error.code, error.decline_code, error.message],
          ['card_declined', 'insufficient_funds', 'Your card has insufficient funds.'],
        );
        assert.equal(
          (error.raw as { payment_intent?: { status: string } }).payment_intent?.status,
          'requires_payment_method',
        );
        return true;
      },
    );
  });

  test('3-D Secure: the challenge page (Complete, Fail) for the browser; its answer settles the intent', async () => {
    const customer = await stripe.sdk.customers.create({ email: 'challenged@example.com' });
    const intent = await stripe.sdk.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: customer.id,
      confirm: true,
      confirmation_token: await stripe.token(CARDS.auth),
    });
    assert.equal(intent.status, 'requires_action');
    const url = String((intent.next_action as { use_stripe_sdk?: { stripe_js?: string } }).use_stripe_sdk?.stripe_js);
    ok(url.startsWith(`${stripe.double.url}/v1/3ds/3ds_`), url);
    ok(!url.includes(intent.client_secret!), 'the challenge’s address holds no client secret');
    const page = await request(url, { headers: { Accept: 'text/html' } });
    assert.equal(page.status, 200);
    ok(page.body.includes('Complete authentication') && page.body.includes('Fail authentication'), page.body);
    ok(!/<script|style=/.test(page.body), 'no inline script or style');
    const done = await request(url, {
      method: 'POST',
      headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'result=complete',
    });
    ok(String(done.body).includes('This authentication is over'), done.body);
    assert.equal((await stripe.sdk.paymentIntents.retrieve(intent.id)).status, 'succeeded');
    const again = await request(url, { headers: { Accept: 'text/html' } });
    ok(String(again.body).includes('This authentication is over'), 'answered once');
    ok(!String(again.body).includes('Complete authentication'), again.body);
  });

  test('an invoice read with its payments’ intents expanded is only read: authenticated, its intent still pays it', async () => {
    const customer = await stripe.sdk.customers.create({ email: 'expanded@example.com' });
    const product = await stripe.sdk.products.create({ name: 'Expanded' });
    const price = await stripe.sdk.prices.create({
      product: product.id,
      unit_amount: 1200,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 12 },
    });
    const sub = await stripe.sdk.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['latest_invoice.payments'],
    });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    const intentId = String(invoice.payments!.data[0]!.payment.payment_intent);
    const intent = await stripe.sdk.paymentIntents.confirm(intentId, {
      confirmation_token: await stripe.token(CARDS.auth),
    });
    assert.equal(intent.status, 'requires_action');
    // What the channel server reads while the buyer authenticates (a second tab's purchase reads the order back).
    const read = await stripe.sdk.invoices.retrieve(invoice.id!, { expand: ['payments.data.payment.payment_intent'] });
    assert.equal((read.payments!.data[0]!.payment.payment_intent as Stripe.PaymentIntent).id, intentId);
    const listed = await stripe.sdk.invoicePayments.list({ invoice: invoice.id! });
    assert.equal(listed.data[0]!.payment.payment_intent, intentId, 'still an id outside that answer');
    assert.equal((await stripe.authenticate(intent.client_secret!, true)).status, 'succeeded');
    const paid = await stripe.sdk.invoices.retrieve(invoice.id!);
    assert.deepEqual([paid.status, paid.amount_paid], ['paid', 1200]);
    assert.equal((await stripe.sdk.subscriptions.retrieve(sub.id)).status, 'active');
    assert.equal(
      stripe.events('invoice.paid').filter((e) => (e.data.object as { id: string }).id === invoice.id).length,
      1,
    );
  });

  test('prices as at Stripe: one-time or recurring, archived and made active again, an archived or one-time one sells no subscription; products renamed', async () => {
    const product = await stripe.sdk.products.create({ name: 'Old name' });
    assert.equal((await stripe.sdk.products.update(product.id, { name: 'New name' })).name, 'New name');
    const once = await stripe.sdk.prices.create({ product: product.id, unit_amount: 500, currency: 'usd' });
    assert.deepEqual([once.type, once.recurring], ['one_time', null]);
    const monthly = await stripe.sdk.prices.create({
      product: product.id,
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'day', interval_count: 30 },
    });
    assert.equal((await stripe.sdk.prices.update(monthly.id, { active: false })).active, false);
    assert.equal((await stripe.sdk.prices.retrieve(monthly.id)).active, false);
    const customer = await stripe.sdk.customers.create({ email: 'prices@example.com' });
    for (const price of [monthly.id, once.id])
      await assert.rejects(
        stripe.sdk.subscriptions.create({ customer: customer.id, items: [{ price }] }),
        (error: Error) => error instanceof Stripe.errors.StripeInvalidRequestError,
      );
    assert.equal((await stripe.sdk.prices.update(monthly.id, { active: true })).active, true);
    const sub = await stripe.sdk.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
      payment_behavior: 'default_incomplete',
    });
    assert.equal(sub.items.data[0]!.price.id, monthly.id);
  });

  test('another account’s secret key is taken once added, and each call says which key made it', async () => {
    const other = `sk_test_other_${Date.now()}`;
    const url = new URL(stripe.double.url);
    const sdk = new Stripe(other, { host: url.hostname, port: Number(url.port), protocol: 'http', telemetry: false });
    await assert.rejects(sdk.customers.create({ email: 'other@example.com' }), /Invalid API Key/);
    stripe.double.addSecretKey(other);
    await sdk.customers.create({ email: 'other@example.com' });
    assert.equal(stripe.double.requests.at(-1)?.secretKey, other);
  });
});

describe('webhooks', () => {
  let endpoint: Server;
  const received: Array<{ status: number; event: string }> = [];
  let answers: number[] = [];
  before(async () => {
    endpoint = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const status = answers.shift() ?? 200;
        // Checked as the channel server checks it: the SDK's constructEvent with the endpoint's secret.
        const event = stripe.sdk.webhooks.constructEvent(
          body,
          String(req.headers['stripe-signature']),
          stripe.webhookSecret,
        );
        received.push({ status, event: event.id });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    stripe.double.webhooks.endpoints.length = 0;
    stripe.double.addEndpoint(
      `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`,
      stripe.webhookSecret,
    );
  });
  after(() => {
    stripe.double.webhooks.endpoints.length = 0;
    endpoint.close();
  });

  test('signed as Stripe signs them; sent again after a 5xx, not after a 4xx', async () => {
    answers = [503, 500];
    const first = await stripe.sdk.customers.create({ email: 'hooked@example.com' });
    await stripe.idle();
    const created = stripe.events('customer.created').find((e) => (e.data.object as { id: string }).id === first.id)!;
    assert.deepEqual(
      received.filter((r) => r.event === created.id).map((r) => r.status),
      [503, 500, 200],
      'tried again until taken',
    );
    answers = [400];
    const second = await stripe.sdk.customers.create({ email: 'refused@example.com' });
    await stripe.idle();
    const refusedEvent = stripe
      .events('customer.created')
      .find((e) => (e.data.object as { id: string }).id === second.id)!;
    assert.deepEqual(
      received.filter((r) => r.event === refusedEvent.id).map((r) => r.status),
      [400],
    );
  });
});

describe('currencies', () => {
  test('minor units by Stripe’s rules: two decimals, zero-decimal, three-decimal (a multiple of 10), ISK whole', () => {
    assert.deepEqual(
      [
        toMinorUnits(24.99, 'USD'),
        toMinorUnits(24.99, 'eur'),
        toMinorUnits(0.1 + 0.2, 'USD'),
        toMinorUnits(500, 'JPY'),
        toMinorUnits(24.99, 'JPY'),
        toMinorUnits(5.124, 'KWD'),
        toMinorUnits(40.1, 'ISK'),
      ],
      [2499, 2499, 30, 500, 25, 5120, 4000],
    );
    assert.deepEqual(
      [toMajorUnits(2499, 'USD'), toMajorUnits(500, 'JPY'), toMajorUnits(5120, 'KWD')],
      [24.99, 500, 5.12],
    );
  });
});
