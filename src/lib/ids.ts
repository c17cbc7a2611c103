/** Random ids: a UUID where the browser has `crypto.randomUUID` (everywhere current), else time plus randomness. */
import { env } from '../env.js';

/** A new random id (visitor ids, analytics views, idempotency keys). */
export function randomId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${env().now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
