/* eslint-disable max-lines -- one transaction importing the old file, table by table in the order rows refer to each other */
/**
 * A one-time import of what visitors did on the old channel server, whose storage was an SQLite file
 * (`DATA_DIR/channel.sqlite`, sql.js, schema versions 8 to 10), into the PostgreSQL database that replaced it.
 *
 * It runs at start, after the new database was migrated and seeded from the same fixtures, so everything the
 * fixtures made (channels, events, packages, subscriptions, categories, teams, schools, the demo accounts) is there
 * already, under new ids. Rows of the old file are matched to them by what stays the same between seedings:
 * channels by channel_key; events by (channel, key), or (channel, name, fixture start_offset) for events without a
 * key; packages and subscriptions by (channel, name); participants, categories and groups by (channel, alias). Rows
 * that share such a key are paired in id order, which is fixture order in both databases.
 *
 * Imported: users (an email already in the new database, i.e. a demo account, keeps its new row, updated from the
 * old one, and the old file's orders, transactions, clips, favourites, cards and setup intents replace the seeded
 * ones of that account, since the old file holds the same seeded rows as the visitor left them), orders (with their
 * idempotency key, card, pending settlement and partner), transactions, favourites, clips (a queued or processing
 * clip stays so and is cut again; a clip's folder follows it to its new id), changed settings (the new row keeps its
 * fixture_json), the payment methods and setup intents of imported users (their text ids kept), and the media,
 * verification and card-fingerprint secrets, so that signed links and card fingerprints made by the old server still
 * hold.
 *
 * Not imported: tokens (users sign in again), api keys (clients fetch new ones), device codes, emailed one-time
 * links, portal sessions, social sign-in codes, the outbox, client logs, contact form submissions and dev-mode
 * reschedules; nor the seeded data itself, which the fixtures made again.
 *
 * All of it is one transaction: a failure (or a file this code cannot read) imports nothing, and the next start
 * tries again. Once done, `meta` key `sqlite_import` says so and the file is left alone from then on.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import initSqlJs, { type Database } from 'sql.js';
import { DEMO_MARK, type ChannelDb, type Row, type SqlValue } from './db.js';

/** The `meta` key written once a file was imported: a JSON summary (counts, the file's sha256, when). */
export const IMPORT_MARKER = 'sqlite_import';

/** The old server's schema versions this import reads (8 lacks orders.partner, 9 participants.parent_id). */
export const IMPORTABLE_VERSIONS: readonly number[] = [8, 9, 10];

/** What an import did: rows imported per table, and the rows it left out with why. */
export interface ImportReport {
  /** Accounts imported, counting those that were already there (mergedUsers). */
  users: number;
  /** Of those, accounts whose email was in the new database already (seeded demo accounts), updated in place. */
  mergedUsers: number;
  orders: number;
  transactions: number;
  favourites: number;
  clips: number;
  /** Clip folders moved to their clip's new id. */
  clipFolders: number;
  /** Channels whose changed settings replaced the seeded ones. */
  settings: number;
  paymentMethods: number;
  setupIntents: number;
  /** Signing secrets taken over from the old file. */
  secrets: number;
  /** Rows left out: the old table, the old id, and why. */
  skipped: Array<{ table: string; id: number | string; reason: string }>;
}

/** The meta keys of the secrets the old server signed links and fingerprinted cards with. */
const SECRETS = ['media_secret', 'verify_secret', 'card_fingerprint_secret'];

/** The advisory lock held while importing: processes starting together import once ("sqlite" in ASCII). */
const IMPORT_LOCK = 0x73716c697465;

