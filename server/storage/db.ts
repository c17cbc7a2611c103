/* eslint-disable max-lines -- the storage interface, its two engines (PGlite, a PostgreSQL server) and their notifications (a listener that reconnects, counts that catch a missed one) read together */
/**
 * The channel server's storage: PostgreSQL, in one of two engines behind one interface.
 *
 * - **PGlite** (the default, no set-up): Postgres compiled to WebAssembly, in this process but on a thread of its
 *   own (pglite-worker.ts), so a long statement never holds up a request's answer; its data directory
 *   `DATA_DIR/pgdata`. Every statement is written through to its files before it answers, so a row acknowledged
 *   is there after a crash (`SIGKILL`) and a restart. One process only: PGlite is single-user (a start holds
 *   DATA_DIR, data-dir.ts, so a second process is refused rather than opening it too).
 * - **A PostgreSQL server** (`DATABASE_URL=postgres://...`, version 15 or later) through node-postgres with a pool.
 *   Any number of server processes share it; a managed or replicated Postgres is a matter of that URL.
 *
 * SQL is Postgres's own, written with `?` (or `:name`) placeholders (sql.ts). Every statement of a request runs on
 * the request's connection; `transaction(fn)` runs `fn` in one transaction, and every `db` call made inside it
 * (whatever function makes it) joins that transaction, found through AsyncLocalStorage, so helpers need no
 * transaction argument. A request is answered after its statements returned, i.e. after they are committed.
 *
 * The schema is MIGRATIONS (migrations.ts), applied in order at start inside one transaction that holds an advisory
 * lock, so processes starting together migrate once and wait for each other. An empty database is then seeded from
 * the fixtures (dev mode, tests), under the same lock; dev mode marks what it seeds the demo's (DEMO_MARK), and empties
 * and seeds again only such a database. A production start or the command line creates it empty instead, its events
 * timed in UNIX seconds (EVENT_CLOCK); a channel comes in by the command line (server/cli/).
 *
 * `notify`/`listen` keep every process's caches current. On a PostgreSQL server the listener is a connection of its
 * own, opened again when it is lost; each notification is counted in `notification_versions`, and a process that
 * sees a count no notification brought (or whose listener came back) tells its subscribers to read everything again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { join } from 'node:path';
import { StartRefused } from './data-dir.js';
import { MIGRATIONS } from './migrations.js';
import { startPgliteThread } from './pglite-worker.js';
import { bind, type Params, type SqlValue } from './sql.js';
import { log } from '../observability/log.js';

export type { Params, SqlValue } from './sql.js';

/** A row as the drivers give it: bigint and numeric columns are parsed to numbers (every id and time fits). */
export type Row = Record<string, SqlValue>;

/** What runs statements: the database, or the transaction a `transaction()` callback is in. */
export interface Queryable {
  /** All rows of a query. */
  all(sql: string, params?: Params): Promise<Row[]>;
  /** The first row of a query, if any. */
  get(sql: string, params?: Params): Promise<Row | undefined>;
  /** Runs a statement; answers how many rows it wrote (or read). */
  run(sql: string, params?: Params): Promise<number>;
  /** Runs an INSERT and answers the new row's `id` (the statement gets `RETURNING id`). */
  insert(sql: string, params?: Params): Promise<number>;
}

/**
 * How often a process on a PostgreSQL server checks the notification counts for one it missed (ChannelDb.listen):
 * a missed change is read between one and two of these after it was made.
 */
const NOTIFICATION_CHECK_MS = 3000;

/** The advisory lock key that migrations and seeding hold ("channel" in ASCII). */
const MIGRATION_LOCK = 0x6368616e6e656c;

/**
 * The `meta` key that marks a database the demo's: dev mode seeded it and it holds only what dev mode made, so dev
 * mode may empty it and seed it again (its value is when it was seeded). Importing the SQLite era's data removes it.
 */
export const DEMO_MARK = 'demo_data';

