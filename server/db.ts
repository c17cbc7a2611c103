/**
 * The reference server's storage: a real SQLite database (sql.js, SQLite compiled to WASM, so no native build
 * step) kept in memory and written to `DATA_DIR/channel.sqlite` after writes. The schema is versioned: a file of an
 * older schema that MIGRATIONS can bring up to date is migrated in place, keeping what visitors did (accounts,
 * orders, favourites, the outbox); a file of any other schema, or of other fixtures, is thrown away and rebuilt from
 * the fixtures, which is fine for a demo: apart from seed data it holds only api keys, logs and what visitors did.
 *
 * Saving. sql.js cannot write a page at a time, so a save is a snapshot of the whole database. Writes are batched
 * off the request path: a write marks the database dirty, and at most once per SAVE_INTERVAL_MS a timer takes the
 * snapshot (an in-memory copy, the one part that holds the event loop: 0.8 ms median, 5 ms at worst, for the
 * 0.9 MB seeded database on the 2-core machine) and writes it with asynchronous file calls, to a temporary file
 * renamed over the old one, so a crash never leaves half a file. Writes made while a save is on disk are picked
 * up by the next one. `close()` saves synchronously.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import initSqlJs, { type Database, type SqlValue } from 'sql.js';

/**
 * Bump when the schema or the seed code changes: older files are rebuilt from the fixtures, unless MIGRATIONS has
 * the steps from their version to this one.
 */
export const SCHEMA_VERSION = 10;

/**
 * How a file of version N becomes version N + 1 without losing its data: SQL run in one transaction (all steps or
 * none), for changes that only add (a nullable column or one with a default, an index). A step that would need the
 * seed code again has no entry here: such files are rebuilt.
 */
export const MIGRATIONS: Readonly<Record<number, string>> = {
  // 8 -> 9: orders keep the partner they were attributed to (payments.ts); older orders have none.
  8: `ALTER TABLE orders ADD COLUMN partner TEXT;
      CREATE INDEX orders_partner ON orders (channel_id, partner);`,
  // 9 -> 10: a team's own teams (participants.parent_id). The demo's seed of them (a club's squads) and its
  // suspended account come with a fresh data directory only; a migrated one keeps its own data as it was.
  9: `ALTER TABLE participants ADD COLUMN parent_id INTEGER;`,
};

/** At most one save per this interval. */
export const SAVE_INTERVAL_MS = 1000;

/**
 * A digest of the fixture files. Stored next to the schema version so that editing a fixture is picked up on the
 * next start without anyone remembering to delete .data/ (api keys are dropped then; clients fetch new ones).
 */
function fixturesDigest(fixturesDir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(fixturesDir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    hash.update(name).update(readFileSync(join(fixturesDir, name)));
  }
  return hash.digest('hex');
}

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE channels (id INTEGER PRIMARY KEY, channel_key TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
-- last_used_at is written at most once an hour per key (maintenance.ts prunes keys nobody uses).
CREATE TABLE api_keys (
  api_key TEXT PRIMARY KEY, channel_id INTEGER NOT NULL REFERENCES channels(id), created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL);
CREATE INDEX api_keys_last_used ON api_keys (last_used_at);
-- fixture_json keeps the seeded settings, so DELETE /__dev/settings can undo what a test changed.
CREATE TABLE settings (
  channel_id INTEGER PRIMARY KEY REFERENCES channels(id), json TEXT NOT NULL, fixture_json TEXT NOT NULL);
CREATE TABLE colors (
  channel_id INTEGER NOT NULL REFERENCES channels(id), name TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (channel_id, name));
CREATE TABLE menu (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, parent_id INTEGER, position INTEGER NOT NULL,
  name TEXT NOT NULL, alias TEXT, url TEXT, custom_icon TEXT, type TEXT NOT NULL DEFAULT 'link');
CREATE TABLE pages (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
  alt_name TEXT, url TEXT NOT NULL, alias TEXT NOT NULL, blocks_json TEXT NOT NULL);
CREATE UNIQUE INDEX pages_alias ON pages (channel_id, alias);
CREATE TABLE categories (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, parent_id INTEGER, position INTEGER NOT NULL,
  name TEXT NOT NULL, alias TEXT, sport TEXT, gender TEXT);
CREATE TABLE participant_groups (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, name TEXT NOT NULL, alias TEXT, image TEXT,
  properties_json TEXT NOT NULL DEFAULT '{}');
-- parent_id: a team's own teams are its children (a club's squads); filters, favourites and team passes of a
-- team include them.
CREATE TABLE participants (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, group_id INTEGER, parent_id INTEGER, name TEXT NOT NULL,
  short_name TEXT, alias TEXT, logo TEXT, color TEXT, gender TEXT, sport TEXT);