/** Copied as they are; users' channel_id and email are set apart (a demo account keeps its new row's). */
const USER_COLUMNS = [
  'password_hash',
  'first_name',
  'last_name',
  'gender',
  'capabilities_json',
  'temporary_password',
  'trial_period_used',
  'is_geo_blocked',
  'clips_count',
  'downloads_count',
  'news',
  'email_verified_at',
  'updated_at',
];
const ORDER_COLUMNS = [
  'type',
  'status',
  'activity_status',
  'price',
  'currency',
  'reference',
  'subscription_status',
  'auto_renewal',
  'error',
  'created_at',
  'updated_at',
  'expires_at',
  'idempotency_key',
  'payment_method',
  'coupon',
  'save_card',
  'settles_at',
  'renewal_cancel_at',
  'is_trial',
  'partner',
];
const TRANSACTION_COLUMNS = ['status', 'amount', 'currency', 'label', 'created_at'];
const CLIP_COLUMNS = [
  'uuid',
  'name',
  'start_time',
  'duration',
  'tags_json',
  'status',
  'progress',
  'source',
  'asset_offset',
  'error',
  'created_at',
  'updated_at',
];
const PAYMENT_METHOD_COLUMNS = [
  'id',
  'brand',
  'last4',
  'exp_month',
  'exp_year',
  'fingerprint',
  'outcome',
  'saved',
  'used',
  'created_at',
];
const SETUP_INTENT_COLUMNS = ['id', 'secret_hash', 'status', 'payment_method', 'created_at'];

/** The tables of a demo account's seeded activity, which the old file's rows of that account replace. */
const REPLACED_FOR_MERGED = ['favourites', 'clips', 'orders', 'payment_methods', 'setup_intents'];

type Ids = Map<number, number>;

/** Imports the old `file` once (its clips' folders, in `clips/` beside it, into `clipsDir`); see the file comment. */
export async function importSqlite(
  db: ChannelDb,
  file: string,
  log: (message: string) => void,
  clipsDir: string,
): Promise<ImportReport | undefined> {
  if (!existsSync(file)) return undefined;
  // Checked before reading the file too, so a start after the import does not parse it again.
  if (await imported(db)) return undefined;
  const moves = new Moves();
  const notes: string[] = [];
  let sqlite: Database | undefined;
  let version = 0;
  let report: ImportReport | undefined;
  try {
    const bytes = readFileSync(file);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const SQL = await initSqlJs();
    const old = (sqlite = new SQL.Database(bytes));
    version = schemaVersion(old, file);
    report = await db.transaction(async () => {
      await db.run('SELECT pg_advisory_xact_lock(?::bigint)', [IMPORT_LOCK]);
      // Another process may have imported it while this one waited for the lock.
      if (await imported(db)) return undefined;
      const oldFixtures = readRows(old, "SELECT value FROM meta WHERE key = 'fixtures'")[0]?.value;
      const newFixtures = (await db.get("SELECT value FROM meta WHERE key = 'fixtures'"))?.value;
      if (oldFixtures !== undefined && newFixtures !== undefined && oldFixtures !== newFixtures)
        notes.push('the old file was seeded from other fixtures: rows that match none of the new ones are skipped');
      const result = await importRows(db, old, clipsDir, join(dirname(file), 'clips'), moves);
      await db.run(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [IMPORT_MARKER, JSON.stringify({ ...summary(result), file, sha256, schema_version: version, at: new Date() })],
      );
      // The database now holds more than the demo's fixtures: dev mode must never empty it to seed it again.
      await db.run('DELETE FROM meta WHERE key = ?', [DEMO_MARK]);
      return result;
    });
  } catch (error) {
    // The transaction rolled back: the folders go back where they were, so the next start finds them there.
    moves.undo();
    const message = error instanceof Error ? error.message : String(error);
    log(
      `SQLite import of ${file} failed, nothing was imported: ${message}. ` +
        'Fix the cause and start again, or move the file away to start without importing it.',
    );
    throw error;
  } finally {
    sqlite?.close();
  }
  if (!report) return undefined;
  // Committed: what is left in the scratch folder is only stale folders that stood where imported clips' now are.
  try {
    moves.finish();
  } catch (error) {
    log(`SQLite import: could not remove its scratch folder: ${(error as Error).message}`);
  }
  for (const note of notes) log(`SQLite import: note: ${note}`);
  for (const skip of report.skipped) log(`SQLite import: skipped ${skip.table} ${skip.id}: ${skip.reason}`);
  log(`SQLite import of ${file} (schema ${version}): ${oneLine(report)}`);
  return report;
}

