/**
 * Two server processes on one PostgreSQL database, as a channel runs behind a load balancer: real processes
 * (`server/main.ts --dev`), each with its own data folder and one shared clips folder. What one process does, the
 * other sees: a sign-in, a paid order and the access it gives, a purchase sent to both at once (one order, one
 * charge), a Stripe webhook delivered to both at once (applied once), the limits (one count for both), the clip queue (a clip whose process is killed is cut by the other, once), and a
 * first start of both at once on an empty database (migrated and seeded once), and a process whose listener
 * connection is cut (it reconnects and reads again what it may have missed) or whose notification never came.
 *
 * They need a PostgreSQL server: `npm run test:postgres` (a throw-away one, or the one DATABASE_URL names); without
 * DATABASE_URL they are skipped. Run: node scripts/postgres.mjs -- node --import tsx --test server/app/multiprocess.test.ts
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from 'pg';
import { endpoints } from '../../src/api/contract.js';
import { ChannelDb, listenerName } from '../storage/db.js';
import { setChannelSecrets } from '../channel/secrets.js';
import { FFMPEG, FFPROBE } from '../media/ffmpeg.js';
import { MIGRATIONS } from '../storage/migrations.js';
import { PAYMENT_MESSAGES } from '../commerce/payments.js';
import { ACCOUNTS, testDatabase, type Answer } from '../testing/harness.js';
import { idempotencyKey, ServerProcess, sleep, until, type DevOrder } from '../testing/processes.js';
import { CARDS, TestStripe } from '../testing/stripe.js';

const skip = !process.env.DATABASE_URL && 'needs DATABASE_URL (npm run test:postgres)';
const FAN = { email: 'fan@example.com', password: 'fan-pass-1' };

/** Two processes on one new database (made at once on it, empty), their folders, and a client to look inside. */
class Pair {
  a!: ServerProcess;
  b!: ServerProcess;
  sql!: Client;
  clipsDir = '';
  /** The shared database's URL. */
  url = '';
  /** The Stripe double both charge through. */
  readonly stripe = new TestStripe();
  private database: Awaited<ReturnType<typeof testDatabase>> | undefined;
  private tmp = '';

  /** Starts both processes at once on an empty database, with `env` (limits, timings) for both. */
  async start(env: Record<string, string>): Promise<void> {
    this.database = await testDatabase();
    const url = this.database.options.databaseUrl!;
    this.url = url;
    this.tmp = mkdtempSync(join(tmpdir(), 'channel-multiprocess-test-'));
    this.clipsDir = join(this.tmp, 'clips');
    await this.stripe.start();
    const shared = { DATABASE_URL: url, CLIPS_DIR: this.clipsDir, ...this.stripe.env, ...env };
    this.a = new ServerProcess('A', { dataDir: join(this.tmp, 'a'), env: shared });
    this.b = new ServerProcess('B', { dataDir: join(this.tmp, 'b'), env: shared });
    const { default: pg } = await import('pg');
    this.sql = new pg.Client({ connectionString: url });
    await this.sql.connect();
    await Promise.all([this.a.start(), this.b.start()]);
    // Stripe's endpoint is the load balancer's: one process gets each event.
    this.stripe.sendTo([this.a.base]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.a?.stop(), this.b?.stop()]);
    await this.stripe.close();
    await this.sql?.end();
    await this.database?.drop();
    if (this.tmp) rmSync(this.tmp, { recursive: true, force: true });
  }

  /** What both processes printed (for a failure's message). */
  output(): string {
    return `${this.a.output()}\n${this.b.output()}`;
  }

  /** One row of a query on the shared database. */
  async row(text: string, values: unknown[] = []): Promise<Record<string, unknown>> {
    const result = await this.sql.query(text, values);
    assert.equal(result.rows.length, 1, `one row of ${text}`);
    return result.rows[0] as Record<string, unknown>;
  }
}

/** A test body whose failure also shows what both processes printed. */
const showingOutput = (pair: Pair, body: () => Promise<void>) => async () => {
  try {
    await body();
  } catch (error) {
    console.error(pair.output());
    throw error;
  }
};

