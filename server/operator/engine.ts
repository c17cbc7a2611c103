/**
 * What every operator API route shares (operator-api.ts): its errors (`{ error, message, errors?, etag? }`), a zod
 * failure as a 422 naming every field, ETags and `If-Match`, `Idempotency-Key` replays (operator_idempotency), the
 * audit log (operator_audit, written in the change's own transaction) and paginated lists.
 */
import { createHash } from 'node:crypto';
import type * as z from 'zod';
import type { ChannelDb } from '../storage/db.js';
import type { Operator } from './operators.js';
import type { ErrorAnswer } from './schemas.js';

/** An answer other than 2xx: its status and body. */
export class OperatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorAnswer['error'],
    message: string,
    readonly extra: { errors?: Record<string, string>; etag?: string } = {},
  ) {
    super(message);
  }
}

export const INVALID_MESSAGE = 'The request is invalid: see errors, by field.';

/** A 422 naming fields. */
export const invalid = (errors: Record<string, string>) =>
  new OperatorError(422, 'invalid', INVALID_MESSAGE, { errors });

export const notFound = (what: string) => new OperatorError(404, 'not_found', `No such ${what} in this channel.`);

/** Every problem of a zod failure by its field's dotted path; unknown fields are named too. */
export function fieldErrors(error: z.ZodError, prefix = ''): Record<string, string> {
  const errors: Record<string, string> = {};
  const put = (path: string, message: string) => {
    const field = prefix + path || prefix.replace(/\.$/, '') || 'body';
    errors[field] = errors[field] ? `${errors[field]}; ${message}` : message;
  };
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) put(path ? `${path}.${key}` : key, 'is not a field of this request');
    } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
      put(path, 'is required');
    } else put(path, issue.message);
  }
  return errors;
}

/** Parses a body with a schema (unknown fields refused), or throws the 422 naming every field. */
export function parseBody<T extends z.ZodObject>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.strict().safeParse(body);
  if (!parsed.success) throw invalid(fieldErrors(parsed.error));
  return parsed.data as z.infer<T>;
}

/**
 * A record's ETag: a strong validator, the hash of its stored fields' JSON. An event's `status` is left out, but for
 * whether it is cancelled (stored, cancelled_at): upcoming, live and finished follow the clock, and an ETag that
 * changed when an event went live with no edit would refuse the next If-Match.
 */
export function etagOf(record: unknown): string {
  let stored = record;
  if (record !== null && typeof record === 'object' && 'status' in record) {
    const { status, ...rest } = record as Record<string, unknown>;
    stored = { ...rest, cancelled: status === 'cancelled' };
  }
  return `"${createHash('sha256').update(JSON.stringify(stored)).digest('base64url').slice(0, 27)}"`;
}

/**
 * Checks `If-Match` (absent: no check; `*`: any) against the record's current ETag; a stale one is a 409 carrying
 * the current one.
 */
export function checkIfMatch(ifMatch: string | undefined, record: unknown): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const current = etagOf(record);
  const given = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!given.includes(current))
    throw new OperatorError(
      409,
      'conflict',
      'The record changed since you read it (If-Match is stale): read it again, then retry with its ETag.',
      { etag: current },
    );
}

/** One audit entry, in the caller's transaction. A secret's value is never given here: only that it was set. */
export async function audit(
  db: ChannelDb,
  entry: {
    channelId: number;
    operator: Operator | undefined;
    at: number;
    action: string;
    resource: string;
    recordId: number | string | null;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await db.run(
    `INSERT INTO operator_audit (channel_id, operator_id, actor, at, action, resource, record_id, before_json, after_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      entry.channelId,
      entry.operator?.id ?? null,
      entry.operator?.email ?? 'command line',
      entry.at,
      entry.action,
      entry.resource,
      entry.recordId === null ? null : String(entry.recordId),
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
    ],
  );
}

/** How long an Idempotency-Key's answer is kept (ms). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** A create's answer, as stored for a replay. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Runs a create under an Idempotency-Key: the same key and body again answer what the first one did (no second
 * record); the same key with another body is a 422. The answer is stored in the create's own transaction, so a
 * create and its record of it commit together. Two requests with one key at once: the second waits on the first's
 * row (the primary key) and, once it committed, replays it. A replay says so (`Idempotency-Replayed: true`); a token
 * in the first answer is not kept (the database holds no usable token), so a replay's is null.
 */
export async function idempotent(
  db: ChannelDb,
  operator: Operator,
  key: string | undefined,
  request: string,
  nowMs: number,
  create: () => Promise<Answer>,
): Promise<Answer & { replayed?: boolean }> {
  if (key === undefined) return db.transaction(create);
  if (key === '' || key.length > 200)
    throw invalid({ 'Idempotency-Key': 'must be 1 to 200 characters (a UUID is best)' });
  const hash = createHash('sha256').update(request).digest('hex');
  const stored = async () => {
    const row = await db.get(
      'SELECT request_hash, status, answer_json FROM operator_idempotency WHERE operator_id = ? AND key = ?',
      [operator.id, key],
    );
    if (!row) return undefined;
    if (String(row.request_hash) !== hash)
      throw new OperatorError(
        422,
        'idempotency_mismatch',
        'This Idempotency-Key was used with another request: use a new key for a new request.',
        { errors: { 'Idempotency-Key': 'was used with another request' } },
      );
    const answer = JSON.parse(String(row.answer_json)) as Answer;
    return {
      ...answer,
      status: Number(row.status),
      headers: { ...answer.headers, 'Idempotency-Replayed': 'true' },
      replayed: true,
    };
  };
  const known = await stored();
  if (known) return known;
  try {
    return await db.transaction(async () => {
      // The key is taken first: a second request with it waits here until this one commits or rolls back.
      await db.run(
        `INSERT INTO operator_idempotency (operator_id, key, request_hash, status, answer_json, created_at)
         VALUES (?, ?, ?, 0, '{}', ?)`,
        [operator.id, key, hash, nowMs],
      );
      const answer = await create();
      // A token is shown once: the stored answer has none (a replay answers `token: null`).
      await db.run('UPDATE operator_idempotency SET status = ?, answer_json = ? WHERE operator_id = ? AND key = ?', [
        answer.status,
        JSON.stringify(answer, (name, value: unknown) => (name === 'token' ? null : value)),
        operator.id,
        key,
      ]);
      return answer;
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === '23505') {
      const replay = await stored();
      if (replay) return replay;
    }
    throw error;
  }
}

/** Forgets the answers of keys older than IDEMPOTENCY_TTL_MS. */
export async function pruneIdempotency(db: ChannelDb, nowMs: number): Promise<void> {
  await db.run('DELETE FROM operator_idempotency WHERE created_at < ?', [nowMs - IDEMPOTENCY_TTL_MS]);
}

/** `offset` and `limit` of a list (limit 1 to 500, default 50). */
export function pageOf(query: URLSearchParams): { offset: number; limit: number } {
  const errors: Record<string, string> = {};
  const read = (name: string, fallback: number, max: number, min: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= min && n <= max)) errors[name] = `must be a whole number from ${min} to ${max}`;
    return n;
  };
  const page = { offset: read('offset', 0, Number.MAX_SAFE_INTEGER, 0), limit: read('limit', 50, 500, 1) };
  if (Object.keys(errors).length) throw invalid(errors);
  return page;
}

/** ms since the epoch as ISO 8601 (null stays null). */
export const isoOfMs = (ms: unknown): string | null =>
  ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
