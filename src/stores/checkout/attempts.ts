/**
 * The attempt at buying one product, kept across reloads for an hour under `checkout.<channel>`: its
 * idempotency key (a retry or a reload sends the same key, so the server never makes a second order) and, once
 * bought, the pending order a reload resumes waiting for. A paid or failed order ends the attempt.
 */
import * as z from 'zod/mini';
import { PRODUCT_TYPES } from '../../api/account-schemas.js';
import { env } from '../../lib/env.js';
import { randomId } from '../../lib/uuid.js';
import { $config } from '../config.js';

/** How long a pending order is kept for a reload to resume (1 h). */
export const PENDING_TTL_MS = 3_600_000;

/** What a checkout keeps across reloads: the attempt's key and, once bought, the pending order. */
const StoredAttempt = z.object({
  key: z.string(),
  user: z.number(),
  product: z.object({
    type: z.enum(PRODUCT_TYPES),
    id: z.number(),
    name: z.optional(z.string()),
    participant: z.optional(z.number()),
    trial: z.optional(z.boolean()),
  }),
  order: z.optional(z.object({ id: z.number(), reference: z.optional(z.nullable(z.string())) })),
});
/** A stored attempt. */
export type StoredAttempt = z.infer<typeof StoredAttempt>;

const attemptKey = () => `checkout.${$config.get()?.channelKey ?? ''}`;

/** The stored attempt of this channel, if any is still valid (1 h). */
export function storedAttempt(): StoredAttempt | undefined {
  const parsed = StoredAttempt.safeParse(env().storage.get(attemptKey()));
  return parsed.success ? parsed.data : undefined;
}

/** Keeps the attempt (now with its order), or forgets it. */
export function storeAttempt(attempt: StoredAttempt | undefined): void {
  if (attempt) env().storage.set(attemptKey(), attempt, PENDING_TTL_MS);
  else env().storage.remove(attemptKey());
}

const sameProduct = (a: StoredAttempt['product'], b: StoredAttempt['product']) =>
  a.type === b.type && a.id === b.id && (a.participant ?? 0) === (b.participant ?? 0);

/**
 * The idempotency key of this attempt at buying `product`: the stored one while the attempt lasts (retries and
 * reloads send the same key), a new one for another product, user or after the attempt ended.
 */
export function attemptFor(product: StoredAttempt['product'], user: number): StoredAttempt {
  const stored = storedAttempt();
  if (stored && stored.user === user && sameProduct(stored.product, product)) return stored;
  const fresh: StoredAttempt = { key: randomId(), user, product };
  storeAttempt(fresh);
  return fresh;
}

/** Ends the attempt (paid, or failed: the next try gets a new key). */
export function endAttempt(): void {
  storeAttempt(undefined);
}