let registered = 0;
/** A new account's email (registered through `server`) and token: no orders, nothing bought. */
async function newUser(server: ServerProcess): Promise<{ email: string; token: string }> {
  const email = `multi${++registered}-${Date.now()}@example.com`;
  return { email, token: await server.register(email, 'multi-pass-1') };
}

describe('two server processes on one PostgreSQL database', { skip }, () => {
  const pair = new Pair();
  before(() =>
    pair.start({
      // A clip whose process died is taken over this long after its last renewal.
      CLIP_LEASE_MS: '3000',
      CLIP_CONCURRENCY: '1',
    }),
  );
  after(() => pair.stop());

  test(
    'both starting at once on an empty database migrate and seed it once, and both serve',
    showingOutput(pair, async () => {
      const versions = await pair.sql.query<{ version: number; n: string }>(
        'SELECT version, count(*) AS n FROM schema_migrations GROUP BY version ORDER BY version',
      );
      assert.deepEqual(
        versions.rows.map((r) => [r.version, Number(r.n)]),
        MIGRATIONS.map((_, i) => [i + 1, 1]),
        'every migration once',
      );
      const seeded = await pair.row(
        "SELECT (SELECT count(*) FROM meta WHERE key = 'fixtures') AS digests, (SELECT count(*) FROM users WHERE email = $1) AS buyers",
        [ACCOUNTS.buyer],
      );
      assert.deepEqual([Number(seeded.digests), Number(seeded.buyers)], [1, 1], 'the fixtures seeded once');
      for (const server of [pair.a, pair.b]) {
        assert.equal((await server.call('/api/settings?channel_key=demo')).status, 200, `${server.name} serves`);
        assert.equal((await server.get('events')).status, 200, `${server.name} serves the seeded events`);
      }
    }),
  );

  test(
    'a sign-in on A is valid on B, and a sign-out on B ends it on A',
    showingOutput(pair, async () => {
      const token = await pair.a.signIn(ACCOUNTS.buyer, 'demo-password');
      // A's api key too: keys are rows, not one process's memory.
      const profile = await pair.b.call(`/api/profile?api_key=${pair.a.key}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(profile.status, 200, JSON.stringify(profile.body));
      assert.equal(endpoints.profile.response.parse(profile.body).data.email, ACCOUNTS.buyer);
      assert.equal((await pair.b.send('auth/logout', {}, token)).status, 200);
      assert.equal((await pair.a.get('profile', token)).status, 401, 'signed out everywhere');
    }),
  );

  test(
    "a channel's own Stripe secrets, written by another process (the command line's direct write), are used by both",
    showingOutput(pair, async () => {
      const ownKey = `sk_test_multi_${randomBytes(12).toString('hex')}`;
      const ownWebhook = `whsec_multi_${randomBytes(16).toString('hex')}`;
      pair.stripe.double.addSecretKey(ownKey);
      const dir = mkdtempSync(join(tmpdir(), 'channel-multiprocess-secrets-'));
      const db = await ChannelDb.open({
        dataDir: dir,
        databaseUrl: pair.url,
        poolSize: 2,
        fixturesDir: join(import.meta.dirname, '..', 'fixtures'),
        seed: async () => undefined,
      });
      const demoId = Number((await db.get("SELECT id FROM channels WHERE channel_key = 'demo'"))!.id);
      const write = (values: Parameters<typeof setChannelSecrets>[2]) =>
        db.transaction(() => setChannelSecrets(db, demoId, values, Date.now()));
      const setupWith = async (server: ServerProcess, token: string) => {
        const before = pair.stripe.double.requests.length;
        const res = await server.send('stripe/setup-intent', {}, token);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return pair.stripe.double.requests.slice(before).map((r) => r.secretKey);
      };
      try {
        const { token } = await newUser(pair.a);
        await write({ stripe_secret_key: ownKey, stripe_webhook_secret: ownWebhook });
        for (const server of [pair.a, pair.b])
          await until(`${server.name} to charge with the channel's own key`, async () => {
            const keys = await setupWith(server, token);
            return keys.length > 0 && keys.every((key) => key === ownKey);
          });
        await write({ stripe_secret_key: null, stripe_webhook_secret: null });
        for (const server of [pair.a, pair.b])
          await until(`${server.name} to charge with the server's key again`, async () => {
            const keys = await setupWith(server, token);
            return keys.length > 0 && keys.every((key) => key === pair.stripe.secretKey);
          });
      } finally {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }),
  );

  test(
    'an order paid through A is listed by B and unlocks playback there',
    showingOutput(pair, async () => {
      const { token } = await newUser(pair.a);
      const product = await pair.a.eventProduct('ppv-live');
      const before = await pair.b.event('ppv-live', token);
      assert.equal(before.has_access, false);
      assert.equal(
        before.media.some((m) => m.type === 'live' || m.type === 'vod'),
        false,
        'no stream before paying',
      );
      const bought = await pair.a.send(
        'stripe/buy',
        { ...product, confirmation_token: await pair.stripe.token(), idempotency_key: idempotencyKey() },
        token,
      );
      assert.equal(bought.status, 200, JSON.stringify(bought.body));
      const id = Number(bought.body.data.order.id);
      await until('B to see the order paid', async () => {
        const orders = endpoints.orders.response.parse((await pair.b.get('orders', token)).body).data;
        assert.deepEqual(
          orders.map((o) => o.id),
          [id],
          'B lists the one order',
        );
        return orders[0]!.status === 'paid';
      });
      const after = await pair.b.event('ppv-live', token);
      assert.equal(after.has_access, true);
      assert.ok(
        after.media.some((m) => m.type === 'live' || m.type === 'vod'),
        `B gives the stream: ${JSON.stringify(after.media)}`,
      );
    }),
  );

  test(
    'one product bought at once through A and through B, under two idempotency keys, is one order and one charge',
    showingOutput(pair, async () => {
      // A few rounds, each with its own buyer: a race that goes wrong only sometimes has several chances to.
      for (const key of ['paid-live', 'ppv-live', 'paid-finished']) {
        const { email, token } = await newUser(pair.b);
        const product = await pair.a.eventProduct(key);
        const [cardA, cardB] = [await pair.stripe.token(), await pair.stripe.token()];
        const [viaA, viaB] = await Promise.all([
          pair.a.send(
            'stripe/buy',
            { ...product, confirmation_token: cardA, idempotency_key: idempotencyKey() },
            token,
          ),
          pair.b.send(
            'stripe/buy',
            { ...product, confirmation_token: cardB, idempotency_key: idempotencyKey() },
            token,
          ),
        ]);
        // 4242 pays in Stripe's answer: the purchase that comes second finds the first one's order still being paid
        // (the same order), or paid already (bought: 422). Never a second order.
        const accepted = [viaA, viaB].filter((res) => res.status === 200);
        assert.ok(accepted.length >= 1, `${key}: one of them is accepted`);
        for (const res of [viaA, viaB].filter((res) => res.status !== 200))
          assert.deepEqual([res.status, res.body.message], [422, PAYMENT_MESSAGES.purchased], `${key}: bought already`);
        assert.equal(
          new Set(accepted.map((res) => res.body.data.order.id)).size,
          1,
          `${key}: both answer the same order`,
        );
        const settled = await until(`${key}: the order to settle`, async () => {
          const orders: DevOrder[] = await pair.a.devOrders(email);
          return orders.every((o) => o.status !== 'created') && orders;
        });
        assert.deepEqual(
          settled.map((o) => [o.status, o.transactions.map((t) => t.status)]),
          [['paid', ['paid']]],
          `${key}: one order, paid, charged once`,
        );
        assert.equal(pair.stripe.intentsOf(settled[0]!.id).length, 1, `${key}: one PaymentIntent`);
        const customer = String(
          (
            await pair.row(
              'SELECT customer FROM payment_customers pc JOIN users u ON u.id = pc.user_id WHERE u.email = $1',
              [email],
            )
          ).customer,
        );
        assert.equal(pair.stripe.chargesOf(customer).length, 1, `${key}: one charge`);
      }
    }),
  );

  test(
    'a Stripe webhook reaching A and B at once (each time, three times) is applied once',
    showingOutput(pair, async () => {
      const { email, token } = await newUser(pair.a);
      const bought = await pair.a.send(
        'stripe/buy',
        {
          ...(await pair.a.eventProduct('paid-finished')),
          confirmation_token: await pair.stripe.token(CARDS.auth),
          idempotency_key: idempotencyKey(),
        },
        token,
      );
      assert.equal(bought.status, 200, JSON.stringify(bought.body));
      const id = Number(bought.body.data.order.id);
      // Both are the endpoint now (a retry that a second balancer routed elsewhere, or a second endpoint).
      pair.stripe.sendTo([pair.a.base, pair.b.base]);
      try {
        pair.stripe.double.webhooks.hold();
        await pair.stripe.authenticate(String(bought.body.data.action.client_secret), true);
        const [event] = pair.stripe
          .events('payment_intent.succeeded')
          .filter((e) => (e.data.object as { metadata: { order_id: string } }).metadata.order_id === String(id));
        assert.ok(event, 'Stripe paid');
        pair.stripe.double.webhooks.release();
        await pair.stripe.idle();
        for (let n = 0; n < 3; n++) {
          const answers: Answer[] = await Promise.all([
            pair.stripe.postEvent(pair.a.base, event),
            pair.stripe.postEvent(pair.b.base, event),
          ]);
          assert.deepEqual(
            answers.map((a) => a.status),
            [200, 200],
          );
        }
        const deliveries = pair.stripe.double.webhooks.deliveries.filter((d) => d.event === event.id);
        assert.deepEqual(deliveries.map((d) => d.status).sort(), [200, 200], 'both took it');
        const [order] = await pair.b.devOrders(email);
        assert.deepEqual([order!.status, order!.transactions.map((t) => t.status)], ['paid', ['paid']]);
        const applied = await pair.row('SELECT count(*) AS n FROM payment_events WHERE id = $1', [event.id]);
        assert.equal(Number(applied.n), 1, 'recorded once');
      } finally {
        pair.stripe.sendTo([pair.a.base]);
      }
    }),
  );

  /** The backend pids of a process's listener connection (db.ts names it after the process). */
  const listenerBackends = async (server: ServerProcess) =>
    (
      await pair.sql.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
        listenerName(server.pid),
      ])
    ).rows.map((row) => row.pid);
  /** Whether a process hands out device codes (the channel's auth.remote_auth, as its memory has it). */
  const linking = async (server: ServerProcess) => {
    const res = await server.send('auth/device-code', {});
    assert.ok([200, 403].includes(res.status), `${server.name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.status === 200;
  };
  /** Whether a process's stored settings copy (`/storage/settings/demo.json`) has device linking on. */
  const copied = async (server: ServerProcess) =>
    Boolean((await server.call('/storage/settings/demo.json')).body.auth.remote_auth);

  test(
    'a process whose listener connection is cut reconnects, reads again what it may have missed, and hears what follows',
    showingOutput(pair, async () => {
      const [cut] = await listenerBackends(pair.a);
      assert.ok(cut, `A's listener is in pg_stat_activity as ${listenerName(pair.a.pid)}`);
      assert.equal(await linking(pair.a), true, 'device linking is on');
      // As a failover or a proxy closing an idle connection would; the change through B comes while it is gone.
      await pair.sql.query('SELECT pg_terminate_backend($1)', [cut]);
      try {
        const off = await pair.b.post('/__dev/settings?channel_key=demo', { auth: { remote_auth: 0 } });
        assert.equal(off.status, 200, JSON.stringify(off.body));
        await until('A to refuse device codes', async () => !(await linking(pair.a)), 10_000, 100);
        await until('A to store the changed copy', async () => !(await copied(pair.a)), 5_000, 100);
        const back = await until('A to listen again', async () => {
          const backends = await listenerBackends(pair.a);
          return backends.length === 1 && backends[0] !== cut && backends;
        });
        assert.match(pair.a.output(), /the database listener was lost.*reconnecting/);
        assert.ok(back, 'a new listener connection');
        // The next change comes by notification: sooner than the check for missed ones (every 3 s) could bring it.
        const restored = await pair.b.call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
        assert.equal(restored.status, 200, JSON.stringify(restored.body));
        await until('A to hand out device codes again, by notification', () => linking(pair.a), 2_500, 50);
      } finally {
        await pair.b.call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
      }
    }),
  );

  test(
    'a change whose notification never came is read within seconds all the same (the counts say one was missed)',
    showingOutput(pair, async () => {
      assert.equal(await linking(pair.a), true, 'device linking is on');
      // The settings change and its count, written straight to the database with no NOTIFY: a notification lost.
      await pair.sql.query(
        `UPDATE settings SET json = jsonb_set(json::jsonb, '{auth,remote_auth}', '0')::text
         WHERE channel_id = (SELECT id FROM channels WHERE channel_key = 'demo')`,
      );
      await pair.sql.query(
        `INSERT INTO notification_versions (channel, version) VALUES ('channel_settings', 1)
         ON CONFLICT (channel) DO UPDATE SET version = notification_versions.version + 1`,
      );
      try {
        for (const server of [pair.a, pair.b]) {
          await until(`${server.name} to refuse device codes`, async () => !(await linking(server)), 10_000, 200);
          await until(`${server.name}'s stored copy to follow`, async () => !(await copied(server)), 5_000, 100);
        }
      } finally {
        await pair.b.call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
      }
      for (const server of [pair.a, pair.b])
        await until(`${server.name} to hand out device codes again`, () => linking(server), 10_000, 100);
    }),
  );

  /** Polls a clip's row until `done`; answers the lease owners seen while it was processing, in order, and when. */
  async function cutOwners(id: number): Promise<Array<{ owner: string; at: number }>> {
    const owners: Array<{ owner: string; at: number }> = [];
    await until(
      `clip ${id} to be cut`,
      async () => {
        const row = await pair.row('SELECT status, lease_owner FROM clips WHERE id = $1', [id]);
        assert.notEqual(row.status, 'failed', JSON.stringify(row));
        if (row.status === 'processing' && row.lease_owner && owners.at(-1)?.owner !== row.lease_owner)
          owners.push({ owner: String(row.lease_owner), at: Date.now() });
        return row.status === 'done';
      },
      120_000,
      50,
    );
    return owners;
  }

  /** The process a lease owner (`host:pid:random`) names. */
  const holder = (owner: string) => [pair.a, pair.b].find((server) => owner.split(':')[1] === String(server.pid));

  /** A finished clip's state: attempts, lease, files in the shared folder, nothing half-made left, and it plays. */
  async function assertCut(id: number, attempts: number, token: string, via: ServerProcess): Promise<void> {
    const row = await pair.row('SELECT status, progress, attempts, lease_owner FROM clips WHERE id = $1', [id]);
    assert.deepEqual(
      [row.status, Number(row.progress), Number(row.attempts), row.lease_owner],
      ['done', 100, attempts, null],
      'done, taken up exactly as often as expected',
    );
    for (const file of ['clip.json', 'clip.mp4', 'poster.jpg'])
      assert.ok(existsSync(join(pair.clipsDir, String(id), file)), `${file} is in the shared clips folder`);
    assert.deepEqual(
      readdirSync(pair.clipsDir).filter((name) => name.startsWith(`${id}.`)),
      [],
      'no scratch folder is left behind',
    );
    const clips = endpoints.userClips.response.parse((await via.get('clips/user', token)).body).data;
    const master = clips.find((c) => c.id === id)?.media.find((m) => m.type === 'vod')?.url;
    assert.ok(master, `${via.name} lists the clip with its stream`);
    assert.equal((await via.call(master)).status, 200, `${via.name} plays it`);
  }

  const clipBody = (name: string, duration: number) => ({
    event_id: pair.a.id('free-finished'),
    name,
    start_time: 0,
    duration,
    tags: ['multi'],
  });

  test(
    'a clip queued through A, which is killed right after answering, is cut by B once',
    showingOutput(pair, async () => {
      const fan = await pair.a.signIn(FAN.email, FAN.password);
      const made = await pair.a.send('clip', clipBody('Handed over', 10), fan);
      assert.equal(made.status, 201, JSON.stringify(made.body));
      await pair.a.kill();
      try {
        const id = Number(made.body.data.id);
        // A may have taken it up before it died (then B takes over once its lease ran out), or not.
        const owners = (await cutOwners(id)).map(({ owner }) => owner);
        const last = owners.at(-1);
        assert.ok(last && holder(last) === pair.b, `B cut it (lease owners seen: ${owners.join(', ')})`);
        const aTookIt = owners.some((owner) => holder(owner) !== pair.b);
        await assertCut(id, aTookIt ? 2 : 1, fan, pair.b);
      } finally {
        await pair.a.start();
      }
    }),
  );

  test(
    'a process killed while cutting a clip: the other cuts it once the lease has run out, once',
    showingOutput(pair, async () => {
      const fan = await pair.a.signIn(FAN.email, FAN.password);
      const made = await pair.a.send('clip', clipBody('Cut short', 30), fan);
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = Number(made.body.data.id);
      // Whichever process took it up dies mid-cut.
      const held = await until('the cut to start', async () => {
        const row = await pair.row('SELECT status, lease_owner, lease_until, progress FROM clips WHERE id = $1', [id]);
        return row.status === 'processing' && Number(row.progress) >= 1 && row;
      });
      const dead = holder(String(held.lease_owner));
      assert.ok(dead, `the lease owner ${String(held.lease_owner)} is one of the two`);
      const survivor = dead === pair.a ? pair.b : pair.a;
      await dead.kill();
      try {
        const owners = (await cutOwners(id)).filter(({ owner }) => owner !== held.lease_owner);
        assert.ok(
          owners.length > 0 && owners.every(({ owner }) => holder(owner) === survivor),
          `after the kill, only ${survivor.name} held it (${owners.map(({ owner }) => owner).join(', ')})`,
        );
        // Not before the dead process's lease ran out (it renewed it until it died, at least to what we read): a
        // process that is alive keeps its job.
        assert.ok(
          owners[0]!.at >= Number(held.lease_until),
          `taken over ${Number(held.lease_until) - owners[0]!.at} ms before the lease ran out`,
        );
        await assertCut(id, 2, fan, survivor);
      } finally {
        await dead.start();
      }
    }),
  );

  test(
    'a process stopped by SIGTERM while cutting a clip drains (exit 0) and hands the cut back: the other cuts it',
    showingOutput(pair, async () => {
      const fan = await pair.a.signIn(FAN.email, FAN.password);
      const made = await pair.a.send('clip', clipBody('Handed back', 30), fan);
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = Number(made.body.data.id);
      const held = await until('the cut to start', async () => {
        const row = await pair.row('SELECT status, lease_owner, progress FROM clips WHERE id = $1', [id]);
        return row.status === 'processing' && Number(row.progress) >= 1 && row;
      });
      const stopping = holder(String(held.lease_owner));
      assert.ok(stopping, `the lease owner ${String(held.lease_owner)} is one of the two`);
      const survivor = stopping === pair.a ? pair.b : pair.a;
      try {
        assert.equal(await stopping.terminate(), 0, stopping.output());
        const owners = (await cutOwners(id)).filter(({ owner }) => owner !== held.lease_owner);
        assert.ok(
          owners.length > 0 && owners.every(({ owner }) => holder(owner) === survivor),
          `after the stop, only ${survivor.name} held it (${owners.map(({ owner }) => owner).join(', ')})`,
        );
        await assertCut(id, 2, fan, survivor);
      } finally {
        await stopping.start();
      }
    }),
  );
});

