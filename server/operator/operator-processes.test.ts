/**
 * The operator API across two real server processes on one PostgreSQL database (processes.ts): a change made
 * through one reaches the other's channel API at once (its cached events dropped by the `catalog_changed`
 * notification), and a token revoked through one is refused by the other on its next request. Needs DATABASE_URL
 * (`npm run test:postgres`); skipped otherwise, as multiprocess.test.ts is.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from 'pg';
import { request, testDatabase, type Answer } from '../testing/harness.js';
import { ServerProcess, until } from '../testing/processes.js';
import { OPERATOR_TOKEN_PREFIX, operatorTokenHash } from './operators.js';

const skip = !process.env.DATABASE_URL && 'needs DATABASE_URL (npm run test:postgres)';

describe('the operator API across two processes', { skip }, () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let sql: Client;
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let tmp = '';

  const call = (
    server: ServerProcess,
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> =>
    request(`${server.operator}/operator/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** A token for a new operator of the demo channel, written as the command line writes one. */
  async function operatorToken(email: string, role: 'owner' | 'editor'): Promise<string> {
    const token = OPERATOR_TOKEN_PREFIX + randomBytes(24).toString('base64url');
    const operator = await sql.query(
      `INSERT INTO operators (channel_id, email, role, created_at)
       SELECT id, $1, $2, 0 FROM channels WHERE channel_key = 'demo' RETURNING id`,
      [email, role],
    );
    await sql.query('INSERT INTO operator_tokens (token_hash, operator_id, created_at) VALUES ($1, $2, 0)', [
      operatorTokenHash(token),
      operator.rows[0].id,
    ]);
    return token;
  }

  before(async () => {
    database = await testDatabase();
    tmp = mkdtempSync(join(tmpdir(), 'channel-operator-test-'));
    const env = { DATABASE_URL: database.options.databaseUrl!, CLIPS_DIR: join(tmp, 'clips') };
    a = new ServerProcess('A', { dataDir: join(tmp, 'a'), env });
    b = new ServerProcess('B', { dataDir: join(tmp, 'b'), env });
    const { default: pg } = await import('pg');
    sql = new pg.Client({ connectionString: database.options.databaseUrl });
    await sql.connect();
    await Promise.all([a.start(), b.start()]);
    assert.ok(a.operator && b.operator, 'both processes have an operator listener');
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sql?.end();
    await database?.drop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('an event made, moved and cancelled through A shows so in B at once', async () => {
    const editor = await operatorToken('editor@example.com', 'editor');
    // B has served (and cached) the schedule before the change.
    const before = await b.get('events', undefined, 'limit=500');
    assert.equal(before.status, 200);
    const startsAt = new Date(Date.now() + 3 * 86400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const made = await call(a, editor, 'POST', '/channels/demo/events', {
      name: 'Two Process Derby',
      type: 'free',
      starts_at: startsAt,
      time_zone: 'Europe/Paris',
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = Number(made.body.data.id);
    const seen = await until('B lists the new event', async () => {
      const list = await b.get('events', undefined, 'limit=500');
      return list.body.data.find((e: { id: number }) => e.id === id) as { event_utc_ts: number; time_zone: string };
    });
    assert.equal(seen.time_zone, 'Europe/Paris');
    // This dev database counts offsets from each process's start (no 'event_clock' = 'utc'): B's start differs
    // from A's by the seconds between them.
    assert.ok(Math.abs(seen.event_utc_ts - Date.parse(startsAt) / 1000) < 120, 'B shows its start');
    const first = (await b.get(`events/${id}`)).body.data.event_utc_ts as number;

    const later = new Date(Date.parse(startsAt) + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const moved = await call(a, editor, 'PATCH', `/channels/demo/events/${id}`, { starts_at: later });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    await until(
      'B shows it moved an hour',
      async () => (await b.get(`events/${id}`)).body.data?.event_utc_ts === first + 3600,
    );

    const cancelled = await call(a, editor, 'POST', `/channels/demo/events/${id}/cancel`);
    assert.equal(cancelled.status, 200);
    await until('B answers 404 for it', async () => (await b.get(`events/${id}`)).status === 404);
    const list = await b.get('events', undefined, 'limit=500');
    assert.ok(!list.body.data.some((e: { id: number }) => e.id === id), 'B lists it no more');
  });

  test('a token revoked through A is refused by B on its next request', async () => {
    const owner = await operatorToken('owner@example.com', 'owner');
    const made = await call(a, owner, 'POST', '/channels/demo/operators', {
      email: 'short@example.com',
      role: 'editor',
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const token = String(made.body.data.token);
    assert.equal((await call(b, token, 'GET', '/channels/demo/categories')).status, 200);
    assert.equal((await call(a, owner, 'DELETE', `/channels/demo/tokens/${made.body.data.token_id}`)).status, 204);
    assert.equal((await call(b, token, 'GET', '/channels/demo/categories')).status, 401);
    assert.equal((await call(a, token, 'GET', '/channels/demo/categories')).status, 401);
  });
});
