/**
 * Ids: the one pattern of API ids in attributes and paths, and partner slugs. UUIDs (share ids, random ids) are in
 * ./uuid.ts, which a schedule-only page does not load.
 */

/** An API id as attributes and paths carry it: digits only, at most 12 (`event-id`, `/watch/{id}`). */
export const ID_PATTERN = /^\d{1,12}$/;

/** The longest partner slug (`data-partner`, a `trk` used as one). */
export const PARTNER_MAX = 40;
/** A partner slug: lowercase letters and digits in words joined by single hyphens (`springfield-gazette`). */
export const PARTNER_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The partner slug a value names (trimmed, lowercased), or undefined when it is not one: anything else is ignored
 * rather than sent, so no free text (a name, an email, a URL with a token) reaches analytics or orders as a partner.
 */
export function partnerSlug(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const slug = value.trim().toLowerCase();
  return slug.length <= PARTNER_MAX && PARTNER_PATTERN.test(slug) ? slug : undefined;
}
