/**
 * Accounts and access: password hashing, bearer tokens, the user as the contract sends it, and who may watch what.
 *
 * - Passwords: scrypt (node:crypto) with a random 16-byte salt per password, stored as `scrypt$N$r$p$salt$hash`
 *   so the cost can be raised later without invalidating stored hashes.
 * - Hashing runs on libuv's thread pool (async `crypto.scrypt`), at most HASHES_AT_ONCE at a time: the pool's other
 *   threads stay free for the file reads that serve the bundle and pages, and past HASH_QUEUE waiting hashes a
 *   sign-in answers 503 instead of queueing without end. A burst of sign-ins stalls nothing else.
 * - Tokens: 32 random bytes (hex) handed to the client once; the database keeps only their SHA-256. A token lives
 *   TOKEN_TTL (30 days) after its last use (sliding: each use pushes the end out, written at most once a day), and
 *   ends at logout, at a password change (the other tokens) or reset (all of them). Nothing here logs a token or
 *   a password.
 * - Access (`has_access`): free events for everyone; `register` events for any signed-in user; paid, ppv (and
 *   unknown) types for a user with a paid, active order for the event, for a package covering its category (or a
 *   team pass for one of its teams), or an active subscription.
 */
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { HttpError } from '../http/http.js';

const SCRYPT = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

/** Hashes running at once: libuv's pool has 4 threads by default, and file reads need some of them. */
const HASHES_AT_ONCE = 2;
/** Hashes that may wait for a turn; past that, 503. */
const HASH_QUEUE = 200;
let hashing = 0;
const waiting: Array<() => void> = [];

/** Answered when too many hashes are already waiting (a flood of sign-ins). */
export const BUSY_MESSAGE = 'Too many sign-ins at once. Please try again in a moment.';

/** scrypt on the thread pool, as a promise, taking its turn among at most HASHES_AT_ONCE. */
async function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  if (hashing >= HASHES_AT_ONCE) {
    if (waiting.length >= HASH_QUEUE) throw new HttpError(503, BUSY_MESSAGE);
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  hashing++;
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
    );
  } finally {
    hashing--;
    waiting.shift()?.();
  }
}