CREATE TABLE locations (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, name TEXT NOT NULL, city TEXT, state TEXT, time_zone TEXT);
CREATE TABLE events (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, key TEXT, name TEXT NOT NULL, type TEXT NOT NULL,
  start_offset INTEGER NOT NULL, -- seconds from the server's start (the anchor), so live events stay live
  duration INTEGER NOT NULL, time_zone TEXT, home_team_id INTEGER, location_id INTEGER, category_id INTEGER,
  image TEXT, description TEXT, price REAL,
  single_event_package_id INTEGER, -- the single-event package that sells it (paid and ppv events)
  has_recording INTEGER NOT NULL DEFAULT 1, is_geo_blocked INTEGER NOT NULL DEFAULT 0);
CREATE INDEX events_channel_start ON events (channel_id, start_offset);
CREATE UNIQUE INDEX events_key ON events (channel_id, key) WHERE key IS NOT NULL; -- fixture keys, for tests
-- The fixture schedule of events moved by POST /__dev/events/{id}/start-in, for .../reset.
CREATE TABLE event_reschedules (event_id INTEGER PRIMARY KEY, start_offset INTEGER NOT NULL, duration INTEGER NOT NULL);
-- Clustered by (event_id, position) so that reading one event's participants walks them in order (away, home)
-- without a sort per event: the events page builds 5,000 of these lists.
CREATE TABLE event_participants (
  event_id INTEGER NOT NULL, participant_id INTEGER NOT NULL, position INTEGER NOT NULL,
  PRIMARY KEY (event_id, position)) WITHOUT ROWID;
CREATE INDEX event_participants_participant ON event_participants (participant_id);
CREATE TABLE faq (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, question TEXT NOT NULL,
  answer TEXT NOT NULL);
CREATE TABLE slides (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, title TEXT, image TEXT,
  link TEXT, slidable_type TEXT, slidable_id INTEGER);
CREATE TABLE custom_forms (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, alias TEXT NOT NULL, name TEXT NOT NULL,
  fields_json TEXT NOT NULL);