/**
 * The `meta` key of the event clock (migrations.ts, OPERATORS): 'utc' when events.start_offset holds UNIX seconds
 * (a production database, created empty); absent when it counts from each process's start (seeded fixtures).
 */
export const EVENT_CLOCK = 'event_clock';

/** The `meta` 'fixtures' value of a database created empty (no fixtures were seeded into it). */
const CREATED_EMPTY = 'none';

/** Why dev mode does not start on a database it did not seed, and what to do (one line; no DATABASE_URL in it). */
function notTheDemos(pgliteDir: string | undefined): string {
  const where = pgliteDir ? `the embedded database in ${pgliteDir}` : 'the database DATABASE_URL names';
  return (
    `Dev mode will not start on ${where}: it holds data dev mode did not seed (a production-mode start, an ` +
    'earlier release or a channel.sqlite import made it), and dev mode empties the demo database to seed it again. ' +
    'For the demo, use a new DATA_DIR (or an empty database in DATABASE_URL); to run dev mode on this data as it ' +
    'is, dropping and seeding nothing, set CHANNEL_DEV_KEEP_DATA=1.'
  );
}

/** The tables the migrations make (and the record of them): all a demo database may hold before dev mode empties it. */
const OWN_TABLES = new Set([
  'schema_migrations',
  ...MIGRATIONS.flatMap((step) =>
    [...step.matchAll(/CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/gi)].map((m) =>
      m[1]!.toLowerCase(),
    ),
  ),
]);

/** Parsers shared by both engines: int8 and numeric as JS numbers (ids, times in ms and sums all fit in 2^53). */
const INT8 = 20;
const NUMERIC = 1700;
const toNumber = (value: string) => Number(value);

/** One engine: runs numbered statements, transactions, and LISTEN/NOTIFY. */
interface Engine {
  readonly kind: 'pglite' | 'postgres';
  query(text: string, values: readonly unknown[]): Promise<{ rows: Row[]; count: number }>;
  /** Runs `fn` with a statement runner bound to one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (query: Engine['query'], exec: Engine['exec']) => Promise<T>): Promise<T>;
  /** Several statements, no parameters. */
  exec(text: string): Promise<void>;
  /** Calls `onMessage` with every NOTIFY payload of `channel` (from this process and others). */
  listen(channel: string, onMessage: (payload: string) => void): Promise<void>;
  /** Calls `fn` each time a lost listener connection is back and listening again (notifications may be missed). */
  onReconnect(fn: () => void): void;
  /** Its connections: how many there are, how many are idle, how many statements wait for one (the metrics). */
  pool(): PoolState;
  close(): Promise<void>;
}

/** A database's connections at one moment. */
export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
}

async function pgliteEngine(dir: string): Promise<Engine> {
  // On a thread of its own (pglite-worker.ts): its statements never hold up the thread that answers requests.
  const thread = await startPgliteThread<Row>(dir);
  return {
    kind: 'pglite',
    query: (text, values) => thread.query(text, values),
    pool: () => {
      const asked = thread.pending();
      return { total: 1, idle: asked === 0 ? 1 : 0, waiting: Math.max(0, asked - 1) };
    },
    async transaction(fn) {
      // PGlite runs one statement at a time: a transaction holds it, and other statements wait their turn.
      const tx = await thread.begin();
      let result;
      try {
        result = await fn(
          (text, values) => thread.query(text, values, tx),
          (text) => thread.exec(text, tx),
        );
      } catch (error) {
        await thread.end(tx, false);
        throw error;
      }
      await thread.end(tx, true);
      return result;
    },
    exec: (text) => thread.exec(text),
    listen: (channel, onMessage) => thread.listen(channel, onMessage),
    // In this process: there is no connection to lose.
    onReconnect: () => undefined,
    close: () => thread.close(),
  };
}

/** How long a lost listener connection waits before it is opened again: from the first, doubling, to the last. */
const LISTENER_RETRY_FIRST_MS = 500;
const LISTENER_RETRY_LAST_MS = 30_000;

/** The listener connection's `application_name`: this process's, so an operator can tell whose it is. */
export const listenerName = (pid = process.pid): string => `channel-server-listener:${pid}`;

