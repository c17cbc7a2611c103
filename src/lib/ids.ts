/** Ids: the one pattern of API ids in attributes and paths, and random ids. */

/** An API id as attributes and paths carry it: digits only, at most 12 (`event-id`, `/watch/{id}`). */
export const ID_PATTERN = /^\d{1,12}$/;

/** A clip's share id, as share links and the player's `share` attribute carry it: a UUID. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new random id (visitor ids, analytics views, idempotency keys): a UUID where the browser has
 * `crypto.randomUUID` (everywhere current), else time plus randomness. */
export function randomId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
