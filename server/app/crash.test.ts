/**
 * Crash tests: the server is a real process (`server/main.ts --dev`), killed with SIGKILL right after it answered a
 * write (nothing of its own clean-up runs, as when a machine loses power or the kernel kills it), then started
 * again on the same data. Every write it answered must be there: a registration, a paid purchase (one order, paid,
 * never a charge without its order or two paid orders), a favourite, a password change, a clip (which is then cut).
 * And killed between Stripe's charge and its own commit (the Stripe double of this test process charged, the
 * process died before it kept the answer, the webhook had not come): after the restart, one paid order, one charge. On the embedded database (PGlite, in DATA_DIR) by default, and on a PostgreSQL server
 * when DATABASE_URL names one (`npm run test:postgres`), in a fresh database per test.
 * Run: node --import tsx --test server/app/crash.test.ts
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { endpoints } from '../../src/api/contract.js';
import { RECONCILE_GRACE_MS } from '../commerce/webhooks.js';
import { testDatabase } from '../testing/harness.js';
import { idempotencyKey, ServerProcess, until } from '../testing/processes.js';
import { TestStripe } from '../testing/stripe.js';

const FAN = { email: 'fan@example.com', password: 'fan-pass-1' };
const VIEWER = { email: 'viewer@example.com', password: 'viewer-pass-1' };
/** No DATABASE_URL: the embedded database, one process's alone. */
const embedded = !process.env.DATABASE_URL;

let database: Awaited<ReturnType<typeof testDatabase>>;
let tmp = '';
let server: ServerProcess;
/** How far ahead of the machine's the server's clock (and the double's) runs after a restart. */
let skew = 0;
const stripe = new TestStripe(() => Date.now() + skew);

/** A server process on the test's data and database, charging through the test's Stripe double. */
const serverProcess = (env: Record<string, string> = {}) =>
  new ServerProcess('crash', {
    dataDir: join(tmp, 'data'),
    env: {
      DATABASE_URL: database.options.databaseUrl,
      DATABASE_TEMPLATES: database.options.databaseTemplates,
      ...stripe.env,
      // A PostgreSQL server may have other processes: a clip the dead one held waits for its lease to run out (made
      // short here). The embedded database has none, so a start frees the clips its dead process held: a lease
      // longer than the test proves that it does.
      CLIP_LEASE_MS: embedded ? '3600000' : '3000',
      ...env,
    },
  });

beforeEach(async () => {
  skew = 0;
  database = await testDatabase();
  tmp = mkdtempSync(join(tmpdir(), 'channel-crash-test-'));
  await stripe.start();
  server = serverProcess();
});

afterEach(async () => {
  await server.kill();
  await stripe.close();
  await database.drop();
  rmSync(tmp, { recursive: true, force: true });
});

/** A test body whose failure also shows what the server printed. */
const showingOutput = (body: () => Promise<void>) => async () => {
  try {
    await body();
  } catch (error) {
    console.error(server.output());
    throw error;
  }
};

/** Starts the server; Stripe's events go to it. */
async function start(): Promise<void> {
  await server.start();
  stripe.sendTo([server.base]);
}

/** Kills the server right after an answer, then starts it again on the same data. */
async function crashAndRestart(): Promise<void> {
  await server.kill();
  await start();
}