/** Whether this database had a file imported already. */
async function imported(db: ChannelDb): Promise<boolean> {
  return (await db.get('SELECT 1 AS ok FROM meta WHERE key = ?', [IMPORT_MARKER])) !== undefined;
}

/** The old file's schema version; throws a readable error for a file that is none of IMPORTABLE_VERSIONS. */
function schemaVersion(old: Database, file: string): number {
  let value: SqlValue | undefined;
  try {
    value = readRows(old, "SELECT value FROM meta WHERE key = 'schema_version'")[0]?.value;
  } catch (error) {
    throw new Error(`${file} is not a channel server database (${(error as Error).message})`);
  }
  const version = Number(value);
  if (!IMPORTABLE_VERSIONS.includes(version))
    throw new Error(
      `${file} has schema_version ${String(value ?? 'none')}; only versions ${IMPORTABLE_VERSIONS.join(', ')} ` +
        'of the old server can be imported',
    );
  return version;
}

/** Every row of an old-file query, as objects. */
function readRows(old: Database, sql: string): Row[] {
  const result = old.exec(sql)[0];
  if (!result) return [];
  return result.values.map((values) => {
    const row: Row = {};
    result.columns.forEach((column, i) => (row[column] = values[i] ?? null));
    return row;
  });
}

/** The values of `columns` of an old row (a column an older schema lacks is null). */
const pick = (row: Row, columns: readonly string[]): SqlValue[] => columns.map((column) => row[column] ?? null);

/** `INSERT INTO table (columns) VALUES (?, ...)`. */
const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;

/**
 * Pairs old ids with new ones by a stable key within the (mapped) channel. Rows sharing a key are paired in id
 * order, which both databases gave in fixture order; an old row with no partner is left out.
 */
function pairBy(oldRows: Row[], newRows: Row[], channels: Ids, key: (row: Row) => Array<string | number | null>): Ids {
  const waiting = new Map<string, number[]>();
  for (const row of newRows) {
    const k = JSON.stringify([Number(row.channel_id), ...key(row)]);
    const list = waiting.get(k) ?? [];
    list.push(Number(row.id));
    waiting.set(k, list);
  }
  const ids: Ids = new Map();
  for (const row of oldRows) {
    const channel = channels.get(Number(row.channel_id));
    if (channel === undefined) continue;
    const next = waiting.get(JSON.stringify([channel, ...key(row)]))?.shift();
    if (next !== undefined) ids.set(Number(row.id), next);
  }
  return ids;
}

/** An alias, or the name of a row that has none. */
const aliasKey = (row: Row) => (row.alias === null ? ['name', String(row.name)] : ['alias', String(row.alias)]);

/** Events by key, or (name, start_offset as seeded: a dev reschedule's original) for events without one. */
const EVENTS_SQL = `SELECT e.id, e.channel_id, e.key, e.name, COALESCE(r.start_offset, e.start_offset) AS start_offset
  FROM events e LEFT JOIN event_reschedules r ON r.event_id = e.id ORDER BY e.id`;
const eventKey = (row: Row) =>
  row.key === null ? ['name', String(row.name), Number(row.start_offset)] : ['key', String(row.key)];

