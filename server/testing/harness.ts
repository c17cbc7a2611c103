/**
 * Shared by the server tests: request helpers, and for the tests of accounts and media (media.test.ts,
 * access.test.ts) an in-process server on free ports with a throwaway data folder, a clock the test moves, and
 * helpers that sign in through the real API. Not a test file itself (`npm run test:server` runs *.test.ts).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChannelDb } from '../storage/db.js';
import { DEV_SECRET_HEADER } from '../app/exposure.js';
import { seedDatabase } from '../fixtures/seed.js';
import { startServer, type RunningServer, type ServerOptions } from '../app/server.js';
import { createLogger, log, useLogger } from '../observability/log.js';

/**
 * Makes the process's log write into `lines` (each one a JSON line, every level) until `restore()`: what a test
 * asserts the server logged, or never logged.
 */
export function captureLog(): { lines: string[]; restore(): void } {
  const before = log();
  const lines: string[] = [];
  useLogger(createLogger({ level: 'trace', destination: { write: (line: string) => void lines.push(line) } }));
  return { lines, restore: () => useLogger(before) };
}

/** Ready-made embedded databases (db.ts OpenOptions.templates): a test server starts in a second, not in 10 to 40. */
export const DATABASE_TEMPLATES = join(import.meta.dirname, '..', '..', '.cache', 'db-templates');

/**
 * The database options of a test server: the embedded one from a template, or, when DATABASE_URL names a
 * PostgreSQL server (`npm run test:postgres`, `.ci/run`), a new database of its own there, dropped by `drop()`.
 */