-- Filled-in custom forms (the contacts form): the values by field name, who sent them (user, if signed in) and when.
CREATE TABLE form_submissions (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, form_alias TEXT NOT NULL, values_json TEXT NOT NULL,
  user_id INTEGER, ip TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX form_submissions_channel ON form_submissions (channel_id, created_at);
-- Accounts. Emails are unique per channel whatever their case; password_hash is 'scrypt$N$r$p$salt$hash'
-- (base64), null for accounts that only sign in socially. Capabilities are a JSON array of flags. provider is
-- 'email' or the social provider that created the account; email_verified_at stays null until the emailed link
-- is followed.
CREATE TABLE users (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL REFERENCES channels(id), email TEXT NOT NULL,
  password_hash TEXT, first_name TEXT, last_name TEXT, gender TEXT CHECK (gender IN ('M', 'W')),
  capabilities_json TEXT NOT NULL DEFAULT '[]', temporary_password INTEGER NOT NULL DEFAULT 0,
  trial_period_used INTEGER NOT NULL DEFAULT 0, is_geo_blocked INTEGER NOT NULL DEFAULT 0,
  clips_count INTEGER NOT NULL DEFAULT 0, downloads_count INTEGER NOT NULL DEFAULT 0,
  news INTEGER NOT NULL DEFAULT 0, provider TEXT NOT NULL DEFAULT 'email',
  email_verified_at INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE UNIQUE INDEX users_email ON users (channel_id, lower(email));
-- Bearer tokens, stored as the SHA-256 (hex) of the token: the database never holds a usable token.
-- A token ends at expires_at, which each use pushes out (accounts.ts, TOKEN_TTL).
CREATE TABLE tokens (
  token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL, last_used_at INTEGER, expires_at INTEGER NOT NULL);
CREATE INDEX tokens_user ON tokens (user_id);
CREATE INDEX tokens_expiry ON tokens (expires_at);
-- Packages: type 'single' (one event: events.single_event_package_id) or 'category' (the events of some
-- categories, their subcategories included); a team pass is a category package bought for one of its teams.
CREATE TABLE packages (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('single', 'category')), is_team_pass INTEGER NOT NULL DEFAULT 0,
  price REAL NOT NULL, base_price REAL, service_fee REAL, weight INTEGER NOT NULL DEFAULT 0,
  offer TEXT, period TEXT, description TEXT);
CREATE TABLE package_categories (
  package_id INTEGER NOT NULL, category_id INTEGER NOT NULL, PRIMARY KEY (package_id, category_id)) WITHOUT ROWID;
CREATE TABLE package_participants (
  package_id INTEGER NOT NULL, participant_id INTEGER NOT NULL, PRIMARY KEY (package_id, participant_id)) WITHOUT ROWID;
CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
  offer TEXT NOT NULL, period TEXT, price REAL NOT NULL, base_price REAL, service_fee REAL,
  trial_period INTEGER, weight INTEGER NOT NULL DEFAULT 0, description TEXT);
-- Orders: product_id is an event, package or subscription id by type; participant_id is the team of a team pass.
-- Access comes from orders with status 'paid' and activity_status 'active' (and expires_at, when set, ahead).
-- Subscriptions also carry their own state (subscription_status) and auto_renewal ('active' or 'cancelled').
-- Purchases (payments.ts) add: the client's idempotency_key (one order per key and user), the payment_method
-- charged, the coupon, save_card, settles_at (server clock, ms: the order is pending until then, when the card's
-- outcome settles it, as a payment webhook would), renewal_cancel_at (ms: an auto-renewal cancellation in progress)
-- and is_trial; partner is the slug of the partner the sale is attributed to (the page's data-partner or trk).
CREATE TABLE orders (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, user_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('event', 'package', 'subscription')), product_id INTEGER NOT NULL,
  participant_id INTEGER, status TEXT NOT NULL, activity_status TEXT NOT NULL, price REAL, currency TEXT,
  reference TEXT, subscription_status TEXT, auto_renewal TEXT CHECK (auto_renewal IN ('active', 'cancelled')),
  error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, expires_at INTEGER,
  idempotency_key TEXT, payment_method TEXT, coupon TEXT, save_card INTEGER NOT NULL DEFAULT 0, settles_at INTEGER,
  renewal_cancel_at INTEGER, is_trial INTEGER NOT NULL DEFAULT 0, partner TEXT);