/** Postgres errors a transaction is simply tried again after: a serialisation failure, a deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);

async function postgresEngine(url: string, poolSize: number): Promise<Engine> {
  const { default: pg } = await import('pg');
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      oid === INT8 || oid === NUMERIC ? toNumber : pg.types.getTypeParser(oid, format as 'text'),
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types, application_name: 'channel-server' });
  // An idle client whose server went away must not take the process down; the next checkout reconnects.
  pool.on('error', (error) => log().error(`a database connection failed: ${error.message}`));
  const run = async (client: Pick<import('pg').PoolClient, 'query'>, text: string, values: readonly unknown[]) => {
    const result = await client.query<Row>({ text, values: values as unknown[] });
    return { rows: result.rows, count: result.rowCount ?? result.rows.length };
  };
  // The listener: a connection of its own (LISTEN holds it), named so an operator finds it in pg_stat_activity.
  // When it is lost (a failover, a proxy closing idle connections, pg_terminate_backend) it is opened again, after
  // 0.5 s doubling to 30 s, and LISTENs again on every channel; then `reconnected` says notifications may be missed.
  let listener: import('pg').Client | undefined;
  let closed = false;
  let retryMs = LISTENER_RETRY_FIRST_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let opening: Promise<import('pg').Client> | undefined;
  const reconnected: Array<() => void> = [];
  const handlers = new Map<string, Array<(payload: string) => void>>();
  const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;
  const openListener = async (): Promise<import('pg').Client> => {
    // keepAlive: a connection that went silent (a half-open TCP session) is noticed, and opened again.
    const client = new pg.Client({ connectionString: url, types, application_name: listenerName(), keepAlive: true });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (closed || listener !== client) return;
      listener = undefined;
      log().error(`the database listener was lost${error ? ` (${error.message})` : ''}; reconnecting`);
      client.end().catch(() => undefined);
      scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${quote(channel)}`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  };
  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      // One open at a time: a listen() meanwhile waits for this one rather than opening a second listener.
      opening ??= openListener().finally(() => (opening = undefined));
      opening.then(
        (client) => {
          if (closed) {
            client.end().catch(() => undefined);
            return;
          }
          listener = client;
          retryMs = LISTENER_RETRY_FIRST_MS;
          log().warn('the database listener is back');
          for (const fn of reconnected) fn();
        },
        (error: unknown) => {
          log().error(
            `the database listener could not reconnect (${(error as Error).message}); ` +
              `trying again in ${retryMs / 1000} s`,
          );
          scheduleReconnect();
        },
      );
      retryMs = Math.min(retryMs * 2, LISTENER_RETRY_LAST_MS);
    }, retryMs);
    retryTimer.unref();
  };
  return {
    kind: 'postgres',
    query: (text, values) => run(pool, text, values),
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await fn(
            (text, values) => run(client, text, values),
            async (text) => {
              await client.query(text);
            },
          );
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          const code = (error as { code?: string }).code;
          if (code && RETRYABLE.has(code) && attempt < 5) continue;
          throw error;
        } finally {
          client.release();
        }
      }
    },
    async exec(text) {
      await pool.query(text);
    },
    async listen(channel, onMessage) {
      const list = handlers.get(channel) ?? [];
      const first = list.length === 0;
      list.push(onMessage);
      handlers.set(channel, list);
      // The first channel opens the listener (a failure here fails the start); while it is being reopened, the
      // reconnection LISTENs on every channel in `handlers`, this one included. LISTEN twice is harmless.
      if (!listener && opening) {
        // Being opened (at start, or again after a loss): that open LISTENs on every channel, this one included. A
        // reconnection that fails is tried again (its timer is set by then); only a failed first open fails here.
        try {
          listener = await opening;
        } catch (error) {
          if (!retryTimer) throw error;
        }
      } else if (!listener && !retryTimer) {
        opening = openListener().finally(() => (opening = undefined));
        listener = await opening;
      }
      if (first && listener) await listener.query(`LISTEN ${quote(channel)}`);
    },
    onReconnect(fn) {
      reconnected.push(fn);
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

/** Where a transaction's statements go while `transaction()` runs it (open: false once it ended). */
interface TransactionScope {
  query: Engine['query'];
  exec: Engine['exec'];
  open: boolean;
}