export async function testDatabase(): Promise<{ options: Partial<ServerOptions>; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  // Production-mode test servers start on the demo too (a real production start leaves a new database empty).
  if (!server)
    return { options: { databaseTemplates: DATABASE_TEMPLATES, seedFixtures: true }, drop: async () => undefined };
  const { default: pg } = await import('pg');
  const name = `channel_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    options: { databaseUrl: url.href, seedFixtures: true },
    async drop() {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * assert.ok with a message always: without one, node builds the message by re-reading the source, which under
 * the tsx loader can stall the whole process for minutes (and with it the in-process server).
 */
export function ok(value: unknown, message?: string): asserts value {
  assert.ok(value, message ?? `expected a truthy value at ${new Error().stack?.split('\n')[2]?.trim()}`);
}

export interface Answer {
  status: number;
  headers: Headers;
  // Parsed JSON when the body is JSON, else its text; tests read it loosely and check shapes with the contract.
  body: any;
}

/** Fetches a URL; answers status, headers and the body, parsed when it is JSON. */
export async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep text */
  }
  return { status: res.status, headers: res.headers, body };
}

/** The demo accounts (server/fixtures/demo.json); every password is `demo-password`. */
export const ACCOUNTS = {
  viewer: 'viewer@demo-sports.example',
  buyer: 'buyer@demo-sports.example',
  subscriber: 'subscriber@demo-sports.example',
  passholder: 'passholder@demo-sports.example',
  /** A monthly subscription, but no `watch` right: it watches what a guest may. */
  suspended: 'suspended@demo-sports.example',
} as const;
export type Account = keyof typeof ACCOUNTS;

export class Harness {
  /** The server's clock (ms); tests set or advance it. */
  nowMs = Date.UTC(2030, 5, 15, 18, 0, 0);
  server!: RunningServer;
  base = '';
  /** The `demo` api key. */
  key = '';
  /** Fixture keys of the demo events, to their ids (GET /__dev/events). */
  events: Record<string, number> = {};
  private readonly tmp = mkdtempSync(join(tmpdir(), 'channel-server-test-'));
  /** The test's database (the same one across restarts). */
  private database: Awaited<ReturnType<typeof testDatabase>> | undefined;
  /** Tokens of the demo accounts, with the server time they were issued at. */
  private readonly tokens = new Map<Account, { token: string; at: number }>();

  /** `options`: more server options (e.g. paymentSettleMs). */
  constructor(private readonly options: ServerOptions = {}) {}

  /** The server's data folder (its database file, and the dev secret). */
  get dataDir(): string {
    return join(this.tmp, 'data');
  }

  async start(): Promise<void> {
    this.database ??= await testDatabase();
    this.server = await startServer({
      mode: 'dev',
      ...this.database.options,
      ...this.options,
      port: 0,
      dataDir: this.dataDir,
      now: () => this.nowMs,
    });
    this.base = this.server.origin;
    this.key = await this.apiKey('demo');
    this.events = (await this.call('/__dev/events?channel_key=demo')).body.data;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.database?.drop();
    rmSync(this.tmp, { recursive: true, force: true });
  }

  /** Stops the server and starts a new one on the same data folder (what a restart does). */
  async restart(): Promise<void> {
    await this.server.stop();
    await this.start();
  }

  /** Signs in any account with its password (the seeded ones of server/fixtures/demo.json); answers the bearer token. */
  async signIn(email: string, password: string): Promise<string> {
    const res = await this.post('/api/v2/auth/login', { api_key: this.key, email, password });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return String(res.body.data.token);
  }

  /** Fetches a path of the API server (or an absolute URL); `/__dev/` calls carry the dev secret. */
  call(path: string, init: RequestInit = {}): Promise<Answer> {
    const url = path.startsWith('http') ? path : `${this.base}${path}`;
    const headers = new Headers(init.headers);
    if (new URL(url).pathname.startsWith('/__dev/') && this.server.devSecret && !headers.has(DEV_SECRET_HEADER))
      headers.set(DEV_SECRET_HEADER, this.server.devSecret);
    return request(url, { ...init, headers });
  }

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.call(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  async apiKey(channel: string): Promise<string> {
    const res = await this.post('/api/get_api_key', { channel_key: channel });
    assert.equal(res.status, 200);
    return String(res.body.data.api_key);
  }

  /**
   * Signs in through POST /api/v2/auth/login and answers the bearer token: once per account, and again once a test
   * has moved the clock far enough that the token may have expired (tokens live 30 days after their last use).
   */
  async token(account: Account): Promise<string> {
    const known = this.tokens.get(account);
    if (known && this.nowMs - known.at < 20 * 86400_000) return known.token;
    const res = await this.post('/api/v2/auth/login', {
      api_key: this.key,
      email: ACCOUNTS[account],
      password: 'demo-password',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const token = String(res.body.data.token);
    this.tokens.set(account, { token, at: this.nowMs });
    return token;
  }

  /** GET /api/{path} on `demo` with the api key (keyed) and, for an account, its bearer token. */
  async api(path: string, account?: Account, query = ''): Promise<Answer> {
    const headers: Record<string, string> = account ? { Authorization: `Bearer ${await this.token(account)}` } : {};
    return this.call(`/api/${path}?api_key=${this.key}${query ? `&${query}` : ''}`, { headers });
  }

  /** GET /api/{path} of a keyless endpoint on `demo`. */
  keyless(path: string, query = ''): Promise<Answer> {
    return this.call(`/api/${path}?channel_key=demo${query ? `&${query}` : ''}`);
  }

  /** The event of a fixture key, as `account` (or a guest) gets it. */
  async event(key: string, account?: Account): Promise<any> {
    const res = await this.api(`events/${this.id(key)}`, account);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  }

  id(key: string): number {
    const id = this.events[key];
    ok(id, `no demo event with key ${key}`);
    return id;
  }

  /** The URL of an item's media of one kind, if listed. */
  static mediaUrl(item: { media: Array<{ type: string; url: string }> }, kind: string): string | undefined {
    return item.media.find((m) => m.type === kind)?.url;
  }
}

/**
 * startServer for tests that make their own servers: on a database of its own (testDatabase), dropped when it stops.
 * Pass `database` to start again on the same one (a restart).
 */
export async function startTestServer(
  options: ServerOptions,
  database?: Awaited<ReturnType<typeof testDatabase>>,
): Promise<RunningServer> {
  const own = database ?? (await testDatabase());
  const server = await startServer({ ...own.options, ...options });
  if (database) return server;
  const stop = server.stop.bind(server);
  server.stop = async () => {
    await stop();
    await own.drop();
  };
  return server;
}

/** The seeding time of test servers (the Harness clock's default), so their databases share one template. */
const TEST_SEEDED_AT = Math.floor(Date.UTC(2030, 5, 15, 18, 0, 0) / 1000);

/** A test's own seeded database, without a server (the embedded one from a template, or a PostgreSQL database). */
export async function openTestDb(): Promise<{ db: ChannelDb; close(): Promise<void> }> {
  const database = await testDatabase();
  const tmp = mkdtempSync(join(tmpdir(), 'channel-db-test-'));
  const fixturesDir = join(import.meta.dirname, '..', 'fixtures');
  const db = await ChannelDb.open({
    dataDir: tmp,
    databaseUrl: database.options.databaseUrl,
    fixturesDir,
    seed: (fresh) => seedDatabase(fresh, fixturesDir, TEST_SEEDED_AT),
    templates: database.options.databaseUrl
      ? undefined
      : { dir: DATABASE_TEMPLATES, key: String(Math.floor(TEST_SEEDED_AT / 86400)) },
  });
  return {
    db,
    async close() {
      await db.close();
      await database.drop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
