/* eslint-disable max-lines -- the storage interface and its two engines (PGlite, a PostgreSQL server) read together; a few lines over */
/**
 * The channel server's storage: PostgreSQL, in one of two engines behind one interface.
 *
 * - **PGlite** (the default, no set-up): Postgres compiled to WebAssembly, in this process, its data directory
 *   `DATA_DIR/pgdata`. Every statement is written through to its files before it answers, so a row acknowledged
 *   is there after a crash (`SIGKILL`) and a restart. One process only: PGlite is single-user.
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
 * the fixtures, under the same lock.
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
} from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from './migrations.js';
import { bind, type Params, type SqlValue } from './sql.js';

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

/** SLOW_QUERY_MS: statements slower than this many ms are logged (see ChannelDb.timed). */
const SLOW_QUERY_MS = process.env.SLOW_QUERY_MS ? Number(process.env.SLOW_QUERY_MS) : undefined;

/** The advisory lock key that migrations and seeding hold ("channel" in ASCII). */
const MIGRATION_LOCK = 0x6368616e6e656c;

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
  close(): Promise<void>;
}

async function pgliteEngine(dir: string): Promise<Engine> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create(dir, { parsers: { [INT8]: toNumber, [NUMERIC]: toNumber } });
  const query: Engine['query'] = async (text, values) => {
    // PGlite runs each statement synchronously on this thread, and the statements waiting for it follow one another
    // in promise callbacks: fifty of them would hold the event loop for 100 ms and more, with no request read and
    // no answer sent meanwhile. Each statement waits its turn behind the I/O that is ready instead.
    await new Promise((resolve) => setImmediate(resolve));
    const result = await pg.query<Row>(text, values as unknown[]);
    return { rows: result.rows, count: result.affectedRows ?? result.rows.length };
  };
  return {
    kind: 'pglite',
    query,
    async transaction(fn) {
      // PGlite runs one statement at a time: a transaction holds it, and other statements wait their turn.
      return pg.transaction(async (tx) =>
        fn(
          async (text, values) => {
            const result = await tx.query<Row>(text, values as unknown[]);
            return { rows: result.rows, count: result.affectedRows ?? result.rows.length };
          },
          async (text) => {
            await tx.exec(text);
          },
        ),
      );
    },
    async exec(text) {
      await pg.exec(text);
    },
    async listen(channel, onMessage) {
      await pg.listen(channel, onMessage);
    },
    close: () => pg.close(),
  };
}

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
  pool.on('error', (error) => console.error('[channel-server] a database connection failed:', error.message));
  const run = async (client: Pick<import('pg').PoolClient, 'query'>, text: string, values: readonly unknown[]) => {
    const result = await client.query<Row>({ text, values: values as unknown[] });
    return { rows: result.rows, count: result.rowCount ?? result.rows.length };
  };
  let listener: import('pg').Client | undefined;
  const handlers = new Map<string, Array<(payload: string) => void>>();
  return {
    kind: 'postgres',
    query: (text, values) => run(pool, text, values),
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
      if (!listener) {
        listener = new pg.Client({ connectionString: url, types });
        listener.on('error', (error) => console.error('[channel-server] the database listener failed:', error.message));
        listener.on('notification', (message) => {
          for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
        });
        await listener.connect();
      }
      const list = handlers.get(channel) ?? [];
      if (list.length === 0) await listener.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      list.push(onMessage);
      handlers.set(channel, list);
    },
    async close() {
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
  /** The fixtures seeded into an empty database. */
  fixturesDir: string;
  /** Writes the fixtures into an empty, migrated database (seed.ts; passed in so storage does not import it). */
  seed(db: ChannelDb): Promise<void>;
  /**
   * Dev mode: a database seeded from other fixtures is emptied and seeded again (its data is the demo's). Without
   * it a changed fixture is only reported: a channel's own data is never thrown away.
   */
  reseedOnFixtureChange?: boolean;
  /**
   * Tests: a folder of ready-made PGlite databases (migrated and seeded), keyed by `templateKey`. A new data
   * directory starts as a copy of the matching one (made by the first start that needs it), which takes
   * milliseconds where creating and seeding takes seconds.
   */
  templates?: { dir: string; key: string };
}

