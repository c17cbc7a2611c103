/**
 * Prerolls: which preroll plays before a video, and its suppression once played. Pure logic over the injected
 * storage; the player plays the chosen one.
 */
import type { Preroll } from '../api/contract.js';
import { env } from '../lib/env.js';
import { randomId } from '../lib/ids.js';

/** The preroll list is kept this long (the preroll cache: 1 h). */
export const PREROLL_CACHE_MS = 3_600_000;
/** Suppression after a preroll played, unless the channel sets another (default one hour). */
export const DEFAULT_SUPPRESSION_MINUTES = 60;

/** What a preroll is matched against. */
export interface PrerollTarget {
  eventId: number | string;
  live: boolean;
  locationId?: number | null | undefined;
  categoryId?: number | null | undefined;
}

/** Prerolls that fit: same location (or none set), same category (or none set), made for live or for VOD. */
export function matchingPrerolls(prerolls: Preroll[], target: PrerollTarget): Preroll[] {
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

/** Whether this preroll already played for this viewer and event, and its suppression has not expired. */
export function isSuppressed(viewer: string, eventId: number | string, prerollId: number): boolean {
  return env().storage.get(suppressionKey(viewer, eventId, prerollId), (v): v is true => v === true) === true;
}

/** Records that the preroll played: suppressed for `minutes` (default one hour). */
export function suppress(viewer: string, eventId: number | string, prerollId: number, minutes?: number): void {
  const lifetime = (minutes && minutes > 0 ? minutes : DEFAULT_SUPPRESSION_MINUTES) * 60_000;
  env().storage.set(suppressionKey(viewer, eventId, prerollId), true, lifetime);
}

/**
 * The preroll to play before a video, or none: none for viewers with `no_ads`, none when all matching ones are
 * suppressed for this viewer and event, else one of the rest by weight.
 */
export function choosePreroll(
  prerolls: Preroll[],
  target: PrerollTarget,
  viewer: { key: string; noAds: boolean },
  random: number = Math.random(),
): Preroll | undefined {
  if (viewer.noAds) return undefined;
  const open = matchingPrerolls(prerolls, target).filter((p) => !isSuppressed(viewer.key, target.eventId, p.id));
  return pickByWeight(open, random);
}

/** A stable id for a visitor who is not signed in, kept in storage. */
export function visitorId(): string {
  const stored = env().storage.get('visitor', (v): v is string => typeof v === 'string' && v.length > 0);
  if (stored) return stored;
  const id = randomId();
  env().storage.set('visitor', id);
  return id;
}
