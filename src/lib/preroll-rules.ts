/**
 * The preroll rules, shared by the player (src/media/prerolls.ts, over its validated answers and its storage) and
 * the loader's early video (src/loader/early-video.ts, over the raw start-up answers), so that both choose alike:
 * which prerolls fit an item, which are suppressed for a viewer, and one of the rest by weight.
 * Dependency-free (the loader's early video bundles it).
 */

/** What the rules read of a preroll (the contract's `Preroll`, or the loader's reading of a raw answer). */
export interface PrerollRule {
  id: number;
  url: string;
  weight: number;
  location_id?: number | null | undefined;
  event_categories: number[];
  for_vod: boolean;
  for_live: boolean;
}

/** What a preroll is matched against. */
export interface PrerollTarget {
  eventId: number | string;
  live: boolean;
  locationId?: number | null | undefined;
  categoryId?: number | null | undefined;
}

/** Suppression after a preroll played, unless the channel sets another (default one hour). */
export const DEFAULT_SUPPRESSION_MINUTES = 60;

/** Prerolls that fit: same location (or none set), same category (or none set), made for live or for VOD. */
export function matchingPrerolls<T extends PrerollRule>(prerolls: T[], target: PrerollTarget): T[] {
  return prerolls.filter(
    (p) =>
      (target.live ? p.for_live : p.for_vod) &&
      p.weight > 0 &&
      (p.location_id === null || p.location_id === undefined || p.location_id === target.locationId) &&
      (p.event_categories.length === 0 ||
        (target.categoryId !== null &&
          target.categoryId !== undefined &&
          p.event_categories.includes(target.categoryId))),
  );
}

/** Picks one of `candidates` with probability proportional to its weight; `random` is in [0, 1). */
export function pickByWeight<T extends { weight: number }>(candidates: T[], random: number): T | undefined {
  const total = candidates.reduce((sum, c) => sum + Math.max(0, c.weight), 0);
  if (total <= 0) return undefined;
  let point = random * total;
  for (const c of candidates) {
    point -= Math.max(0, c.weight);
    if (point < 0) return c;
  }
  return candidates[candidates.length - 1];
}

/** The storage key of one suppression: per viewer (user id or visitor id), event and preroll. */
export const suppressionKey = (viewer: string, eventId: number | string, prerollId: number) =>
  `preroll.${viewer}.${eventId}.${prerollId}`;

/** The storage key of a guest's visitor id (the viewer of a guest's suppressions is `visitor-{id}`). */
export const VISITOR_KEY = 'visitor';

/**
 * The one choice of a preroll before an item, or none: none for viewers who may skip ads (`noAds`), none when every
 * fitting preroll is `suppressed` for this viewer and item, else one of the rest by weight (`random` in [0, 1)).
 */
export function pickPreroll<T extends PrerollRule>(
  prerolls: T[],
  target: PrerollTarget,
  noAds: boolean,
  suppressed: (prerollId: number) => boolean,
  random: number,
): T | undefined {
  if (noAds) return undefined;
  return pickByWeight(
    matchingPrerolls(prerolls, target).filter((p) => !suppressed(p.id)),
    random,
  );
}
