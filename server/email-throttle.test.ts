/**
 * The throttles on what a caller can make the server send or try for someone else's account: password-reset
 * requests (anonymous: per email and per client address, with one neutral answer), verification resends and
 * account deletion requests (signed in), and the device codes a signed-in viewer types to link a TV. Each flood is
 * held without voiding the link the owner already has. The clients are named by X-Forwarded-For (one trusted proxy),
 * each test its own address. Run: node --import tsx --test server/email-throttle.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endpoints } from '../src/api/contract.js';
import { Harness, ok, type Answer } from './test-helpers.js';

const h = new Harness({ trustProxy: 1 });
before(() => h.start());
after(() => h.stop());

const PASSWORD = 'throttle-pass-1';
/** A client address of its own per test. */
let clients = 0;
const newClient = () => ({ 'X-Forwarded-For': `198.51.100.${++clients}` });
const auth = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
const post = (path: string, body: Record<string, unknown>, headers: Record<string, string>, token?: string) =>
  h.post(`/api/${path}`, { api_key: h.key, ...body }, { ...headers, ...auth(token) });

let registered = 0;
/** A new account (registered from its own address): its email and token. */
async function register(): Promise<{ email: string; token: string }> {
  const email = `throttled${++registered}@example.com`;
  const res = await post(
    'v2/auth/register',
    { first_name: 'Tess', last_name: 'Throttle', email, password: PASSWORD, password_confirmation: PASSWORD, terms: 1 },
    newClient(),
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { email, token: String(res.body.data.token) };
}

/** The emails to an address, newest first. */
async function outbox(to: string): Promise<Array<{ subject: string; links: string[] }>> {
  const res = await h.call(`/__dev/outbox?to=${encodeURIComponent(to)}`);
  assert.equal(res.status, 200);
  return res.body.data;
}

/** The query of an emailed link. */
const linkQuery = (email: { links: string[] }) => new URL(email.links[0]!).searchParams;

/** Status and body, as a client could tell answers apart. */
const seen = (res: Answer) => JSON.stringify([res.status, res.body]);

describe('password-reset requests', () => {
  test('100 at once for one email send a few links, answer alike, and the owner’s first link still resets', async () => {
    const { email } = await register();
    const attacker = newClient();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => post('auth/password-reset-request', { email }, attacker)),
    );
    assert.equal(new Set(answers.map(seen)).size, 1, `one answer for all: ${[...new Set(answers.map(seen))]}`);
    assert.equal(answers[0]!.status, 200);
    const sent = (await outbox(email)).filter((mail) => /Reset your/.test(mail.subject));
    assert.ok(sent.length >= 1 && sent.length <= 3, `${sent.length} reset emails`);
    // The owner opens the first one that arrived (the oldest): no later request voided it.
    const first = linkQuery(sent.at(-1)!);
    const reset = await post(
      'auth/password-reset',
      { email, token: first.get('token'), password: 'after-flood-1', password_confirmation: 'after-flood-1' },
      newClient(),
    );
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    // Using one spends them all.
    const other = linkQuery(sent[0]!);
    if (other.get('token') !== first.get('token')) {
      const again = await post(
        'auth/password-reset',
        { email, token: other.get('token'), password: 'after-flood-2', password_confirmation: 'after-flood-2' },
        newClient(),
      );
      assert.deepEqual([again.status, again.body.message], [422, 'Reset password failed']);
    }
    const signIn = await post('v2/auth/login', { email, password: 'after-flood-1' }, newClient());
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
  });

  test('one address asking for many emails is held past its limit, with the same answer; others are not', async () => {
    const accounts = await Promise.all(Array.from({ length: 24 }, () => register()));
    const attacker = newClient();
    const answers: Answer[] = [];
    for (const { email } of accounts) answers.push(await post('auth/password-reset-request', { email }, attacker));
    // Unknown emails count as well, and are answered the same.
    answers.push(await post('auth/password-reset-request', { email: 'nobody-here@example.com' }, attacker));
    assert.equal(new Set(answers.map(seen)).size, 1);
    const sent = await Promise.all(accounts.map(async ({ email }) => (await outbox(email)).length));
    const total = sent.reduce((a, b) => a + b, 0);
    // Each account's own verification email is one; what is over that is a reset link.
    assert.equal(total - accounts.length, 20, `reset emails from one address: ${total - accounts.length}`);
    const last = accounts.at(-1)!.email;
    const before = (await outbox(last)).length;
    assert.equal((await post('auth/password-reset-request', { email: last }, newClient())).status, 200);
    assert.equal((await outbox(last)).length, before + 1, 'another address gets its link');
  });

  test('the limits end with their hour', async () => {
    const { email } = await register();
    const client = newClient();
    for (let i = 0; i < 5; i++) await post('auth/password-reset-request', { email }, client);
    const held = (await outbox(email)).length;
    h.nowMs += 61 * 60_000;
    await post('auth/password-reset-request', { email }, client);
    assert.equal((await outbox(email)).length, held + 1);
  });
});

