/**
 * Tests only: a Stripe double of the test's own (dev/stripe.ts) on a loopback port, the account a server under test
 * charges through (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_URL, or the `stripe` server option), and what
 * the tests do around it as the others would: the browser (a confirmation token of a test card, a 3-D Secure
 * challenge completed or failed, with the publishable key), the operator (the official SDK against the double:
 * refunds, renewals) and Stripe's webhooks (signed with the SDK's `generateTestHeaderString`, sent by hand).
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { StripeAccount } from '../commerce/providers/stripe.js';
import { StripeDouble } from '../dev/stripe.js';
import type { StripeEvent } from '../dev/stripe-objects.js';
import { request, type Answer } from './harness.js';

/** Stripe's test cards the double knows. */
export const CARDS = {
  ok: '4242424242424242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  /** 3-D Secure on-session; once set up, none off-session. */
  auth: '4000002500003155',
  /** 3-D Secure on every payment. */
  authAlways: '4000002760003184',
  /** 3-D Secure 2 on every on-session payment. */
  auth3ds2: '4000000000003220',
} as const;

/** The publishable key the double takes from browsers (the demo channel's, in its settings). */
export const PUBLISHABLE_KEY = 'pk_test_demo';

export class TestStripe {
  readonly secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  double!: StripeDouble;
  /** The official SDK, pointed at the double with the secret key (what an operator's own scripts would do). */
  sdk!: Stripe;

  constructor(
    /** The double's clock (ms): the server's, so a test moving one moves both. */
    private readonly now: () => number = Date.now,
    /** How soon a webhook the server did not take is sent again. */
    private readonly retryDelaysMs: number[] = [50, 100, 200, 400],
  ) {}

  /** Starts the double; answers the account a server charges through. */
  async start(): Promise<StripeAccount> {
    this.double = new StripeDouble({ secretKey: this.secretKey, now: this.now, retryDelaysMs: this.retryDelaysMs });
    const url = new URL(await this.double.listen(0));
    this.sdk = new Stripe(this.secretKey, {
      host: url.hostname,
      port: Number(url.port),
      protocol: 'http',
      maxNetworkRetries: 0,
      telemetry: false,
    });
    return this.account;
  }

  get account(): StripeAccount {
    return { secretKey: this.secretKey, webhookSecret: this.webhookSecret, apiUrl: this.double.url };
  }

  /** The environment of a server process that charges through this double. */
  get env(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: this.secretKey,
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_API_URL: this.double.url,
    };
  }

  /** From now on, events go to these servers' webhook endpoints (of the channels named), and only to them. */
  sendTo(bases: string[], channels = ['demo']): void {
    this.double.webhooks.endpoints.length = 0;
    for (const base of bases)
      for (const channel of channels) this.double.addEndpoint(`${base}/stripe/webhooks/${channel}`, this.webhookSecret);
  }

  /** A confirmation token of a test card, as Stripe.js makes it from the Payment Element (with the publishable key). */
  async token(number: string = CARDS.ok, key = PUBLISHABLE_KEY): Promise<string> {
    const res = await this.browser('POST', '/v1/confirmation_tokens', key, {
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': number,
      'payment_method_data[card][exp_month]': '12',
      'payment_method_data[card][exp_year]': '2040',
      'payment_method_data[card][cvc]': '123',
    });
    if (res.status !== 200) throw new Error(`no confirmation token: ${JSON.stringify(res.body)}`);
    return String(res.body.id);
  }

  /** A call of Stripe.js (the publishable key) to the double. */
  browser(method: string, path: string, key: string, params: Record<string, string> = {}): Promise<Answer> {
    const form = new URLSearchParams(params).toString();
    return request(`${this.double.url}${path}${method === 'GET' && form ? `?${form}` : ''}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      ...(method === 'GET' ? {} : { body: form }),
    });
  }

  /**
   * The browser finishes a 3-D Secure challenge (what `stripe.handleNextAction` does): reads the intent by its client
   * secret, then completes or fails the challenge it names. Answers the intent as it is after.
   */
  async authenticate(
    clientSecret: string,
    complete: boolean,
  ): Promise<{ status: string; last_payment_error?: { message: string } }> {
    const intentId = clientSecret.split('_secret_')[0]!;
    const kind = intentId.startsWith('seti_') ? 'setup_intents' : 'payment_intents';
    const read = () => this.browser('GET', `/v1/${kind}/${intentId}`, PUBLISHABLE_KEY, { client_secret: clientSecret });
    const intent = await read();
    const challenge = String(intent.body.next_action?.use_stripe_sdk?.stripe_js ?? '');
    if (!challenge) throw new Error(`no challenge to answer: ${JSON.stringify(intent.body)}`);
    const answered = await request(challenge, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `result=${complete ? 'complete' : 'fail'}`,
    });
    if (answered.status !== 200) throw new Error(`the challenge was not answered: ${JSON.stringify(answered.body)}`);
    return (await read()).body;
  }

  /** A `Stripe-Signature` header for a payload (now, or at `timestamp` seconds), with a secret (the right one). */
  signature(payload: string, timestamp = Math.floor(this.now() / 1000), secret = this.webhookSecret): string {
    return this.sdk.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  }

  /** Posts an event to a server's webhook endpoint by hand, signed (or with the header given). */
  postEvent(
    base: string,
    event: StripeEvent | Record<string, unknown>,
    signature?: string,
    channel = 'demo',
  ): Promise<Answer> {
    const payload = JSON.stringify(event);
    return request(`${base}/stripe/webhooks/${channel}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature ?? this.signature(payload) },
      body: payload,
    });
  }

  /** The events the double recorded of a type, oldest first. */
  events(type: string): StripeEvent[] {
    return this.double.webhooks.events.filter((e) => e.type === type);
  }

  /** Waits until every webhook was delivered (and retried as needed). */
  idle(): Promise<void> {
    return this.double.webhooks.idle();
  }

  /** The payment intents of an order (by the channel's metadata). */
  intentsOf(orderId: number, channel = 'demo') {
    return [...this.double.ledger.paymentIntents.values()].filter(
      (i) => i.metadata.channel === channel && i.metadata.order_id === String(orderId),
    );
  }

  /** The charges of a customer's (all of them), whatever they paid. */
  chargesOf(customer: string) {
    return [...this.double.ledger.charges.values()].filter((c) => c.customer === customer);
  }

  close(): Promise<void> {
    return this.double?.close() ?? Promise.resolve();
  }
}
