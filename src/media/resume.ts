/**
 * Resume: where a viewer left each on-demand video, so playing it again starts there. Kept in local storage per
 * channel and viewer (`rudy_resume.{channel}.{user id | guest}`), the newest RESUME_MAX_ITEMS items, each for
 * RESUME_LIFETIME_MS. Videos shorter than RESUME_MIN_DURATION_S (short clips) are not resumed, nor a position in
 * the first RESUME_MIN_POSITION_S or the last RESUME_END_MARGIN_S (a video watched to its end starts over).
 */
import { env } from '../lib/env.js';
import { resumeStorageKey } from '../lib/api-paths.js';
import { isResumePositions, resumeAt, type ResumePositions } from '../lib/start-rules.js';

export const RESUME_MIN_DURATION_S = 60;
export const RESUME_MIN_POSITION_S = 5;
export const RESUME_END_MARGIN_S = 10;
export const RESUME_MAX_ITEMS = 50;
export const RESUME_LIFETIME_MS = 30 * 24 * 3600 * 1000;

/** Whose positions: the signed-in user's, or this browser's guest's. */
export interface ResumeViewer {
  channel: string;
  userId?: number | undefined;
}

const storageKey = (viewer: ResumeViewer) => resumeStorageKey(viewer.channel, viewer.userId);

const read = (viewer: ResumeViewer): ResumePositions => env().storage.get(storageKey(viewer), isResumePositions) ?? {};

/** Where to resume `item`, if anywhere (the rule the loader's early video reads too: src/lib/start-rules.ts). */
export function resumePosition(viewer: ResumeViewer, item: string): number | undefined {
  return resumeAt(read(viewer), item);
}

/**
 * Records the position of `item` (a video of `duration` seconds): kept when it is worth resuming, else forgotten
 * (the start, the end, a short video).
 */
export function saveResume(viewer: ResumeViewer, item: string, time: number, duration: number): void {
  if (!Number.isFinite(duration) || duration < RESUME_MIN_DURATION_S || !Number.isFinite(time)) return;
  const positions = read(viewer);
  const worth = time >= RESUME_MIN_POSITION_S && time <= duration - RESUME_END_MARGIN_S;
  if (!worth) {
    if (!(item in positions)) return;
    delete positions[item];
  } else {
    positions[item] = [Math.round(time * 10) / 10, env().now()];
  }
  // The newest RESUME_MAX_ITEMS only.
  const kept = Object.entries(positions)
    .sort((a, b) => b[1][1] - a[1][1])
    .slice(0, RESUME_MAX_ITEMS);
  env().storage.set(storageKey(viewer), Object.fromEntries(kept), RESUME_LIFETIME_MS);
}

/** Forgets `item` (the viewer chose Start over, or watched it to the end). */
export function forgetResume(viewer: ResumeViewer, item: string): void {
  const positions = read(viewer);
  if (!(item in positions)) return;
  delete positions[item];
  env().storage.set(storageKey(viewer), positions, RESUME_LIFETIME_MS);
}
