/**
 * Email through SMTP: the server in dev mode with SMTP_URL pointing at a real SMTP server in this test process
 * (testing/smtp.ts, the `smtp-server` package), and what arrived read with `mailparser`. Registration's verification
 * email (multipart, in French for the French channel, from the channel's name, its link verifying the account), the
 * contact form and its copy, a request that never waits for the mail service, the service down during a
 * registration, a recipient refused for good (550), a service that says "later" (451) until the email expires.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { captureLog, Harness, ok, request } from '../testing/harness.js';
import { sleep, until } from '../testing/processes.js';
import { TestSmtp, type Received } from '../testing/smtp.js';

const MAIL_FROM = 'no-reply@tv.example';
let smtp: TestSmtp;
let h: Harness;

before(async () => {
  smtp = await TestSmtp.start();
  h = new Harness({ smtpUrl: smtp.url, mailFrom: MAIL_FROM, metricsPort: 0 });
  await h.start();
});
after(async () => {
  await h.stop();
  await smtp.stop();
});

let serial = 0;
const fresh = (tag: string) => `${tag}-${Date.now().toString(36)}-${serial++}@example.com`;

/** Registers on a channel (its api key); answers the response. */
async function register(
  email: string,
  key = h.key,
  names: { first: string; last: string } = { first: 'Pat', last: 'Mail' },
) {
  return h.post('/api/v2/auth/register', {
    api_key: key,
    first_name: names.first,
    last_name: names.last,
    email,
    password: 'mail-pass-1',
    password_confirmation: 'mail-pass-1',
    terms: true,
  });
}

/** The queue's rows for an address (GET /__dev/outbox). */
async function queued(to: string): Promise<Array<{ status: string; attempts: number; kind: string }>> {
  return (await h.call(`/__dev/outbox?to=${encodeURIComponent(to)}`)).body.data;
}

/** The operations listener's metrics text. */
async function metrics(): Promise<string> {
  return (await request(`http://127.0.0.1:${h.server.metricsPort}/metrics`)).body as string;
}