describe('signed-in requests for emails', () => {
  test('verification resends: a few, then a message saying the sent link still works, and it does', async () => {
    const { email, token } = await register();
    const client = newClient();
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await post('auth/email-verify/resend', {}, client, token));
    assert.deepEqual(
      answers.map((res) => res.status),
      [200, 200, 200, 422, 422, 422],
    );
    ok(/still works/.test(String(answers[3]!.body.message)), JSON.stringify(answers[3]!.body));
    // The registration's email and three resends; the first link verifies.
    const mails = await outbox(email);
    assert.equal(mails.length, 4);
    const query = linkQuery(mails.at(-1)!);
    const verified = await post(
      'auth/email-verify',
      { email: query.get('email'), expires: query.get('expires'), signature: query.get('signature') },
      newClient(),
    );
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
  });

  test('deletion requests: a few, then held; the first link still deletes the account', async () => {
    const { email, token } = await register();
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post('auth/delete-account', {}, client, token)).status);
    assert.deepEqual(statuses, [200, 200, 200, 422, 422]);
    const links = (await outbox(email)).filter((mail) => /deletion/.test(mail.subject));
    assert.equal(links.length, 3);
    const first = linkQuery(links.at(-1)!);
    const deleted = await h.post(
      '/api/delete-account-confirm',
      { channel_key: 'demo', email, token: first.get('token') },
      newClient(),
    );
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await post('v2/auth/login', { email, password: PASSWORD }, newClient())).status, 422);
  });
});

describe('device codes typed to link a TV', () => {
  const newCode = async () => {
    const res = await h.post('/api/auth/device-code', { api_key: h.key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return String(res.body.data.code);
  };

  test('wrong codes are throttled per account (even the right one waits) and per address', async () => {
    const { token } = await register();
    const client = newClient();
    const code = await newCode();
    for (let i = 0; i < 10; i++) {
      const wrong = await post('auth/add_session', { code: `ZZZZ${String(i).padStart(2, '2')}` }, client, token);
      assert.deepEqual([wrong.status, wrong.body.message], [422, 'The code is invalid or has expired.']);
    }
    const held = await post('auth/add_session', { code }, client, token);
    assert.equal(held.status, 422);
    assert.match(String(held.body.message), /^Too many wrong codes\. Please try again in \d+ minutes?\.$/);
    assert.ok(held.body.errors?.code, 'shown at the code field');
    // Another account links it from another address.
    const other = await register();
    const linked = await post('auth/add_session', { code }, newClient(), other.token);
    assert.equal(linked.status, 200, JSON.stringify(linked.body));

    // One address guessing for many accounts is held too.
    const guesser = newClient();
    const guessers = await Promise.all(Array.from({ length: 4 }, () => register()));
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await post('auth/add_session', { code: 'YYYYYY' }, guesser, guessers[i % 4]!.token);
      statuses.push(res.status);
      if (/Too many/.test(String(res.body.message))) break;
    }
    assert.equal(statuses.length, 31, 'the 31st guess from one address is held');
  });

  test('a linked code is not counted against the account', async () => {
    const { token } = await register();
    const client = newClient();
    for (let i = 0; i < 12; i++) {
      const res = await post('auth/add_session', { code: await newCode() }, client, token);
      assert.equal(endpoints.addSession.response.parse(res.body).data.message, 'Your device is now linked.');
    }
  });
});
