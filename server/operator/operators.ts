/**
 * Operators and their tokens (migration OPERATORS): the people who run a channel through the operator API and the
 * command line. A token is shown once, when made; the database keeps its SHA-256 only, so a copy of the database
 * holds no usable token. A token is checked against the database on every request, so a revoked one is refused by
 * every process at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ChannelDb } from '../storage/db.js';

export const OPERATOR_ROLES = ['owner', 'editor'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** An operator as a request knows it once its token is checked. */
export interface Operator {
  id: number;
  channelId: number;
  channelKey: string;
  email: string;
  role: OperatorRole;
  tokenId: number;
}

/** Operator tokens start so, so a leaked one is recognised by secret scanners and in support requests. */
export const OPERATOR_TOKEN_PREFIX = 'chop_';

export const operatorTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new operator token (shown once) and its stored row id. */
export async function issueOperatorToken(
  db: ChannelDb,
  operatorId: number,
  nowMs: number,
  label: string | null = null,
): Promise<{ token: string; id: number }> {
  const token = OPERATOR_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const id = await db.insert(
    'INSERT INTO operator_tokens (token_hash, operator_id, label, created_at) VALUES (?, ?, ?, ?)',
    [operatorTokenHash(token), operatorId, label, nowMs],
  );
  return { token, id };
}

/**
 * Adds an operator to a channel with a first token. Throws OperatorExists when the email is already one of the
 * channel's operators.
 */
export async function addOperator(
  db: ChannelDb,
  channelId: number,
  email: string,
  role: OperatorRole,
  nowMs: number,
): Promise<{ id: number; token: string; tokenId: number }> {
  const existing = await db.get(
    'SELECT id FROM operators WHERE channel_id = ? AND lower(email) = lower(?) AND removed_at IS NULL',
    [channelId, email],
  );
  if (existing) throw new OperatorExists(email);
  const id = await db.insert('INSERT INTO operators (channel_id, email, role, created_at) VALUES (?, ?, ?, ?)', [
    channelId,
    email,
    role,
    nowMs,
  ]);
  const { token, id: tokenId } = await issueOperatorToken(db, id, nowMs);
  return { id, token, tokenId };
}

export class OperatorExists extends Error {
  constructor(email: string) {
    super(`${email} is already an operator of this channel`);
  }
}

/** The operator a bearer token belongs to; undefined for an unknown, revoked or removed one. */
export async function operatorByToken(db: ChannelDb, token: string): Promise<Operator | undefined> {
  if (!token.startsWith(OPERATOR_TOKEN_PREFIX)) return undefined;
  const row = await db.get(
    `SELECT o.id AS id, o.channel_id AS channel_id, c.channel_key AS channel_key, o.email AS email, o.role AS role,
       t.id AS token_id
     FROM operator_tokens t JOIN operators o ON o.id = t.operator_id JOIN channels c ON c.id = o.channel_id
     WHERE t.token_hash = ? AND t.revoked_at IS NULL AND o.removed_at IS NULL`,
    [operatorTokenHash(token)],
  );
  if (!row) return undefined;
  return {
    id: Number(row.id),
    channelId: Number(row.channel_id),
    channelKey: String(row.channel_key),
    email: String(row.email),
    role: String(row.role) as OperatorRole,
    tokenId: Number(row.token_id),
  };
}

/** Revokes one token (by id) of the channel's; false when it is not the channel's or already revoked. */
export async function revokeOperatorToken(
  db: ChannelDb,
  channelId: number,
  tokenId: number,
  nowMs: number,
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE operator_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL
       AND operator_id IN (SELECT id FROM operators WHERE channel_id = ?)`,
    [nowMs, tokenId, channelId],
  );
  return changed > 0;
}