/** The value of one sample line of the metrics, 0 when absent. */
const sample = (text: string, line: string) =>
  Number(new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

/** The links an email's HTML points at. */
const hrefs = (received: Received) => [...String(received.mail.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);

describe('email through SMTP', () => {
  test("registration on the French channel: a multipart verification email in French, from the channel's name, whose link verifies the account", async () => {
    const key = await h.apiKey('demo-fr');
    const email = fresh('zoe');
    const res = await register(email, key, { first: 'Zoé <b>', last: 'Tremblay' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [received] = await smtp.waitFor(email);
    const { mail, raw } = received!;
    // Over the wire: who logged in, the envelope, and the headers a mail reader shows.
    assert.deepEqual([received!.user, received!.from, received!.to], ['mailer', MAIL_FROM, [email]]);
    assert.match(raw, /^Content-Type: multipart\/alternative;/m);
    assert.equal(mail.subject, 'Confirmez votre adresse e-mail pour Réseau Sports Démo');
    assert.deepEqual(mail.from?.value, [{ address: MAIL_FROM, name: 'Réseau Sports Démo' }]);
    assert.deepEqual(
      mail.replyTo?.value.map((v) => v.address),
      ['soutien@sports-demo.example'],
    );
    assert.match(String(mail.messageId), /^<[0-9a-f-]{36}@tv\.example>$/);
    assert.match(raw, /^Date: /m);
    ok(mail.date instanceof Date && !Number.isNaN(mail.date.getTime()), 'a Date header');
    // The text: French, the first name as typed, the link on a line of its own.
    const text = String(mail.text);
    ok(text.startsWith('Bonjour Zoé <b>,'), text);
    const link = /^(https?:\/\/\S+\/verify-email\?\S+)$/m.exec(text)?.[1];
    ok(link, text);
    // The HTML: French, escaped, the channel's logo (with its name as alt text) and colours, the same link.
    const html = String(mail.html);
    ok(html.includes('<html lang="fr">'), 'lang');
    ok(html.includes('Bonjour Zoé &lt;b&gt;,') && !html.includes('<b>'), 'the name escaped');
    ok(html.includes('alt="Réseau Sports Démo"') && /<img src="http[^"]+demo-fr-logo\.svg"/.test(html), 'the logo');
    ok(html.includes('background:#7f1d1d') && html.includes('background:#b91c1c'), "the channel's colours");
    assert.deepEqual([...new Set(hrefs(received!))], [link.replace(/&/g, '&amp;')]);
    // The link verifies the account, as the account page would post it.
    const query = new URL(link).searchParams;
    const verified = await h.post('/api/auth/email-verify', {
      api_key: key,
      email: query.get('email'),
      expires: query.get('expires'),
      signature: query.get('signature'),
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const profile = await h.call(`/api/profile?api_key=${key}`, {
      headers: { Authorization: `Bearer ${res.body.data.token}` },
    });
    assert.equal(profile.body.data.email_verified, true);
    // Sent once, and the dev outbox shows it so.
    const [row] = await queued(email);
    assert.deepEqual([row!.status, row!.attempts, row!.kind], ['sent', 1, 'verify']);
  });

  test('the contact form reaches the channel (replies to the viewer) and the viewer gets a copy, at most 3 an hour', async () => {
    const viewer = fresh('writer');
    const values = {
      name: 'Ann <Fan>',
      email: viewer,
      phone: '+1 (555) 010-0199',
      message: 'Stream the final?\n<script>x</script>',
    };
    for (let n = 0; n < 4; n++) {
      const res = await h.post('/api/custom-forms/contact', { api_key: h.key, values });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const toChannel = (await smtp.waitFor('support@demo-sports.example', 4)).slice(-1)[0]!;
    assert.equal(toChannel.mail.subject, 'Contact us: a new message from the site');
    assert.deepEqual(
      toChannel.mail.replyTo?.value.map((v) => v.address),
      [viewer],
    );
    assert.match(String(toChannel.mail.text), /Message: Stream the final\?\n {2}<script>x<\/script>/);
    const html = String(toChannel.mail.html);
    ok(
      html.includes('Ann &lt;Fan&gt;') && html.includes('&lt;script&gt;x&lt;/script&gt;') && !html.includes('<script'),
      html,
    );
    const copies = await smtp.waitFor(viewer, 3);
    assert.equal(copies[0]!.mail.subject, 'Your message to Demo Sports Network');
    ok(String(copies[0]!.mail.text).includes('Phone: +1 (555) 010-0199'), 'the copy says what was sent');
    await sleep(2500);
    assert.equal(smtp.to(viewer).length, 3, 'the fourth copy was not sent');
  });

  test("payments: a receipt, a renewal and a refused renewal, each once, in the buyer's language", async () => {
    const email = fresh('buyer');
    const res = await h.post('/api/v2/auth/register', {
      api_key: h.key,
      first_name: 'Léa',
      last_name: 'Achat',
      email,
      password: 'mail-pass-1',
      password_confirmation: 'mail-pass-1',
      terms: true,
      // The account's language: its emails are in French on the English channel.
      language: 'fr',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const headers = { Authorization: `Bearer ${res.body.data.token}` };
    const api = (path: string) => h.call(`/api/${path}?api_key=${h.key}`, { headers });
    const monthly = (await h.keyless('subscriptions')).body.data[0];
    // The browser's confirmation token of a test card (Stripe.js with the channel's publishable key, at dev mode's
    // Stripe double), then the purchase: 4242 pays in Stripe's answer.
    const token = await h.call('/__stripe/v1/confirmation_tokens', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'Bearer pk_test_demo' },
      body: new URLSearchParams({
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': '4242424242424242',
        'payment_method_data[card][exp_month]': '12',
        'payment_method_data[card][exp_year]': '2040',
        'payment_method_data[card][cvc]': '123',
      }).toString(),
    });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    const bought = await h.post(
      '/api/stripe/buy',
      {
        api_key: h.key,
        idempotency_key: crypto.randomUUID(),
        type: 'subscription',
        id: monthly.id,
        confirmation_token: token.body.id,
      },
      headers,
    );
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    const orderId = bought.body.data.order.id;
    await until('the order paid', async () => (await api(`orders/${orderId}`)).body.data.status === 'paid');
    const [, receipt] = await smtp.waitFor(email, 2);
    assert.equal(receipt!.mail.subject, `Votre reçu Demo Sports Network\u00a0: ${monthly.name}`);
    const text = String(receipt!.mail.text);
    ok(text.includes('Bonjour Léa,') && /Montant payé: [\d,]+\s\$US/.test(text), text);
    ok(/\/login\?channel_key=demo$/m.test(text), 'a link to the orders');
    // The period ends (what the channel's operator does in Stripe's dashboard, on the double): Stripe bills the next
    // one with the saved card and says so by webhook; the buyer is told.
    const renew = () => h.call(`/__dev/stripe/renew?channel_key=demo&order_id=${orderId}`, { method: 'POST' });
    assert.equal((await renew()).status, 200);
    const renewal = (await smtp.waitFor(email, 3))[2]!;
    assert.equal(renewal.mail.subject, `Votre abonnement ${monthly.name} a été renouvelé`);
    // The subscription renews with a card that asks for authentication every time, and nobody is there at the next
    // renewal: it is refused, and the buyer is told.
    const double = h.server.stripeDouble!;
    const subscription = String(
      (await h.server.db.get('SELECT processor_subscription FROM orders WHERE id = ?', [orderId]))!
        .processor_subscription,
    );
    const strict = double.ledger.createPaymentMethod(
      { number: '4000002760003184', exp_month: 12, exp_year: 2040, cvc: '123' },
      { email: null, name: null },
    );
    double.ledger.attach(strict, double.billing.subscription(subscription).customer);
    double.billing.updateSubscription(subscription, { defaultPaymentMethod: strict.id });
    assert.equal((await renew()).status, 200);
    const refused = (await smtp.waitFor(email, 4))[3]!;
    assert.equal(refused.mail.subject, `Nous n'avons pas pu renouveler votre abonnement ${monthly.name}`);
    await sleep(2500);
    assert.deepEqual(
      (await queued(email)).map((e) => e.kind).reverse(),
      ['verify', 'receipt', 'renewal', 'renewal-failed'],
      'each once',
    );
    assert.equal(smtp.to(email).length, 4);
  });

  test('a request never waits for the mail service: answered while the service still holds the email', async () => {
    const email = fresh('slow');
    smtp.hold = true;
    try {
      const res = await register(email);
      assert.equal(res.status, 200);
      await until('the email held by the service', async () => smtp.held === 1);
      assert.equal(smtp.to(email).length, 0);
    } finally {
      smtp.release();
    }
    await smtp.waitFor(email);
  });

  test('SMTP down during a registration: the viewer is registered at once, and the email arrives once SMTP is back', async () => {
    const email = fresh('down');
    await smtp.stop();
    try {
      const res = await register(email);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await h.signIn(email, 'mail-pass-1')).length > 0, true);
      // Tried, refused by the network, waiting for its retry.
      await until('a failed attempt', async () => (await queued(email))[0]?.attempts === 1);
      assert.equal((await queued(email))[0]!.status, 'pending');
    } finally {
      await smtp.start();
    }
    // Its retry is a minute after the failure, on the server clock.
    h.nowMs += 61_000;
    await smtp.waitFor(email);
    await sleep(2500);
    assert.equal(smtp.to(email).length, 1, 'once');
    const [row] = await queued(email);
    assert.deepEqual([row!.status, row!.attempts], ['sent', 2]);
  });

  test('a recipient refused for good (550) fails the email: logged without the address, counted, never tried again', async () => {
    const email = fresh('bounce');
    const before = sample(await metrics(), 'channel_emails_failed_total{reason="rejected"}');
    smtp.answer = (address) => (address === email ? 'reject' : 'accept');
    const log = captureLog();
    try {
      assert.equal((await register(email)).status, 200);
      await until('the failure', async () => (await queued(email))[0]?.status === 'failed');
      h.nowMs += 3 * 3600_000;
      await sleep(2500);
    } finally {
      log.restore();
      smtp.answer = () => 'accept';
    }
    assert.deepEqual(
      smtp.asked.filter((a) => a === email),
      [email],
      'asked once',
    );
    assert.equal((await queued(email))[0]!.attempts, 1);
    assert.equal(sample(await metrics(), 'channel_emails_failed_total{reason="rejected"}'), before + 1);
    const failure = log.lines.find((line) => line.includes('failed: refused by the mail service'));
    ok(failure, log.lines.join('\n'));
    ok(!log.lines.some((line) => line.includes(email)), 'no log line holds the address');
  });

  test('a recipient deferred (451) is tried again with a growing wait, and fails once 24 hours have passed', async () => {
    const email = fresh('later');
    const before = sample(await metrics(), 'channel_emails_failed_total{reason="expired"}');
    smtp.answer = (address) => (address === email ? 'defer' : 'accept');
    try {
      assert.equal((await register(email)).status, 200);
      await until('the first attempt', async () => (await queued(email))[0]?.attempts === 1);
      // A minute later, the second; then two minutes: not one minute.
      h.nowMs += 61_000;
      await until('the second attempt', async () => (await queued(email))[0]?.attempts === 2);
      h.nowMs += 61_000;
      await sleep(2500);
      assert.equal((await queued(email))[0]!.attempts, 2, 'the third waits two minutes');
      h.nowMs += 25 * 3600_000;
      await until('the expiry', async () => (await queued(email))[0]?.status === 'failed');
    } finally {
      smtp.answer = () => 'accept';
    }
    assert.equal(smtp.to(email).length, 0);
    assert.equal(sample(await metrics(), 'channel_emails_failed_total{reason="expired"}'), before + 1);
  });
});