describe('a process on a host whose clock runs 45 s ahead', { skip }, () => {
  const SKEW_MS = 45_000;
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let tmp = '';
  let sql: Client;
  let a: ServerProcess;
  let ahead: ServerProcess;
  before(async () => {
    database = await testDatabase();
    tmp = mkdtempSync(join(tmpdir(), 'channel-clock-test-'));
    // A's cuts start late (its ffmpeg waits first), so its job is still running when the other process comes up.
    const slowFfmpeg = join(tmp, 'slow-ffmpeg');
    writeFileSync(slowFfmpeg, `#!/bin/sh\nsleep 12\nexec '${FFMPEG}' "$@"\n`);
    chmodSync(slowFfmpeg, 0o755);
    const shared = {
      DATABASE_URL: database.options.databaseUrl!,
      CLIPS_DIR: join(tmp, 'clips'),
      CLIP_LEASE_MS: '3000',
      CLIP_CONCURRENCY: '1',
    };
    a = new ServerProcess('A', {
      dataDir: join(tmp, 'a'),
      env: { ...shared, FFMPEG_PATH: slowFfmpeg, FFPROBE_PATH: FFPROBE },
    });
    ahead = new ServerProcess('B (45 s ahead)', {
      dataDir: join(tmp, 'b'),
      env: {
        ...shared,
        NODE_OPTIONS: `--import=${join(import.meta.dirname, '..', 'testing', 'clock-skew.mjs')}`,
        TEST_CLOCK_SKEW_MS: String(SKEW_MS),
      },
    });
    const { default: pg } = await import('pg');
    sql = new pg.Client({ connectionString: shared.DATABASE_URL });
    await sql.connect();
    await a.start();
  });
  after(async () => {
    await Promise.all([a?.stop(), ahead?.stop()]);
    await sql?.end();
    await database?.drop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('takes over no clip cut another process is running: leases are on the database clock', async () => {
    try {
      const fan = await a.signIn(FAN.email, FAN.password);
      const made = await a.send(
        'clip',
        { event_id: a.id('free-finished'), name: 'Skewed', start_time: 0, duration: 10, tags: ['clock'] },
        fan,
      );
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = Number(made.body.data.id);
      const clip = async () =>
        (await sql.query('SELECT status, lease_owner, attempts FROM clips WHERE id = $1', [id])).rows[0] as {
          status: string;
          lease_owner: string | null;
          attempts: number;
        };
      const ownerOf = (owner: string | null) => owner?.split(':')[1];
      await until('A to take the cut', async () => (await clip()).lease_owner !== null);
      assert.equal(ownerOf((await clip()).lease_owner), String(a.pid));
      await ahead.start();
      // Its clock says A's lease (3 s, renewed every second) ran out 40 s ago; the database's says it has not.
      for (let i = 0; i < 30; i++) {
        const row = await clip();
        if (row.status === 'done') break;
        assert.equal(ownerOf(row.lease_owner), String(a.pid), `still A's after ${i * 200} ms: ${JSON.stringify(row)}`);
        assert.equal(Number(row.attempts), 1);
        await sleep(200);
      }
      const done = await until('the cut to finish', async () => {
        const row = await clip();
        assert.notEqual(row.status, 'failed');
        return row.status === 'done' && row;
      });
      assert.equal(Number(done.attempts), 1, 'cut once');
      // The skew is real in that process: a sign-in there is dated by its clock, 45 s ahead of the database's.
      await ahead.signIn(FAN.email, FAN.password);
      const { rows } = await sql.query(
        'SELECT max(created_at) - extract(epoch from clock_timestamp()) AS ahead FROM tokens',
      );
      assert.ok(Number(rows[0].ahead) > 40, `the process's clock is ${Number(rows[0].ahead)} s ahead`);
    } catch (error) {
      console.error(`${a.output()}\n${ahead.output()}`);
      throw error;
    }
  });
});

describe('limits count once for both processes', { skip }, () => {
  const LIMIT = 20;
  const pair = new Pair();
  before(async () => {
    await pair.start({
      // The limit tests' clients are named by X-Forwarded-For (one trusted proxy), each test its own address.
      TRUST_PROXY: '1',
      RATE_LIMIT_MAX: String(LIMIT),
      RATE_LIMIT_WINDOW_MS: '60000',
      API_KEY_RATE_MAX: '6',
      REGISTRATION_RATE_MAX: '4',
    });
  });
  after(() => pair.stop());
  const from = (address: string) => ({ 'X-Forwarded-For': address });

  test(
    'the request limit: hits split across A and B, even at once, are admitted up to the limit in total and no more',
    showingOutput(pair, async () => {
      const client = from('198.51.100.10');
      /** 15 requests to each process at once; answers how many each admitted, and how many 429s. */
      const batch = async () => {
        const answers = await Promise.all(
          [pair.a, pair.b].flatMap((server) =>
            Array.from({ length: 15 }, () =>
              server.call('/api/settings?channel_key=demo', { headers: client }).then((res) => ({ server, res })),
            ),
          ),
        );
        for (const { res } of answers) assert.ok([200, 429].includes(res.status), `${res.status}`);
        const admitted = (server: ServerProcess) =>
          answers.filter((x) => x.server === server && x.res.status === 200).length;
        return { a: admitted(pair.a), b: admitted(pair.b) };
      };
      const first = await batch();
      await sleep(400);
      const second = await batch();
      const total = first.a + first.b + second.a + second.b;
      const seen = `first batch ${JSON.stringify(first)}, second ${JSON.stringify(second)}`;
      // Each process admits only from the grants it took from the shared count (limits.ts): never more than the
      // limit in all, and no less than the limit minus one grant (a 16th of it) the other may hold unused.
      assert.ok(total <= LIMIT, `no more than the limit: ${seen}`);
      assert.ok(total >= LIMIT - Math.ceil(LIMIT / 16), `the limit is admitted: ${seen}`);
      // Another client is not affected.
      assert.equal(
        (await pair.b.call('/api/settings?channel_key=demo', { headers: from('198.51.100.11') })).status,
        200,
      );
    }),
  );

  test(
    'new api keys: an exact limit per address, however the requests are split and however many at once',
    showingOutput(pair, async () => {
      const client = from('198.51.100.20');
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? pair.a : pair.b).post('/api/get_api_key', { channel_key: 'demo' }, client),
        ),
      );
      assert.deepEqual(answers.map((res) => res.status).sort(), [
        ...Array<number>(6).fill(200),
        ...Array<number>(4).fill(429),
      ]);
    }),
  );

  test(
    'registrations and failed sign-ins per address count in both processes',
    showingOutput(pair, async () => {
      const client = from('198.51.100.30');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const server = i % 2 ? pair.a : pair.b;
        const email = `limited${i}-${Date.now()}@example.com`;
        const res = await server.post(
          '/api/v2/auth/register',
          {
            api_key: server.key,
            first_name: 'Lim',
            last_name: 'Ited',
            email,
            password: 'limit-pass-1',
            password_confirmation: 'limit-pass-1',
            terms: true,
          },
          client,
        );
        statuses.push(res.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 422, 422], 'four accounts per address, in all');

      // Five failed sign-ins, three on A and two on B, lock the email for that address on both.
      const attacker = from('198.51.100.31');
      const login = (server: ServerProcess, password: string) =>
        server.post('/api/v2/auth/login', { api_key: server.key, email: ACCOUNTS.viewer, password }, attacker);
      for (const server of [pair.a, pair.a, pair.a, pair.b, pair.b])
        assert.equal((await login(server, 'wrong-password')).status, 422);
      for (const server of [pair.a, pair.b]) {
        const locked = await login(server, 'demo-password');
        assert.equal(locked.status, 422, `${server.name} refuses even the right password for now`);
        assert.notEqual(locked.body.message, 'Invalid email or password. Please try again.', locked.body.message);
      }
    }),
  );

  test('a burst of wrong passwords sent at once, split across A and B, has no more guesses checked than the limit', async () => {
    const attacker = from('198.51.100.40');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? pair.a : pair.b).post(
          '/api/v2/auth/login',
          { api_key: pair.a.key, email: ACCOUNTS.passholder, password: `wrong-${i}` },
          attacker,
        ),
      ),
    );
    const checked = answers.filter((res) => res.body.message === 'Invalid email or password. Please try again.');
    assert.ok(checked.length <= 5, `${checked.length} of 12 guesses were checked; the limit is 5 per minute`);
  });
});