CREATE INDEX orders_user ON orders (user_id, status, activity_status);
CREATE INDEX orders_partner ON orders (channel_id, partner);
CREATE UNIQUE INDEX orders_idempotency ON orders (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX orders_pending ON orders (settles_at) WHERE settles_at IS NOT NULL;
-- Promo codes per channel (apply_coupon): a percentage or a fixed amount off the price before fees.
CREATE TABLE coupons (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, code TEXT NOT NULL, percent REAL, amount REAL,
  CHECK ((percent IS NULL) <> (amount IS NULL)));
CREATE UNIQUE INDEX coupons_code ON coupons (channel_id, upper(code));
-- The fake Stripe (dev/stripe.ts). Payment methods made by the test double: never the card number, only what a
-- charge needs (the test card's outcome), what a list shows, and a keyed fingerprint to spot the same card saved
-- twice. user_id: the customer it is attached to (saved: listed by stripe/list-cards); used: an unattached one was
-- spent on an order, and like at Stripe cannot be charged again.
CREATE TABLE payment_methods (
  id TEXT PRIMARY KEY, channel_id INTEGER NOT NULL, brand TEXT NOT NULL, last4 TEXT NOT NULL,
  exp_month INTEGER NOT NULL, exp_year INTEGER NOT NULL, fingerprint TEXT NOT NULL, outcome TEXT NOT NULL,
  user_id INTEGER, saved INTEGER NOT NULL DEFAULT 0, used INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
CREATE INDEX payment_methods_user ON payment_methods (user_id, saved);
-- Setup intents (trials): the client secret is kept only as its SHA-256.
CREATE TABLE setup_intents (
  id TEXT PRIMARY KEY, channel_id INTEGER NOT NULL, user_id INTEGER NOT NULL, secret_hash TEXT NOT NULL,
  status TEXT NOT NULL, payment_method TEXT, created_at INTEGER NOT NULL);
-- Customer portal sessions (/__stripe/portal/{id}): the id's SHA-256, whose page, where "Return" goes.
CREATE TABLE portal_sessions (
  id_hash TEXT PRIMARY KEY, channel_id INTEGER NOT NULL, user_id INTEGER NOT NULL, return_url TEXT NOT NULL,
  expires_at INTEGER NOT NULL);
-- Payment transactions of orders; label names subscription charges ('New subscription', 'Subscription Renewal').
CREATE TABLE transactions (
  id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id), user_id INTEGER NOT NULL,
  status TEXT NOT NULL, amount REAL NOT NULL, currency TEXT, label TEXT, created_at INTEGER NOT NULL);
CREATE INDEX transactions_user ON transactions (user_id);
-- Clips users cut from events (clips.ts; the job queue is clip-jobs.ts). start_time is seconds into the recording
-- (source 'vod') or since the event's scheduled start (source 'live'); asset_offset is where the cut starts in
-- the test recording (main.mp4, looped for live clips). progress 0-100 while queued or processing; error says
-- why a job failed (never sent to clients). The files are DATA_DIR/clips/{id}/ once done.
CREATE TABLE clips (
  id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, event_id INTEGER NOT NULL, uuid TEXT NOT NULL, name TEXT NOT NULL,
  start_time REAL NOT NULL, duration REAL NOT NULL, tags_json TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'done', 'failed')),
  progress INTEGER NOT NULL DEFAULT 0, source TEXT NOT NULL CHECK (source IN ('vod', 'live')),
  asset_offset REAL NOT NULL, error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE INDEX clips_user ON clips (user_id, created_at);
CREATE INDEX clips_status ON clips (status) WHERE status IN ('queued', 'processing');
-- Favourites chosen by a user: a team (participant), a school (group) or a sport (category).
CREATE TABLE favourites (
  id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL,
  favoritable_type TEXT NOT NULL CHECK (favoritable_type IN ('participant', 'group', 'category')),
  favoritable_id INTEGER NOT NULL, created_at INTEGER NOT NULL, UNIQUE (user_id, favoritable_type, favoritable_id));
-- One-time emailed links (password reset, account deletion): only the token's SHA-256; a new link replaces the last.
CREATE TABLE user_links (
  user_id INTEGER NOT NULL, purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'delete')), token_hash TEXT NOT NULL,
  expires_at INTEGER NOT NULL, PRIMARY KEY (user_id, purpose)) WITHOUT ROWID;
-- Codes issued by the social stand-in pages (/__social/...): one-time, short-lived, bound to their redirect_uri.
CREATE TABLE social_codes (
  code_hash TEXT PRIMARY KEY, channel_id INTEGER NOT NULL, provider TEXT NOT NULL, email TEXT NOT NULL,
  first_name TEXT, last_name TEXT, redirect_uri TEXT NOT NULL, expires_at INTEGER NOT NULL);
-- Device linking: a TV shows its code; a signed-in viewer links it (user_id). Only the api key that asked for the code
-- (its SHA-256 here) may poll it and receive the TV's token, once (token_issued).
CREATE TABLE device_codes (
  code TEXT PRIMARY KEY, channel_id INTEGER NOT NULL, api_key_hash TEXT NOT NULL, expires_at INTEGER NOT NULL,
  user_id INTEGER, linked_at INTEGER, token_issued INTEGER NOT NULL DEFAULT 0);