/** A digest of the fixture files, stored once seeded: editing a fixture is then noticed at the next start. */
export function fixturesDigest(fixturesDir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(fixturesDir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    hash.update(name).update(readFileSync(join(fixturesDir, name)));
  }
  return hash.digest('hex');
}

/** How `ChannelDb.open` finds and prepares the database. */
export interface OpenOptions {
  /** DATA_DIR: PGlite keeps its files in `pgdata/` under it. */
  dataDir: string;
  /** A PostgreSQL server instead of PGlite (`DATABASE_URL`). */
  databaseUrl?: string;
  /** Connections per process to that server (default 10). */
  poolSize?: number;
  /** The fixtures `seed` writes (their digest is stored, so a changed fixture is noticed); with `seed` only. */
  fixturesDir?: string;
  /**
   * Writes the fixtures into an empty, migrated database (seed.ts; passed in so storage does not import it): dev mode
   * and the tests. Without it (a production start, the command line) an empty database is created empty, a
   * production database: no channel, and meta EVENT_CLOCK = 'utc' (events.start_offset in UNIX seconds).
   */
  seed?(db: ChannelDb): Promise<void>;
  /**
   * Dev mode: a database it seeds is marked the demo's (`meta` key DEMO_MARK), and one so marked that was seeded from
   * other fixtures is emptied and seeded again. A database without the mark (seeded by production mode, or by a
   * release before the mark) is refused with StartRefused, unless `keepData`. Without `dev` a changed fixture is
   * only reported: a channel's own data is never thrown away.
   */
  dev?: boolean;
  /** Dev mode on any database (CHANNEL_DEV_KEEP_DATA=1): nothing is dropped or seeded again, marked or not. */
  keepData?: boolean;
  /**
   * A production server's start (not a tool or a test looking inside): a database marked the demo's loses the mark,
   * since what it records from now on is the channel's.
   */
  serves?: boolean;
  /**
   * Tests: a folder of ready-made PGlite databases (migrated and seeded), keyed by `templateKey`. A new data
   * directory starts as a copy of the matching one (made by the first start that needs it), which takes
   * milliseconds where creating and seeding takes seconds.
   */
  templates?: { dir: string; key: string };
  /** Statements slower than this many ms are logged (SLOW_QUERY_MS; see ChannelDb.timed). */
  slowQueryMs?: number;
}

/** The server's database; see the file comment. */
export class ChannelDb implements Queryable {
  private readonly scope = new AsyncLocalStorage<TransactionScope>();
  private closed = false;
  /** Statements slower than this many ms are logged (OpenOptions.slowQueryMs). */
  private slowQueryMs: number | undefined;
  /** What each channel's subscribers do when they may have missed notifications (see `listen`). */
  private readonly missedHandlers = new Map<string, Array<() => void>>();
  /** Per notification channel: the newest count this process heard of (by a notification, or checked). */
  private readonly heard = new Map<string, number>();
  /** The counts the previous check read: a count still unheard one check later was missed. */
  private due = new Map<string, number>();
  private watchTimer: NodeJS.Timeout | undefined;
  private watchFailing = false;

  private constructor(
    private readonly engine: Engine,
    /** The PGlite data directory (its files are kept private), or undefined on a PostgreSQL server. */
    readonly pgliteDir: string | undefined,
  ) {}

  /** 'pglite' or 'postgres'. */
  get kind(): 'pglite' | 'postgres' {
    return this.engine.kind;
  }

  /** The connections at this moment (see PoolState). */
  poolState(): PoolState {
    return this.engine.pool();
  }