describe('a write the server answered survives a SIGKILL and a restart', () => {
  test(
    'a registration killed at once after its answer (the first write), then a clip killed while being cut',
    showingOutput(async () => {
      await start();
      const email = 'first-write@example.com';
      const token = await server.register(email, 'first-pass-1');
      await crashAndRestart();
      const profile = await server.get('profile', token);
      assert.equal(profile.status, 200, `the token of the registration is valid: ${JSON.stringify(profile.body)}`);
      assert.equal(profile.body.data.email, email);
      await server.signIn(email, 'first-pass-1');

      const fan = await server.signIn(FAN.email, FAN.password);
      const made = await server.send(
        'clip',
        { event_id: server.id('free-finished'), name: 'Cut short', start_time: 0, duration: 30, tags: ['crash'] },
        fan,
      );
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = Number(made.body.data.id);
      const clipOf = async (token: string) => {
        const clips = endpoints.userClips.response.parse((await server.get('clips/user', token)).body).data;
        const clip = clips.find((c) => c.id === id);
        assert.ok(clip, `clip ${id} is listed`);
        assert.notEqual(clip.status, 'failed', JSON.stringify(clip));
        return clip;
      };
      await until('the cut to start', async () => (await clipOf(fan)).status === 'processing', 30_000, 50);
      await crashAndRestart();
      const restartedAt = Date.now();
      const again = await server.signIn(FAN.email, FAN.password);
      // On the embedded database the dead process's lease (CLIP_LEASE_MS, longer than this test) holds nothing back.
      await until('the clip to be cut', async () => (await clipOf(again)).status === 'done', 120_000, 200);
      console.log(`crash test: the clip cut short was cut again ${Date.now() - restartedAt} ms after the restart`);
      const folder = join(tmp, 'data', 'clips');
      assert.ok(existsSync(join(folder, String(id), 'clip.json')), 'its files are whole');
      assert.deepEqual(
        readdirSync(folder).filter((name) => name.startsWith(`${id}.`)),
        [],
        'no scratch folder of the dead process is left behind',
      );
    }),
  );

  test(
    'a purchase, a registration, a favourite, a password change and a clip, killed after the last answer',
    showingOutput(async () => {
      await start();
      // A registration.
      const shopper = { email: 'crash-shopper@example.com', password: 'shop-pass-1' };
      const token = await server.register(shopper.email, shopper.password);

      // A purchase with the card that pays.
      const product = await server.eventProduct('ppv-live');
      const bought = await server.send(
        'stripe/buy',
        { ...product, confirmation_token: await stripe.token(), idempotency_key: idempotencyKey() },
        token,
      );
      assert.equal(bought.status, 200, JSON.stringify(bought.body));
      const orderId = Number(bought.body.data.order.id);

      // A favourite team.
      const teams = endpoints.participants.response.parse(
        (await server.call('/api/participants?channel_key=demo')).body,
      );
      const team = teams.data[0]!;
      const favourite = await server.send(
        'favorite',
        { favoritable_id: team.id, favoritable_type: 'participant' },
        token,
      );
      assert.equal(favourite.status, 200, JSON.stringify(favourite.body));

      // A password change.
      const viewer = await server.signIn(VIEWER.email, VIEWER.password);
      const changed = await server.send(
        'profile',
        {
          _method: 'patch',
          password: 'viewer-pass-2',
          password_confirmation: 'viewer-pass-2',
          current_password: VIEWER.password,
        },
        viewer,
      );
      assert.equal(changed.status, 200, JSON.stringify(changed.body));

      // A clip, last: the process dies with it queued or already being cut.
      const fan = await server.signIn(FAN.email, FAN.password);
      const clip = await server.send(
        'clip',
        { event_id: server.id('free-finished'), name: 'Crash play', start_time: 10, duration: 8, tags: ['crash'] },
        fan,
      );
      assert.equal(clip.status, 201, JSON.stringify(clip.body));
      const clipId = Number(clip.body.data.id);

      await crashAndRestart();
      const restartedAt = Date.now();

      // The registration: the account signs in.
      const again = await server.signIn(shopper.email, shopper.password);

      // The purchase: one order, paid, with its one charge.
      const settled = await until(
        'the order to be paid',
        async () => {
          const orders = await server.devOrders(shopper.email);
          return orders.every((o) => o.status !== 'created') && orders;
        },
        20_000,
      );
      assert.deepEqual(
        settled.map((o) => [o.id, o.status, o.transactions.map((t) => t.status)]),
        [[orderId, 'paid', ['paid']]],
        'exactly one order, paid, with one paid charge',
      );
      const orders = endpoints.orders.response.parse((await server.get('orders', again)).body).data;
      assert.deepEqual(
        orders.map((o) => [o.id, o.status]),
        [[orderId, 'paid']],
      );
      const charges = endpoints.transactions.response.parse((await server.get('transactions', again)).body).data;
      assert.deepEqual(
        charges.map((t) => [t.order_id, t.status]),
        [[orderId, 'paid']],
        'no charge without its order',
      );
      assert.equal((await server.event('ppv-live', again)).has_access, true, 'the purchase unlocks the event');

      // The favourite.
      const favourites = endpoints.favourites.response.parse((await server.get('favorites', again)).body).data;
      assert.deepEqual(
        favourites.participant.map((f) => f.favoritable_id),
        [team.id],
      );

      // The password change: the new password signs in, the old one no longer does.
      await server.signIn(VIEWER.email, 'viewer-pass-2');
      const old = await server.send('v2/auth/login', { email: VIEWER.email, password: VIEWER.password });
      assert.equal(old.status, 422, `the old password is refused: ${JSON.stringify(old.body)}`);

      // The clip: listed, and cut after the restart (at once on the embedded database, even if the dead process
      // had taken it up already).
      const fanAgain = await server.signIn(FAN.email, FAN.password);
      const done = await until(
        'the clip to be cut after the restart',
        async () => {
          const clips = endpoints.userClips.response.parse((await server.get('clips/user', fanAgain)).body).data;
          const listed = clips.find((c) => c.id === clipId);
          assert.ok(listed, `clip ${clipId} is listed after the restart`);
          assert.notEqual(listed.status, 'failed', JSON.stringify(listed));
          return listed.status === 'done' && listed;
        },
        90_000,
        200,
      );
      const master = done.media.find((m) => m.type === 'vod')?.url;
      assert.ok(master, JSON.stringify(done.media));
      assert.equal((await server.call(master)).status, 200, 'the clip plays');
      assert.ok(existsSync(join(tmp, 'data', 'clips', String(clipId), 'clip.json')), 'its files are whole');
      console.log(`crash test: everything was back and the clip cut ${Date.now() - restartedAt} ms after the restart`);
    }),
  );

  test(
    'a purchase killed between Stripe’s charge and the commit of its answer, before the webhook: one paid order, one charge',
    showingOutput(async () => {
      await start();
      const email = 'charged-then-killed@example.com';
      const token = await server.register(email, 'kill-pass-1');
      const body = {
        ...(await server.eventProduct('paid-live')),
        confirmation_token: await stripe.token(),
        idempotency_key: idempotencyKey(),
      };
      // Stripe charges; before its answer leaves, the server dies; its webhook has not come.
      stripe.double.webhooks.hold();
      stripe.double.beforeAnswer = async (method, path, status) => {
        if (method === 'POST' && path === '/v1/payment_intents' && status === 200) await server.kill();
      };
      const lost = await server.send('stripe/buy', body, token).catch((error: unknown) => error);
      stripe.double.beforeAnswer = undefined;
      assert.ok(lost instanceof Error, `the buyer got no answer: ${JSON.stringify(lost)}`);
      const [intent, ...more] = [...stripe.double.ledger.paymentIntents.values()];
      assert.deepEqual([intent?.status, more], ['succeeded', []], 'Stripe charged once');

      // The restart, past the moment its webhook should have come: the reconciliation reads the order back.
      skew = RECONCILE_GRACE_MS + 60_000;
      server = serverProcess({
        TEST_CLOCK_SKEW_MS: String(skew),
        NODE_OPTIONS: `--import=${join(import.meta.dirname, '..', 'testing', 'clock-skew.mjs')}`,
      });
      await start();
      const [paid] = await until(
        'the order to be read back paid',
        async () => {
          const orders = await server.devOrders(email);
          return orders.every((o) => o.status === 'paid') && orders.length > 0 && orders;
        },
        30_000,
      );
      // The webhook, now delivered, and the buyer's retry with the same key: the same order, nothing charged again.
      stripe.double.webhooks.release();
      await stripe.idle();
      const retried = await server.send('stripe/buy', body, token);
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.deepEqual([retried.body.data.order.id, retried.body.data.order.status], [paid!.id, 'paid']);
      const orders = await server.devOrders(email);
      assert.deepEqual(
        orders.map((o) => [o.id, o.status, o.transactions.map((t) => t.status)]),
        [[paid!.id, 'paid', ['paid']]],
        'one order, paid, with one paid transaction',
      );
      assert.equal(intent!.metadata.order_id, String(paid!.id));
      assert.deepEqual(
        [...stripe.double.ledger.charges.values()].map((c) => c.payment_intent),
        [intent!.id],
        'one charge',
      );
      assert.equal((await server.event('paid-live', token)).has_access, true);
    }),
  );
});