-- Every email the server "sends" (GET /__dev/outbox): nothing leaves the machine.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT, channel_id INTEGER NOT NULL, to_email TEXT NOT NULL, subject TEXT NOT NULL,
  text TEXT NOT NULL, links_json TEXT NOT NULL, sent_at INTEGER NOT NULL);
-- Prerolls play media generated by media.ts ('bars', 'zoom'); no categories means every category.
CREATE TABLE prerolls (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
  media TEXT NOT NULL, weight INTEGER NOT NULL DEFAULT 1, location_id INTEGER,
  for_vod INTEGER NOT NULL DEFAULT 0, for_live INTEGER NOT NULL DEFAULT 0);
CREATE TABLE preroll_categories (
  preroll_id INTEGER NOT NULL, category_id INTEGER NOT NULL, PRIMARY KEY (preroll_id, category_id)) WITHOUT ROWID;
-- The video-on-demand library (library-seed.ts, library-api.ts): categories of its own, items, and rails (titled,
-- ordered rows of items). An item's category_id is the sport (an event category), vod_category_id its library
-- category; asset names its generated image and preview (library-media.ts); duration null means the length of the
-- test recording it plays. date is YYYY-MM-DD.
CREATE TABLE vod_categories (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, alias TEXT);
CREATE TABLE vod_items (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, title TEXT NOT NULL,
  date TEXT, type TEXT NOT NULL CHECK (type IN ('free', 'register', 'paid')), category_id INTEGER,
  vod_category_id INTEGER REFERENCES vod_categories(id), duration INTEGER, asset TEXT, description TEXT);
CREATE INDEX vod_items_channel_date ON vod_items (channel_id, date);
CREATE TABLE vod_rails (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, title TEXT NOT NULL);
CREATE TABLE vod_rail_items (
  rail_id INTEGER NOT NULL, position INTEGER NOT NULL, item_id INTEGER NOT NULL,
  PRIMARY KEY (rail_id, position)) WITHOUT ROWID;
-- Client log entries (POST /api/logs): bounded in size, count and age (maintenance.ts).
CREATE TABLE logs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, channel_id INTEGER, received_at INTEGER NOT NULL, ip TEXT,
  entry_json TEXT NOT NULL);