/** The import itself, inside the caller's transaction. */
async function importRows(
  db: ChannelDb,
  old: Database,
  clipsDir: string,
  oldClipsDir: string,
  moves: Moves,
): Promise<ImportReport> {
  const report: ImportReport = {
    users: 0,
    mergedUsers: 0,
    orders: 0,
    transactions: 0,
    favourites: 0,
    clips: 0,
    clipFolders: 0,
    settings: 0,
    paymentMethods: 0,
    setupIntents: 0,
    secrets: 0,
    skipped: [],
  };
  const skip = (table: string, id: SqlValue | undefined, reason: string) =>
    report.skipped.push({ table, id: typeof id === 'number' ? id : String(id), reason });

  // ---------------------------------------------------------------- what the fixtures made, old id to new id
  const newChannels = new Map(
    (await db.all('SELECT id, channel_key FROM channels')).map((row) => [String(row.channel_key), Number(row.id)]),
  );
  const channels: Ids = new Map();
  for (const row of readRows(old, 'SELECT id, channel_key FROM channels')) {
    const id = newChannels.get(String(row.channel_key));
    if (id !== undefined) channels.set(Number(row.id), id);
  }
  const byName = (row: Row) => [String(row.name)];
  const pairTable = async (table: string, key: (row: Row) => Array<string | number | null>, columns: string) =>
    pairBy(
      readRows(old, `SELECT id, channel_id, ${columns} FROM ${table} ORDER BY id`),
      await db.all(`SELECT id, channel_id, ${columns} FROM ${table} ORDER BY id`),
      channels,
      key,
    );
  const events = pairBy(readRows(old, EVENTS_SQL), await db.all(EVENTS_SQL), channels, eventKey);
  const products: Record<string, Ids> = {
    event: events,
    package: await pairTable('packages', byName, 'name'),
    subscription: await pairTable('subscriptions', byName, 'name'),
  };
  const favouritables: Record<string, Ids> = {
    participant: await pairTable('participants', aliasKey, 'alias, name'),
    category: await pairTable('categories', aliasKey, 'alias, name'),
    group: await pairTable('participant_groups', aliasKey, 'alias, name'),
  };

  // ---------------------------------------------------------------- accounts
  const users: Ids = new Map();
  for (const row of readRows(old, 'SELECT * FROM users ORDER BY id')) {
    const channel = channels.get(Number(row.channel_id));
    if (channel === undefined) {
      skip('users', row.id, `its channel (id ${String(row.channel_id)}) is not in the new database`);
      continue;
    }
    // lower() of the new database, as its unique index compares emails.
    const existing = await db.get('SELECT id FROM users WHERE channel_id = ? AND lower(email) = lower(?)', [
      channel,
      row.email ?? null,
    ]);
    let id: number;
    if (existing) {
      id = Number(existing.id);
      // The old file holds this account's seeded rows as the visitor left them: they replace the new seeding's.
      await db.run(
        'DELETE FROM transactions WHERE user_id = ? OR order_id IN (SELECT id FROM orders WHERE user_id = ?)',
        [id, id],
      );
      for (const table of REPLACED_FOR_MERGED) await db.run(`DELETE FROM ${table} WHERE user_id = ?`, [id]);
      await db.run(`UPDATE users SET ${USER_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE id = ?`, [
        ...pick(row, USER_COLUMNS),
        id,
      ]);
      report.mergedUsers++;
    } else {
      const columns = ['channel_id', 'email', 'provider', 'created_at', ...USER_COLUMNS];
      id = await db.insert(insertSql('users', columns), [
        channel,
        row.email ?? null,
        row.provider ?? 'email',
        row.created_at ?? null,
        ...pick(row, USER_COLUMNS),
      ]);
    }
    users.set(Number(row.id), id);
    report.users++;
  }

  // ---------------------------------------------------------------- orders and their transactions
  const orders: Ids = new Map();
  for (const row of readRows(old, 'SELECT * FROM orders ORDER BY id')) {
    const user = users.get(Number(row.user_id));
    const channel = channels.get(Number(row.channel_id));
    const product = products[String(row.type)]?.get(Number(row.product_id));
    const team = row.participant_id === null ? null : favouritables.participant!.get(Number(row.participant_id));
    if (user === undefined || channel === undefined) {
      skip('orders', row.id, `its account (id ${String(row.user_id)}) was not imported`);
    } else if (product === undefined) {
      skip('orders', row.id, `its ${String(row.type)} (id ${String(row.product_id)}) matches none in the new database`);
    } else if (team === undefined) {
      skip('orders', row.id, `its team (participant ${String(row.participant_id)}) matches none in the new database`);
    } else {
      // The new schema allows one pending purchase of a product per account, which the old one did not enforce.
      const inserted = await db.get(
        `${insertSql('orders', ['channel_id', 'user_id', 'product_id', 'participant_id', ...ORDER_COLUMNS])}
         ON CONFLICT DO NOTHING RETURNING id`,
        [channel, user, product, team, ...pick(row, ORDER_COLUMNS)],
      );
      if (inserted) {
        orders.set(Number(row.id), Number(inserted.id));
        report.orders++;
      } else {
        skip('orders', row.id, 'it conflicts with an imported order (same idempotency key, or a second pending one)');
      }
    }
  }
  for (const row of readRows(old, 'SELECT * FROM transactions ORDER BY id')) {
    const order = orders.get(Number(row.order_id));
    const user = users.get(Number(row.user_id));
    if (order === undefined || user === undefined) {
      skip('transactions', row.id, `its order (id ${String(row.order_id)}) was not imported`);
      continue;
    }
    await db.run(insertSql('transactions', ['order_id', 'user_id', ...TRANSACTION_COLUMNS]), [
      order,
      user,
      ...pick(row, TRANSACTION_COLUMNS),
    ]);
    report.transactions++;
  }

  // ---------------------------------------------------------------- cards and setup intents of imported accounts
  // A card nobody used is not attached to anyone (a purchase attaches the card it charges): it is left behind.
  for (const row of readRows(old, 'SELECT * FROM payment_methods WHERE user_id IS NOT NULL ORDER BY rowid')) {
    const user = users.get(Number(row.user_id));
    const channel = channels.get(Number(row.channel_id));
    if (user === undefined || channel === undefined) {
      skip('payment_methods', row.id, `its account (id ${String(row.user_id)}) was not imported`);
    } else if (
      await db.run(
        `${insertSql('payment_methods', ['channel_id', 'user_id', ...PAYMENT_METHOD_COLUMNS])} ON CONFLICT (id) DO NOTHING`,
        [channel, user, ...pick(row, PAYMENT_METHOD_COLUMNS)],
      )
    ) {
      report.paymentMethods++;
    } else {
      skip('payment_methods', row.id, 'its id is taken in the new database');
    }
  }
  for (const row of readRows(old, 'SELECT * FROM setup_intents ORDER BY rowid')) {
    const user = users.get(Number(row.user_id));
    const channel = channels.get(Number(row.channel_id));
    if (user === undefined || channel === undefined) {
      skip('setup_intents', row.id, `its account (id ${String(row.user_id)}) was not imported`);
    } else if (
      await db.run(
        `${insertSql('setup_intents', ['channel_id', 'user_id', ...SETUP_INTENT_COLUMNS])} ON CONFLICT (id) DO NOTHING`,
        [channel, user, ...pick(row, SETUP_INTENT_COLUMNS)],
      )
    ) {
      report.setupIntents++;
    } else {
      skip('setup_intents', row.id, 'its id is taken in the new database');
    }
  }

  // ---------------------------------------------------------------- favourites and clips
  for (const row of readRows(old, 'SELECT * FROM favourites ORDER BY id')) {
    const user = users.get(Number(row.user_id));
    const target = favouritables[String(row.favoritable_type)]?.get(Number(row.favoritable_id));
    if (user === undefined) {
      skip('favourites', row.id, `its account (id ${String(row.user_id)}) was not imported`);
    } else if (target === undefined) {
      skip(
        'favourites',
        row.id,
        `its ${String(row.favoritable_type)} (id ${String(row.favoritable_id)}) matches none in the new database`,
      );
    } else if (
      await db.run(
        'INSERT INTO favourites (user_id, favoritable_type, favoritable_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        [user, row.favoritable_type ?? null, target, row.created_at ?? null],
      )
    ) {
      report.favourites++;
    } else {
      skip('favourites', row.id, 'the account has this favourite already');
    }
  }
  const clips: Array<[number, number]> = [];
  const leftClips: number[] = [];
  for (const row of readRows(old, 'SELECT * FROM clips ORDER BY id')) {
    const user = users.get(Number(row.user_id));
    const event = events.get(Number(row.event_id));
    if (user === undefined || event === undefined) {
      skip(
        'clips',
        row.id,
        user === undefined
          ? `its account (id ${String(row.user_id)}) was not imported`
          : `its event (id ${String(row.event_id)}) matches none in the new database`,
      );
      leftClips.push(Number(row.id));
      continue;
    }
    // Queued and processing clips keep their state: with no lease, the new queue takes them up and cuts them again.
    const id = await db.insert(insertSql('clips', ['user_id', 'event_id', ...CLIP_COLUMNS]), [
      user,
      event,
      ...pick(row, CLIP_COLUMNS),
    ]);
    clips.push([Number(row.id), id]);
    report.clips++;
  }

  // ---------------------------------------------------------------- settings and secrets
  for (const row of readRows(old, 'SELECT channel_id, json, fixture_json FROM settings ORDER BY channel_id')) {
    const channel = channels.get(Number(row.channel_id));
    // Unchanged settings are the old fixture's: the new seeding's stay, in case the fixture changed since.
    if (channel === undefined || row.json === row.fixture_json) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(row.json));
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      skip('settings', row.channel_id, 'its json is not a JSON object');
      continue;
    }
    report.settings += await db.run('UPDATE settings SET json = ? WHERE channel_id = ?', [String(row.json), channel]);
  }
  for (const row of readRows(old, 'SELECT key, value FROM meta')) {
    if (!SECRETS.includes(String(row.key))) continue;
    await db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
      row.key ?? null,
      row.value ?? null,
    ]);
    report.secrets++;
  }

  // ---------------------------------------------------------------- clip folders, last: a failure before moves none
  if (existsSync(oldClipsDir)) {
    const stage = join(clipsDir, `.sqlite-import-${process.pid}`);
    moves.scratch = stage;
    // Everything leaves the old folder before anything lands in the new one: without CLIPS_DIR they are one folder,
    // and a clip's new id may be another's old one.
    for (const [oldId] of clips) moves.moveIfThere(join(oldClipsDir, String(oldId)), join(stage, String(oldId)));
    // A left-out clip's files stay out of the way of the new ids, where an operator can still find them.
    for (const oldId of leftClips)
      moves.moveIfThere(join(oldClipsDir, String(oldId)), join(clipsDir, 'sqlite-import-skipped', String(oldId)));
    for (const [oldId, newId] of clips) {
      const target = join(clipsDir, String(newId));
      // No clip had this id before: whatever stands there is stale, and would be served as this clip's files.
      moves.moveIfThere(target, join(stage, `stale-${newId}`));
      if (moves.moveIfThere(join(stage, String(oldId)), target)) report.clipFolders++;
    }
  }
  return report;
}