/** The server's database; see the file comment. */
export class ChannelDb implements Queryable {
  private readonly scope = new AsyncLocalStorage<TransactionScope>();
  private closed = false;

  private constructor(
    private readonly engine: Engine,
    /** The PGlite data directory (its files are kept private), or undefined on a PostgreSQL server. */
    readonly pgliteDir: string | undefined,
  ) {}

  /** 'pglite' or 'postgres'. */
  get kind(): 'pglite' | 'postgres' {
    return this.engine.kind;
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
    try {
      await db.prepare(options);
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }

  /** Migrates, then seeds an empty database (or, where allowed, one seeded from other fixtures), under the lock. */
  private async prepare(options: OpenOptions): Promise<void> {
    const digest = fixturesDigest(options.fixturesDir);
    await this.transaction(async () => {
      await this.run('SELECT pg_advisory_xact_lock(?::bigint)', [MIGRATION_LOCK]);
      await this.migrate();
      const seeded = await this.get("SELECT value FROM meta WHERE key = 'fixtures'");
      if (seeded && seeded.value !== digest) {
        if (!options.reseedOnFixtureChange) {
          console.warn(
            '[channel-server] the fixtures changed since this database was seeded; it keeps its own data. ' +
              'Seed a new database (an empty DATA_DIR or DATABASE_URL) to see them.',
          );
          return;
        }
        // Dev mode: the demo's data goes, and the new fixtures come in.
        await this.run('DROP SCHEMA public CASCADE');
        await this.run('CREATE SCHEMA public');
        await this.migrate();
      } else if (seeded) {
        return;
      }
      await options.seed(this);
      await this.run("INSERT INTO meta (key, value) VALUES ('fixtures', ?)", [digest]);
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
   * Runs a statement; with SLOW_QUERY_MS set, a statement slower than that (waiting included) is logged: its text
   * only, never its values (they can hold tokens and emails). A failed statement's error loses the values and the
   * failing row the drivers attach to it (PGlite's `params`, PostgreSQL's `detail`), so no log can print them.
   */
  private async timed(text: string, values: SqlValue[]): Promise<{ rows: Row[]; count: number }> {
    if (SLOW_QUERY_MS === undefined) return this.scopeQuery()(text, values).catch(withoutValues);
    const started = performance.now();
    try {
      return await this.scopeQuery()(text, values).catch(withoutValues);
    } finally {
      const ms = performance.now() - started;
      if (ms > SLOW_QUERY_MS)
        console.warn(
          `[channel-server] slow statement, ${ms.toFixed(0)} ms: ${text.replace(/\s+/g, ' ').slice(0, 200)}`,
        );
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

  /** Updates the planner's statistics (the embedded database has no autovacuum to do it). */
  async analyze(): Promise<void> {
    await this.engine.exec('ANALYZE');
  }

  /** Tells every process listening on `channel` (this one too) `payload`, once the current transaction commits. */
  async notify(channel: string, payload = ''): Promise<void> {
    await this.run('SELECT pg_notify(?, ?)', [channel, payload]);
  }

  /** Calls `onMessage` for every notification on `channel`. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<void> {
    return this.engine.listen(channel, onMessage);
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
  const key = createHash('sha256')
    .update(templates.key)
    .update(fixturesDigest(options.fixturesDir))
    .update(MIGRATIONS.join('\n'))
    .digest('hex')
    .slice(0, 16);
  const ready = join(templates.dir, key);
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
  mkdirSync(join(dir, '..'), { recursive: true });
  cpSync(ready, dir, { recursive: true });
  // Templates of other keys (another seeding day, older migrations or fixtures) go, but for the newest few.
  const others = readdirSync(templates.dir)
    .filter((name) => name !== key && /^[0-9a-f]{16}$/.test(name))
    .map((name) => ({ name, at: statSync(join(templates.dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name } of others.slice(TEMPLATES_KEPT - 1))
    rmSync(join(templates.dir, name), { recursive: true, force: true });
}

/** How many ready-made databases a templates folder keeps (each is about 40 MB). */
const TEMPLATES_KEPT = 4;