CREATE INDEX logs_received ON logs (received_at);
`;

export type Row = Record<string, SqlValue>;

/**
 * Brings a database of `version` to SCHEMA_VERSION with MIGRATIONS, in one transaction; true when it is there (also
 * when it already was), false when no chain of steps leads there (or a step failed: nothing is changed then).
 */
export function migrate(db: Database, version: number): boolean {
  if (version === SCHEMA_VERSION) return true;
  if (!Number.isInteger(version) || version > SCHEMA_VERSION) return false;
  for (let step = version; step < SCHEMA_VERSION; step++) if (MIGRATIONS[step] === undefined) return false;
  db.exec('BEGIN');
  try {
    for (let step = version; step < SCHEMA_VERSION; step++) db.exec(MIGRATIONS[step]!);
    db.run("UPDATE meta SET value = ? WHERE key = 'schema_version'", [String(SCHEMA_VERSION)]);
    db.exec('COMMIT');
    return true;
  } catch {
    db.exec('ROLLBACK');
    return false;
  }
}

/** A thin wrapper around the sql.js database: typed row helpers plus batched saving to disk. */
export class ChannelDb {
  private saveTimer: NodeJS.Timeout | undefined;
  /** A save on its way to disk, if any. */
  private saving: Promise<void> | undefined;
  private dirty = false;
  private closed = false;
  /** Milliseconds the last snapshots took (the part of a save that holds the event loop), newest last. */
  readonly snapshotTimes: number[] = [];

  private constructor(
    readonly db: Database,
    private readonly file: string,
  ) {}

  /**
   * Opens the database file under `dataDir`, or creates it and fills it with `seed` (seed.ts) when it is missing or
   * was written from another schema or other fixtures. The seeding is passed in so that storage does not import the
   * seed code, which itself uses the storage types.
   */
  static async open(dataDir: string, fixturesDir: string, seed: (db: ChannelDb) => void): Promise<ChannelDb> {
    const SQL = await initSqlJs();
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, 'channel.sqlite');
    const digest = fixturesDigest(fixturesDir);
    let db: Database | undefined;
    let migrated = false;
    if (existsSync(file)) {
      try {
        db = new SQL.Database(readFileSync(file));
        const meta = new Map(db.exec('SELECT key, value FROM meta')[0]?.values.map(([k, v]) => [String(k), String(v)]));
        const version = Number(meta.get('schema_version'));
        migrated = version !== SCHEMA_VERSION;
        if (meta.get('fixtures') !== digest || !migrate(db, version)) {
          // A foreign file, or one no migration reaches: rebuilding from fixtures is simpler and safer.
          db.close();
          db = undefined;
        }
      } catch {
        db = undefined; // unreadable file: start over rather than refuse to boot the demo
      }
    }
    const fresh = db === undefined;
    db ??= new SQL.Database();
    const store = new ChannelDb(db, file);
    if (fresh) {
      db.exec(SCHEMA);
      db.run("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", [String(SCHEMA_VERSION)]);
      db.run("INSERT INTO meta (key, value) VALUES ('fixtures', ?)", [digest]);
      store.transaction(() => seed(store));
      store.saveNow();
    } else if (migrated) {
      store.saveNow();
    }
    return store;
  }

  /**
   * All rows of a query as plain objects. Uses `exec` (one call returning arrays) rather than stepping a statement
   * with `getAsObject` per row: for a 5,000-event page the per-row calls across the WASM boundary cost ~8x more.
   */
  all(sql: string, params: SqlValue[] | Record<string, SqlValue> = []): Row[] {
    const result = this.db.exec(sql, params)[0];
    if (!result) return [];
    const { columns, values } = result;
    return values.map((value) => {
      const row: Row = {};
      for (let i = 0; i < columns.length; i++) row[columns[i]!] = value[i] ?? null;
      return row;
    });
  }

  /** The first row of a query, if any. */
  get(sql: string, params: SqlValue[] | Record<string, SqlValue> = []): Row | undefined {
    return this.all(sql, params)[0];
  }

  /** Runs a write and schedules a save; answers the last inserted row id. */
  run(sql: string, params: SqlValue[] = []): number {
    this.db.run(sql, params);
    this.scheduleSave();
    return Number(this.db.exec('SELECT last_insert_rowid()')[0]?.values[0]?.[0] ?? 0);
  }

  /** Runs `fn` inside one transaction (seeding thousands of rows one-by-one is much slower otherwise). */
  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Writes are batched: a burst of writes costs one save, at most one per SAVE_INTERVAL_MS. */
  private scheduleSave(): void {
    this.dirty = true;
    if (this.saveTimer || this.saving || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.saveSoon();
    }, SAVE_INTERVAL_MS);
    this.saveTimer.unref();
  }

  /** Snapshots the database and writes it with asynchronous file calls; schedules another save if written meanwhile. */
  private async saveSoon(): Promise<void> {
    if (!this.dirty || this.closed) return;
    this.dirty = false;
    const data = this.snapshot();
    const tmp = `${this.file}.tmp`;
    this.saving = writeFile(tmp, data)
      .then(() => rename(tmp, this.file))
      .catch((error: unknown) => {
        // A full disk must not take the server down: keep serving from memory and try again with the next write.
        console.error('[channel-server] could not save the database:', error);
        this.dirty = true;
      })
      .finally(() => {
        this.saving = undefined;
        if (this.dirty) this.scheduleSave();
      });
    await this.saving;
  }

  /** The whole database as bytes, timed (the one part of a save that holds the event loop). */
  private snapshot(): Uint8Array {
    const started = performance.now();
    const data = this.db.export();
    this.snapshotTimes.push(performance.now() - started);
    if (this.snapshotTimes.length > 100) this.snapshotTimes.shift();
    return data;
  }

  /** Writes the whole database to disk now, blocking (start-up and shut-down only). */
  saveNow(): void {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    this.dirty = false;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, this.snapshot());
    renameSync(tmp, this.file);
  }

  /** Waits for a save on its way to disk, then saves what is left and closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await this.saving;
    this.saveNow();
    this.db.close();
  }
}