  /** Opens (and when needed creates, migrates and seeds) the database; see OpenOptions. */
  static async open(options: OpenOptions): Promise<ChannelDb> {
    let db: ChannelDb;
    if (options.databaseUrl) {
      db = new ChannelDb(await postgresEngine(options.databaseUrl, options.poolSize ?? 10), undefined);
    } else {
      const dir = join(options.dataDir, 'pgdata');
      mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
      if (options.templates && !existsSync(join(dir, 'PG_VERSION'))) await fromTemplate(dir, options);
      db = new ChannelDb(await pgliteEngine(dir), dir);
      db.keepPrivate();
    }
    db.slowQueryMs = options.slowQueryMs;
    try {
      await db.prepare(options);
      if (db.kind === 'postgres') await db.watchNotifications();
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }

  /**
   * Migrates, then seeds an empty database (or, in dev mode, a demo's seeded from other fixtures), or without `seed`
   * marks it a production one (EVENT_CLOCK), under the lock.
   * Dev mode on a database that is not the demo's is refused here, inside the transaction: the migrations roll back
   * with it, so the refused start changes nothing.
   */
  private async prepare(options: OpenOptions): Promise<void> {
    const digest = options.seed && options.fixturesDir ? fixturesDigest(options.fixturesDir) : CREATED_EMPTY;
    await this.transaction(async () => {
      await this.run('SELECT pg_advisory_xact_lock(?::bigint)', [MIGRATION_LOCK]);
      await this.migrate();
      const seeded = await this.get("SELECT value FROM meta WHERE key = 'fixtures'");
      if (seeded) {
        const demo = (await this.get('SELECT 1 AS marked FROM meta WHERE key = ?', [DEMO_MARK])) !== undefined;
        if (options.dev && !demo && !options.keepData) throw new StartRefused(notTheDemos(this.pgliteDir));
        if (options.serves && !options.dev && demo) {
          // A production process serves it now: whatever it records (real accounts, orders) is the channel's, so
          // dev mode must never again empty it as the demo's.
          await this.run('DELETE FROM meta WHERE key = ?', [DEMO_MARK]);
          log().warn(
            "this database was the demo's; served in production mode it is the channel's from now " +
              'on: dev mode will refuse it (CHANNEL_DEV_KEEP_DATA=1 runs dev mode on it as it is, never reseeding).',
          );
        }
        // The same fixtures, or none to compare with (a database created empty, or a start that seeds nothing).
        if (seeded.value === digest || seeded.value === CREATED_EMPTY || !options.seed) return;
        if (!options.dev || !demo || options.keepData) {
          log().warn(
            'the fixtures changed since this database was seeded; it keeps its own data. ' +
              'Seed a new database (an empty DATA_DIR or DATABASE_URL) to see them.',
          );
          return;
        }
        // Dev mode on the demo's own database: its data goes, and the new fixtures come in. Only if every table in it
        // is one of ours: a database shared with something else (another app's tables beside them) is never emptied.
        const others = (await this.all("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"))
          .map((row) => String(row.tablename))
          .filter((name) => !OWN_TABLES.has(name.toLowerCase()));
        if (others.length > 0)
          throw new StartRefused(
            `Dev mode will not empty the demo database to seed its new fixtures: it also holds tables that are not the ` +
              `channel server's (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', ...' : ''}). Give the demo a ` +
              'database of its own, or set CHANNEL_DEV_KEEP_DATA=1 to run on it as it is.',
          );
        await this.run('DROP SCHEMA public CASCADE');
        await this.run('CREATE SCHEMA public');
        await this.migrate();
      }
      if (options.seed) await options.seed(this);
      // Created empty: a production database, whose events are timed in UNIX seconds from the start.
      else await this.run("INSERT INTO meta (key, value) VALUES (?, 'utc')", [EVENT_CLOCK]);
      await this.run("INSERT INTO meta (key, value) VALUES ('fixtures', ?)", [digest]);
      if (options.dev)
        await this.run('INSERT INTO meta (key, value) VALUES (?, ?)', [DEMO_MARK, new Date().toISOString()]);
    });
    // The planner needs the tables' statistics (a seq scan of 5,000 events where an index finds 40 costs 3x):
    // a PostgreSQL server's autovacuum keeps them, the embedded one has no autovacuum (maintenance.ts runs it hourly).
    if (this.kind === 'pglite') await this.analyze();
  }

  /** Applies the migrations this database has not had yet, in order (inside prepare's transaction). */
  private async migrate(): Promise<void> {
    await this.run(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL)',
    );
    const done = new Set((await this.all('SELECT version FROM schema_migrations')).map((row) => Number(row.version)));
    for (const [index, step] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (done.has(version)) continue;
      await this.scope.getStore()!.exec(step);
      await this.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [version, Date.now()]);
    }
  }

  /** The newest migration this code knows. */
  static get schemaVersion(): number {
    return MIGRATIONS.length;
  }

  /** Whether close() was called (work still in flight then, a notification's reload say, has nothing to do). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** The newest migration this code knows (as schemaVersion, from an instance). */
  schemaVersion(): number {
    return MIGRATIONS.length;
  }

  private scopeQuery(): Engine['query'] {
    if (this.closed) throw new Error('The database is closed.');
    const scope = this.scope.getStore();
    return scope?.open ? scope.query : this.engine.query;
  }

  async all(sql: string, params?: Params): Promise<Row[]> {
    const { text, values } = bind(sql, params);
    return (await this.timed(text, values)).rows;
  }

  /**
   * Runs a statement; with slowQueryMs set, a statement slower than that (waiting included) is logged: its text
   * only, never its values (they can hold tokens and emails). A failed statement's error loses the values and the
   * failing row the drivers attach to it (PGlite's `params`, PostgreSQL's `detail`), so no log can print them.
   */
  private async timed(text: string, values: SqlValue[]): Promise<{ rows: Row[]; count: number }> {
    const slow = this.slowQueryMs;
    if (slow === undefined) return this.scopeQuery()(text, values).catch(withoutValues);
    const started = performance.now();
    try {
      return await this.scopeQuery()(text, values).catch(withoutValues);
    } finally {
      const ms = performance.now() - started;
      if (ms > slow) log().warn(`slow statement, ${ms.toFixed(0)} ms: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  }

  async get(sql: string, params?: Params): Promise<Row | undefined> {
    return (await this.all(sql, params))[0];
  }

  async run(sql: string, params?: Params): Promise<number> {
    const { text, values } = bind(sql, params);
    return (await this.timed(text, values)).count;
  }

  async insert(sql: string, params?: Params): Promise<number> {
    const row = await this.get(`${sql} RETURNING id`, params);
    return Number(row!.id);
  }

  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Inside, every call on
   * this database joins the transaction; a `transaction()` inside another joins the outer one.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.scope.getStore()?.open) return fn();
    return this.engine.transaction(async (query, exec) => {
      const scope: TransactionScope = { query, exec, open: true };
      try {
        return await this.scope.run(scope, fn);
      } finally {
        // Work the callback left running (a timer) must not use a finished transaction.
        scope.open = false;
      }
    });
  }

  /**
   * A production start on a database whose event clock still counts from each process's start (seeded by the tests'
   * harness, by dev mode and then served, by a release before EVENT_CLOCK, or for the SQLite era's import): its
   * offsets become UNIX seconds, once, placed from `startSeconds` (this start), so every event stays where it is now
   * and never moves again at a restart or between processes. Under the migration lock, in one transaction; a second
   * process finds the key written and changes nothing. Answers whether it converted.
   */
  async fixEventClock(startSeconds: number): Promise<boolean> {
    return this.transaction(async () => {
      await this.run('SELECT pg_advisory_xact_lock(?::bigint)', [MIGRATION_LOCK]);
      if (await this.get('SELECT 1 AS utc FROM meta WHERE key = ?', [EVENT_CLOCK])) return false;
      await this.run('UPDATE events SET start_offset = start_offset + ?::bigint', [startSeconds]);
      // A dev reschedule keeps the event's original offset there (dev/endpoints.ts), on the same clock.
      await this.run('UPDATE event_reschedules SET start_offset = start_offset + ?::bigint', [startSeconds]);
      await this.run("INSERT INTO meta (key, value) VALUES (?, 'utc')", [EVENT_CLOCK]);
      return true;
    });
  }

  /** Updates the planner's statistics (the embedded database has no autovacuum to do it). */
  async analyze(): Promise<void> {
    await this.engine.exec('ANALYZE');
  }

  /**
   * Tells every process listening on `channel` (this one too) `payload`, once the current transaction commits. The
   * channel's count in `notification_versions` goes up in the same statement, and the notification carries it
   * (`count:payload`, which `listen` takes apart): a process can then tell a notification it missed.
   */
  async notify(channel: string, payload = ''): Promise<void> {
    await this.run(
      `WITH counted AS (
         INSERT INTO notification_versions (channel, version) VALUES (?, 1)
         ON CONFLICT (channel) DO UPDATE SET version = notification_versions.version + 1 RETURNING version)
       SELECT pg_notify(?, version::text || ':' || ?::text) FROM counted`,
      [channel, channel, payload],
    );
  }

  /**
   * Calls `onMessage` for every notification on `channel`, and `onMissed` (if given) whenever some may have been
   * missed: the listener connection was lost and is back, or a count moved that no notification brought. A
   * subscriber that caches what the notifications keep current reads all of it again there.
   */
  listen(channel: string, onMessage: (payload: string) => void, onMissed?: () => void): Promise<void> {
    if (onMissed) this.missedHandlers.set(channel, [...(this.missedHandlers.get(channel) ?? []), onMissed]);
    return this.engine.listen(channel, (text) => {
      const counted = /^(\d+):/.exec(text);
      if (!counted) return onMessage(text); // sent by a release that did not count
      const count = Number(counted[1]);
      if (count > (this.heard.get(channel) ?? 0)) this.heard.set(channel, count);
      onMessage(text.slice(counted[0].length));
    });
  }

  /**
   * A PostgreSQL server: the notification counts now, then a check every NOTIFICATION_CHECK_MS (one read of a
   * table of a few rows), and a reload of everything after the listener connection comes back.
   */
  private async watchNotifications(): Promise<void> {
    const counts = await this.notificationCounts();
    for (const [channel, count] of counts) this.heard.set(channel, count);
    this.due = counts;
    this.engine.onReconnect(() => void this.caughtUp());
    this.watchTimer = setInterval(() => void this.checkNotifications(), NOTIFICATION_CHECK_MS);
    this.watchTimer.unref();
  }

  private async notificationCounts(): Promise<Map<string, number>> {
    const { rows } = await this.engine.query('SELECT channel, version FROM notification_versions', []);
    return new Map(rows.map((row) => [String(row.channel), Number(row.version)]));
  }

  /** The safety net: a count the previous check read that no notification brought since was missed. */
  private async checkNotifications(): Promise<void> {
    if (this.closed) return;
    let counts: Map<string, number>;
    try {
      counts = await this.notificationCounts();
      this.watchFailing = false;
    } catch (error) {
      // Said once per outage: the database is down, and every statement says so anyway.
      if (!this.watchFailing && !this.closed)
        log().error(`could not check for missed notifications: ${(error as Error).message}`);
      this.watchFailing = true;
      return;
    }
    for (const [channel, count] of counts) {
      const heard = this.heard.get(channel) ?? 0;
      // Lower than heard: the counts started again (a dev-mode reseed emptied the database).
      if ((this.due.get(channel) ?? 0) <= heard && count >= heard) continue;
      this.heard.set(channel, count);
      log().warn(`a notification on ${channel} did not arrive: reading what it changes again`);
      this.missed(channel);
    }
    this.due = counts;
  }

  /** The listener is back: what was sent meanwhile is counted as heard, and every subscriber reads all again. */
  private async caughtUp(): Promise<void> {
    try {
      const counts = await this.notificationCounts();
      for (const [channel, count] of counts) this.heard.set(channel, Math.max(this.heard.get(channel) ?? 0, count));
      this.due = counts;
    } catch {
      // The reloads below go on; the next check catches up the counts.
    }
    for (const channel of this.missedHandlers.keys()) this.missed(channel);
  }

  private missed(channel: string): void {
    for (const fn of this.missedHandlers.get(channel) ?? []) fn();
  }

  /**
   * The data directory's files are the server's alone (they hold the media, verification and card-fingerprint keys
   * and the password hashes): folders 0700, files 0600, whatever the umask they were made under.
   */
  keepPrivate(): void {
    if (this.pgliteDir) privateTree(this.pgliteDir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchTimer);
    await this.engine.close();
    this.keepPrivate();
  }
}

/** Rethrows a statement's error without the bound values and row data a driver attached to it (see timed). */
function withoutValues(error: unknown): never {
  if (error !== null && typeof error === 'object')
    for (const name of ['params', 'detail', 'queryOptions']) delete (error as Record<string, unknown>)[name];
  throw error;
}

/** Makes a folder and everything under it private to this user (0700 folders, 0600 files). */
export function privateTree(path: string): void {
  if (!existsSync(path)) return;
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o700);
    for (const name of readdirSync(path)) privateTree(join(path, name));
  } else if ((stat.mode & 0o777) !== 0o600) {
    chmodSync(path, 0o600);
  }
}

/** A new PGlite directory as a copy of a ready-made one (tests); see OpenOptions.templates. */
async function fromTemplate(dir: string, options: OpenOptions): Promise<void> {
  const { templates } = options;
  if (!templates) return;
  // Dev mode's copies carry the demo's mark (see OpenOptions.dev), production mode's do not: one template each.
  const key = createHash('sha256')
    .update(templates.key)
    .update(options.dev ? 'demo' : options.seed ? 'own' : 'empty')
    .update(options.seed && options.fixturesDir ? fixturesDigest(options.fixturesDir) : CREATED_EMPTY)
    .update(MIGRATIONS.join('\n'))
    .digest('hex')
    .slice(0, 16);
  const ready = join(templates.dir, key);
  const now = new Date();
  for (let attempt = 1; ; attempt++) {
    if (!existsSync(join(ready, 'PG_VERSION'))) {
      // Made in a scratch folder and renamed, so test processes starting together never copy half a template.
      const scratch = `${ready}.${process.pid}.tmp`;
      rmSync(scratch, { recursive: true, force: true });
      mkdirSync(templates.dir, { recursive: true });
      const db = await ChannelDb.open({ ...options, templates: undefined, dataDir: scratch });
      await db.close();
      try {
        renameSync(join(scratch, 'pgdata'), ready);
      } catch {
        // Another process made it meanwhile.
      }
      rmSync(scratch, { recursive: true, force: true });
    }
    try {
      // Its time says when it was last used (set before copying): the clean-up below leaves what a test may be
      // copying.
      utimesSync(ready, now, now);
      mkdirSync(join(dir, '..'), { recursive: true });
      cpSync(ready, dir, { recursive: true });
      break;
    } catch (error) {
      // Another process's clean-up took it (unused for an hour) between the look and the copy: it is made again.
      rmSync(dir, { recursive: true, force: true });
      if (attempt > 1 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  // Templates of other keys (another seeding day, older migrations or fixtures) go once unused for an hour, but for
  // the newest few. (A test run uses several keys at once: seeding days, the demo, empty ones.)
  const others = readdirSync(templates.dir)
    .filter((name) => name !== key && /^[0-9a-f]{16}$/.test(name))
    .map((name) => ({ name, at: statSync(join(templates.dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name, at } of others.slice(TEMPLATES_KEPT - 1))
    if (at < now.getTime() - TEMPLATE_IN_USE_MS) rmSync(join(templates.dir, name), { recursive: true, force: true });
}

/** How many ready-made databases a templates folder keeps when unused (each is about 40 MB). */
const TEMPLATES_KEPT = 8;
/** A template used this recently may be in use by a running test: it stays, however many there are. */
const TEMPLATE_IN_USE_MS = 60 * 60 * 1000;