/** The report as stored in the marker: counts only. */
function summary(report: ImportReport): Record<string, number> {
  const { skipped, ...counts } = report;
  return { ...counts, skipped: skipped.length };
}

/** The report in one line. */
function oneLine(r: ImportReport): string {
  return (
    `${r.users} users (${r.mergedUsers} already there), ${r.orders} orders, ${r.transactions} transactions, ` +
    `${r.favourites} favourites, ${r.clips} clips (${r.clipFolders} folders moved), ${r.settings} settings, ` +
    `${r.paymentMethods} payment methods, ${r.setupIntents} setup intents, ${r.secrets} secrets; ` +
    `${r.skipped.length} rows skipped`
  );
}

/** Folder renames made by an import, undone (newest first) when the import fails. */
class Moves {
  private readonly done: Array<[string, string]> = [];
  /** A folder of this import's own, removed once it succeeded. */
  scratch: string | undefined;

  /** Moves a folder when it exists; answers whether it did. */
  moveIfThere(from: string, to: string): boolean {
    if (!existsSync(from)) return false;
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    moveFolder(from, to);
    this.done.push([from, to]);
    return true;
  }

  /** Puts every folder back; the scratch folder goes only when all came back out of it. */
  undo(): void {
    let whole = true;
    for (const [from, to] of this.done.reverse()) {
      try {
        moveFolder(to, from);
      } catch {
        // Best effort: the error that made the import fail is the one to report.
        whole = false;
      }
    }
    this.done.length = 0;
    if (whole) this.finish();
  }

  /** Removes the scratch folder (after a success it holds only stale folders that stood in the way). */
  finish(): void {
    if (this.scratch) rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** Renames a folder, or copies it when it crosses file systems (CLIPS_DIR on another volume). */
function moveFolder(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(from, to, { recursive: true });
    rmSync(from, { recursive: true, force: true });
  }
}
