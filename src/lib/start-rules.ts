/**
 * How a player starts what it may play, as pure rules: which engine plays a stream (the player's playback uses
 * `nativeEngine`), where an on-demand video resumes (its stage uses `resumeAt`), and `guestStart`, the one decision
 * the loader's early video (src/loader/early-video.ts) makes for a guest before the player's code comes. That decision
 * is made of the player's own rules only: access (access-rules.ts `decideAccess`), the engine and the resume position
 * (here), the preroll (preroll-rules.ts `pickPreroll`), so the early video starts exactly what the player would.
 * test/unit/loader/early-agreement.test.ts runs the player's access and preroll cases through both. Imports only src/lib:
 * the early video's module bundles it.
 */
import { decideAccess, type AccessItem } from './access-rules.js';
import type { EarlyChoice } from './early-video.js';
import { pickPreroll, type PrerollRule } from './preroll-rules.js';

/**
 * Whether the browser's own HLS engine plays a stream (else hls.js, through Media Source Extensions). It does wherever
 * it can, except live streams where hls.js can play them: Chromium's own engine keeps no seekable window for a live
 * stream, so there would be no pausing or seeking back (DVR). `prefer` overrides the choice where the browser can
 * follow it.
 */
export function nativeEngine(
  nativeHls: boolean,
  mse: boolean,
  prefer: 'native' | 'mse' | undefined,
  live: boolean,
): boolean {
  if (!nativeHls) return false;
  if (prefer) return prefer === 'native' || !mse;
  return !live || !mse;
}

/** Stored resume positions: item key to [seconds, saved at (ms)]. */
export type ResumePositions = Record<string, [number, number]>;

/** Whether a stored value is resume positions (anything else is read as none). */
export const isResumePositions = (value: unknown): value is ResumePositions =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).every(
    (entry) => Array.isArray(entry) && entry.length === 2 && entry.every((n) => typeof n === 'number' && n >= 0),
  );

/** Where `item` resumes in the stored `positions` (as stored, unchecked), if anywhere. */
export function resumeAt(positions: unknown, item: string): number | undefined {
  return isResumePositions(positions) && Object.prototype.hasOwnProperty.call(positions, item)
    ? positions[item]![0]
    : undefined;
}

/** The event a guest's player would start, as the player reads it. */
export interface StartEvent extends AccessItem {
  id: number;
  categoryId?: number | null | undefined;
  locationId?: number | null | undefined;
}

/** What a guest's player start depends on. */
export interface GuestStartFacts {
  /** The tag: `autoplay`, `muted` and the engine it asks for (`prefer-playback`). */
  autoplay: boolean;
  muted: boolean;
  prefer: 'native' | 'mse' | undefined;
  /** The browser: its own HLS engine, Media Source Extensions. */
  nativeHls: boolean;
  mse: boolean;
  event: StartEvent;
  /** The guest's region is blocked (the geo answer). */
  geoBlocked: boolean;
  /** The guest's stored resume positions, as stored. */
  positions: unknown;
  /** The prerolls a guest may be shown: none when the channel has them off. */
  prerolls: PrerollRule[];
  /** Whether this guest saw that preroll before this event within its suppression window. */
  suppressed(prerollId: number): boolean;
  /** The weighted draw, in [0, 1). */
  random: number;
}

/**
 * What a guest's autoplaying, muted player starts at once, by the player's own rules: the event's stream and the
 * preroll it plays first (or none), where the player would play the stream (access), in the browser's own engine,
 * from its beginning (no resume position); undefined where it would show or do anything else.
 */
export function guestStart(facts: GuestStartFacts): EarlyChoice | undefined {
  const { event } = facts;
  if (!facts.autoplay || !facts.muted) return undefined;
  const access = decideAccess(event, undefined, facts.geoBlocked);
  if (access.kind !== 'play') return undefined;
  if (!nativeEngine(facts.nativeHls, facts.mse, facts.prefer, access.live)) return undefined;
  // The stage resumes on-demand videos only, under the event's id.
  const eventId = String(event.id);
  if (!access.live && resumeAt(facts.positions, eventId) !== undefined) return undefined;
  const target = { eventId, live: access.live, locationId: event.locationId, categoryId: event.categoryId };
  return {
    stream: access.url,
    live: access.live,
    preroll: pickPreroll(facts.prerolls, target, false, facts.suppressed, facts.random),
  };
}