const encodeHash = (salt: Buffer, hash: Buffer) =>
  `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;

/** A stored hash of a new password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return encodeHash(salt, await scryptAsync(password, salt, KEY_LENGTH, SCRYPT));
}

/** The same, blocking: only for seeding a fresh database before the server listens. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  return encodeHash(salt, scryptSync(password, salt, KEY_LENGTH, SCRYPT));
}

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** Checked for unknown emails too, so a login's timing does not tell which emails have accounts. */
let dummyHash: Promise<string> | undefined;

/** How long a token lives after its last use, in seconds (sliding). */
export const TOKEN_TTL = 30 * 86400;
/** A token's end is pushed out at most this often, so using it does not write to the database on every request. */
const TOKEN_REFRESH = 86400;

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The bearer token of an `Authorization: Bearer ...` header, if any. */
export function bearer(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

/**
 * The user a bearer token belongs to, in this channel; undefined for no, unknown or expired tokens. A token in use
 * lives on: its end moves to TOKEN_TTL from now (at most once a day).
 */
export async function userByToken(
  db: ChannelDb,
  channelId: number,
  token: string | undefined,
  now: number,
  nowMs = now * 1000,
): Promise<Row | undefined> {
  if (!token) return undefined;
  const hash = tokenHash(token);
  // The user, the token's end, and (users.payment_due_at) whether a payment of theirs fell due: routes.ts settles it.
  const row = await db.get(
    `SELECT u.*, t.expires_at AS token_expires_at FROM tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = ? AND u.channel_id = ? AND t.expires_at > ?`,
    [hash, channelId, now],
  );
  if (!row) return undefined;
  if (Number(row.token_expires_at) - now < TOKEN_TTL - TOKEN_REFRESH) {
    await db.run('UPDATE tokens SET last_used_at = ?, expires_at = ? WHERE token_hash = ?', [
      now,
      now + TOKEN_TTL,
      hash,
    ]);
  }
  delete row.token_expires_at;
  row.payment_due = row.payment_due_at !== null && Number(row.payment_due_at) <= nowMs;
  delete row.payment_due_at;
  return row;
}

/** The user of a channel with this email (any case), if any. */
export function userByEmail(db: ChannelDb, channelId: number, email: string): Promise<Row | undefined> {
  return db.get('SELECT * FROM users WHERE channel_id = ? AND lower(email) = lower(?)', [channelId, email.trim()]);
}

/** Sessions one account keeps at most; signing in once more ends the oldest. */
export const MAX_TOKENS_PER_USER = 20;

/** A new bearer token for a user: handed out once, stored only as its SHA-256. */
export async function issueToken(db: ChannelDb, userId: SqlValue, now: number): Promise<string> {
  const token = randomBytes(32).toString('hex');
  await db.run(
    'INSERT INTO tokens (token_hash, user_id, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    [tokenHash(token), userId, now, now, now + TOKEN_TTL],
  );
  await db.run(
    'DELETE FROM tokens WHERE user_id = ? AND id NOT IN (SELECT id FROM tokens WHERE user_id = ? ORDER BY id DESC LIMIT ?)',
    [userId, userId, MAX_TOKENS_PER_USER],
  );
  return token;
}

/**
 * Ends every way into an account but, optionally, one token: its sessions, its open emailed links, and device
 * codes linked to it whose TV has not collected its token yet (that TV would otherwise still get one later).
 */
export async function endSessions(db: ChannelDb, userId: SqlValue, keep?: string): Promise<void> {
  await db.run('DELETE FROM tokens WHERE user_id = ? AND token_hash <> ?', [userId, keep ? tokenHash(keep) : '']);
  await db.run('DELETE FROM user_links WHERE user_id = ?', [userId]);
  await db.run('DELETE FROM device_codes WHERE user_id = ? AND token_issued = 0', [userId]);
}

/** Signs in by email and password: a new token and the user, or undefined for a wrong email or password. */
export async function login(
  db: ChannelDb,
  channelId: number,
  email: string,
  password: string,
  now: number,
): Promise<{ token: string; user: Row } | undefined> {
  const found = await userByEmail(db, channelId, email);
  const stored = found?.password_hash
    ? String(found.password_hash)
    : await (dummyHash ??= hashPassword(randomBytes(8).toString('hex')));
  if (!(await verifyPassword(password, stored)) || !found) return undefined;
  // Read again after the hash: the account may have been deleted or its password changed meanwhile.
  const user = await db.get('SELECT * FROM users WHERE id = ?', [found.id!]);
  if (!user || user.password_hash !== found.password_hash) return undefined;
  return { token: await issueToken(db, user.id!, now), user };
}

/** What a new account starts with. */
export interface NewUser {
  email: string;
  /** Null for accounts that only sign in socially. */
  password: string | null;
  first_name?: string | null;
  last_name?: string | null;
  news?: boolean;
  provider?: string;
  /** When the email address was verified (social providers vouch for it), else null. */
  verifiedAt?: number | null;
  /** The language of the account's emails ('en' or 'fr'); null: the channel's. */
  language?: string | null;
}

/** Creates an account (with the `watch` right, like the seeded viewers) and answers its row; undefined if the email is taken. */
export async function createUser(
  db: ChannelDb,
  channelId: number,
  user: NewUser,
  now: number,
): Promise<Row | undefined> {
  const passwordHash = user.password === null ? null : await hashPassword(user.password);
  return insertUser(db, channelId, user, passwordHash, now);
}

/**
 * Creates an account whose password is hashed already (`createUser` hashes, then calls this): a caller that writes
 * more in the same transaction (the verification email) hashes first, so no transaction waits for scrypt.
 */
export async function insertUser(
  db: ChannelDb,
  channelId: number,
  user: Omit<NewUser, 'password'>,
  passwordHash: string | null,
  now: number,
): Promise<Row | undefined> {
  // The email may have been taken while the password was hashed (two registrations at once, in one process or
  // two): the unique index decides, and the second gets no account.
  return db.get(
    `INSERT INTO users (channel_id, email, password_hash, first_name, last_name, capabilities_json, news, provider,
       email_verified_at, language, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (channel_id, lower(email)) DO NOTHING RETURNING *`,
    [
      channelId,
      user.email,
      passwordHash,
      user.first_name ?? null,
      user.last_name ?? null,
      JSON.stringify([WATCH_CAPABILITY]),
      user.news ? 1 : 0,
      user.provider ?? 'email',
      user.verifiedAt ?? null,
      user.language ?? null,
      now,
      now,
    ],
  );
}

/**
 * Deletes an account and everything that is only its own: tokens, links, favourites, clips, orders, devices, saved
 * cards, setup intents, portal sessions and linked social identities, in one transaction. Answers the ids of the clips deleted, whose files
 * and running cuts the caller removes (clip-jobs.ts `remove`) once the rows are gone.
 */
export async function deleteUser(db: ChannelDb, userId: SqlValue): Promise<number[]> {
  const tables = [
    'tokens',
    'user_links',
    'favourites',
    'clips',
    'transactions',
    'orders',
    'device_codes',
    'payment_methods',
    'setup_intents',
    'portal_sessions',
    'social_identities',
  ];
  return db.transaction(async () => {
    // The user's row locked first: a request of theirs in flight (a clip being asked for) waits, or finishes before.
    await db.get('SELECT id FROM users WHERE id = ? FOR UPDATE', [userId]);
    const clips = await db.all('DELETE FROM clips WHERE user_id = ? RETURNING id', [userId]);
    for (const table of tables) await db.run(`DELETE FROM ${table} WHERE user_id = ?`, [userId]);
    await db.run('DELETE FROM users WHERE id = ?', [userId]);
    return clips.map((row) => Number(row.id));
  });
}

/** Forgets a token (sign-out); answers whether it existed. */
export async function logout(db: ChannelDb, token: string): Promise<boolean> {
  return (await db.run('DELETE FROM tokens WHERE token_hash = ?', [tokenHash(token)])) > 0;
}

export const capabilitiesOf = (user: Row): string[] => JSON.parse(String(user.capabilities_json ?? '[]')) as string[];

const featureCount = (user: Row) => ({
  clips: Number(user.clips_count ?? 0),
  downloads: Number(user.downloads_count ?? 0),
});

/** A user row as the contract's `User`. */
export function userJson(user: Row): Record<string, unknown> {
  return {
    id: Number(user.id),
    email: String(user.email),
    first_name: user.first_name ?? null,
    last_name: user.last_name ?? null,
    temporary_password: Boolean(user.temporary_password),
    gender: user.gender ?? null,
    capabilities: capabilitiesOf(user),
    trial_period_used: Boolean(user.trial_period_used),
    featureCount: featureCount(user),
    is_geo_blocked: Boolean(user.is_geo_blocked),
    email_verified: user.email_verified_at !== null && user.email_verified_at !== undefined,
    // Whether a password change must name the current one (accounts made by social sign-in have none).
    has_password: user.password_hash !== null && user.password_hash !== undefined,
    news: Boolean(user.news),
    provider: String(user.provider ?? 'email'),
  };
}

/** `GET user/access`. */
export const userAccessJson = (user: Row) => ({ capabilities: capabilitiesOf(user), featureCount: featureCount(user) });

/** What access depends on for one event. */
export interface AccessFacts {
  id: number;
  type: string;
  categoryId: number | null;
  participants: number[];
}

/**
 * The right that lets an account play what its sign-in and purchases unlock (a sign-up event, a paid event it
 * holds, a library item beyond the free ones). Every account gets it; a channel withdraws it to stop an account
 * watching (shared passwords, a chargeback) without deleting the account or its orders. Without it an account
 * watches what a guest may: free events and free library items.
 */
export const WATCH_CAPABILITY = 'watch';

/** A caller's rights, computed once per request (a few small queries for a signed-in user, none for a guest). */
export interface Access {
  user: Row | undefined;
  capabilities: Set<string>;
  subscription: boolean;
  /** Whether the caller's sign-in and purchases unlock an event (its pass, a package, a subscription), right or not. */
  entitled(event: AccessFacts): boolean;
  /** has_access of an event: free, or unlocked for an account with the `watch` right. */
  canWatch(event: AccessFacts): boolean;
  /** has_access of a library item (free, or with `watch`: register, or paid with vod_media_access or a subscription). */
  canWatchVod(type: string): boolean;
}

/** The rows of a tree table (categories, participants) and all their descendants, as ids. */
async function subtree(db: ChannelDb, table: 'categories' | 'participants', roots: SqlValue[]): Promise<number[]> {
  if (roots.length === 0) return [];
  const rows = await db.all(
    `WITH RECURSIVE tree(id) AS (SELECT id FROM ${table} WHERE id = ANY(?::bigint[])
     UNION SELECT c.id FROM ${table} c JOIN tree ON c.parent_id = tree.id) SELECT id FROM tree ORDER BY id`,
    [roots.map(Number)],
  );
  return rows.map((row) => Number(row.id));
}

/** A category and all its descendants, as ids. */
export const categoryTree = (db: ChannelDb, roots: SqlValue[]): Promise<number[]> => subtree(db, 'categories', roots);

/** Teams and all their own teams (children, at any depth), as ids: what a team's filter, favourite or pass covers. */
export const teamTree = (db: ChannelDb, roots: SqlValue[]): Promise<number[]> => subtree(db, 'participants', roots);

export async function accessFor(db: ChannelDb, user: Row | undefined, now: number): Promise<Access> {
  const events = new Set<number>();
  const categories = new Set<number>();
  const teams = new Set<number>();
  let subscription = false;
  if (user) {
    const orders = await db.all(
      `SELECT o.type, o.product_id, o.participant_id, p.is_team_pass FROM orders o
       LEFT JOIN packages p ON o.type = 'package' AND p.id = o.product_id
       WHERE o.user_id = ? AND o.status = 'paid' AND o.activity_status = 'active' AND (o.expires_at IS NULL OR o.expires_at > ?)`,
      [user.id!, now],
    );
    const packages: SqlValue[] = [];
    const passes: SqlValue[] = [];
    for (const order of orders) {
      if (order.type === 'subscription') subscription = true;
      else if (order.type === 'event') events.add(Number(order.product_id));
      else if (order.is_team_pass) {
        if (order.participant_id !== null) passes.push(order.participant_id!);
      } else packages.push(order.product_id!);
    }
    // A team pass covers the team's own teams too.
    for (const id of await teamTree(db, passes)) teams.add(id);
    if (packages.length) {
      const roots = await db.all('SELECT category_id FROM package_categories WHERE package_id = ANY(?::bigint[])', [
        packages.map(Number),
      ]);
      for (const id of await categoryTree(
        db,
        roots.map((r) => r.category_id!),
      ))
        categories.add(id);
    }
  }
  const capabilities = new Set(user ? capabilitiesOf(user) : []);
  const mayWatch = capabilities.has(WATCH_CAPABILITY);
  const entitled = (event: AccessFacts) => {
    if (event.type === 'free') return true;
    if (!user) return false;
    if (event.type === 'register') return true;
    return (
      subscription ||
      events.has(event.id) ||
      (event.categoryId !== null && categories.has(event.categoryId)) ||
      event.participants.some((p) => teams.has(p))
    );
  };
  return {
    user,
    capabilities,
    subscription,
    entitled,
    canWatch(event) {
      return event.type === 'free' || (mayWatch && entitled(event));
    },
    canWatchVod(type) {
      if (type === 'free') return true;
      if (!user || !mayWatch) return false;
      if (type === 'register') return true;
      return subscription || capabilities.has('vod_media_access') || capabilities.has('vod_media');
    },
  };
}
