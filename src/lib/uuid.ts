/** UUIDs: a clip's share id, and new random ids. Apart from ./ids.ts: only the player, the site and the checkout use them. */

/** A clip's share id, as share links and the player's `share` attribute carry it: a UUID. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new random id (visitor ids, analytics views, idempotency keys): a UUID where the browser has
 * `crypto.randomUUID` (everywhere current), else time plus randomness. */
export function randomId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
