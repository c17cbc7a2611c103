/**
 * Prerolls: which preroll plays before a video, and its suppression once played. Pure logic over the injected
 * storage; the player plays the chosen one.
 */
import type { Preroll } from '../api/preroll-schemas.js';
import { env } from '../lib/env.js';
import { randomId } from '../lib/uuid.js';
import {
  DEFAULT_SUPPRESSION_MINUTES,
  pickPreroll,
  suppressionKey,
  VISITOR_KEY,
  type PrerollTarget,
} from '../lib/preroll-rules.js';

// The rules themselves are shared with the loader's early video (src/lib/preroll-rules.ts).
export {
  DEFAULT_SUPPRESSION_MINUTES,
  matchingPrerolls,
  pickByWeight,
  suppressionKey,
  type PrerollTarget,
} from '../lib/preroll-rules.js';

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
  return pickPreroll(prerolls, target, viewer.noAds, (id) => isSuppressed(viewer.key, target.eventId, id), random);
}

/** A stable id for a visitor who is not signed in, kept in storage. */
export function visitorId(): string {
  const stored = env().storage.get(VISITOR_KEY, (v): v is string => typeof v === 'string' && v.length > 0);
  if (stored) return stored;
  const id = randomId();
  env().storage.set(VISITOR_KEY, id);
  return id;
}
