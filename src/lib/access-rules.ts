/**
 * Who may watch what: the player's access decision, as pure rules over what an item and a viewer say. The player
 * decides with it (src/stores/commerce/access.ts re-exports it, over the contract's validated answers), and so does
 * the loader's early video (src/loader/early-video.ts, over the raw start-up answers, through the start rules in
 * start-rules.ts), so both decide alike. Imports only src/lib: the early video's module bundles it.
 */
import { navigationUrl } from './url-rules.js';

/** What the access rules read of an item (the player's `Playable`, or the loader's reading of a raw event). */
export interface AccessItem {
  kind: 'event' | 'vod' | 'clip';
  type: string;
  hasAccess: boolean;
  status: 'live' | 'upcoming' | 'finished';
  startsAt?: number | undefined;
  hasRecording: boolean;
  geoBlocked: boolean;
  media: readonly { type: string; url: string }[];
  /** A clip's display state and, while it is being made, its progress (0 to 100). */
  clipStatus?: 'pending' | 'done' | 'failed' | undefined;
  progress?: number | undefined;
}

/** What the access rules read of a signed-in viewer (the contract's `User`). */
export interface AccessViewer {
  is_geo_blocked?: boolean | null | undefined;
  capabilities: readonly string[];
}

/** The player's decision. */
export type Access =
  | { kind: 'geo-blocked' }
  | { kind: 'upcoming'; startsAt: number | undefined }
  | { kind: 'no-recording' }
  | { kind: 'sign-in' }
  | { kind: 'paywall' }
  | { kind: 'no-capability' }
  /** A signed-in account without the `watch` right, on anything but a free item or a clip. */
  | { kind: 'no-watch' }
  | { kind: 'unavailable' }
  | { kind: 'clip-pending'; progress: number | undefined }
  | { kind: 'clip-failed' }
  | { kind: 'play'; url: string; live: boolean }
  /**
   * No stream of the right kind, but an `embedded` page (an embeddable player of the stream): shown in a sandboxed
   * frame, under the same access rules. Absolute https only.
   */
  | { kind: 'embed'; url: string };

/**
 * The right that lets an account play what its sign-in and purchases unlock (sign-up items, what it bought or
 * subscribed to, the library beyond free items). Every account has it; a channel withdraws it to stop an account
 * watching without deleting it. Without it an account watches what a guest may: free items, and clips.
 */
export const WATCH_CAPABILITY = 'watch';

/**
 * Decides what the viewer gets. Order matters: region first (no stream request at all), then schedule, then
 * rights. Free plays for everyone; register needs a signed-in user; paid and ppv need access granted by the
 * server (`has_access`: an order, package or subscription). Anything but free items and clips needs the account's
 * `watch` right (no paywall then: buying would not help). Library items also need `vod_media_access` when they
 * are not free.
 */
export function decideAccess(item: AccessItem, user: AccessViewer | undefined, geoBlocked: boolean): Access {
  if (geoBlocked || item.geoBlocked || user?.is_geo_blocked) return { kind: 'geo-blocked' };
  if (item.clipStatus === 'pending') return { kind: 'clip-pending', progress: item.progress };
  if (item.clipStatus === 'failed') return { kind: 'clip-failed' };
  if (item.status === 'upcoming') return { kind: 'upcoming', startsAt: item.startsAt };
  if (item.status === 'finished' && !item.hasRecording) return { kind: 'no-recording' };
  const free = item.type === 'free';
  if (item.type === 'register' && !user) return { kind: 'sign-in' };
  if (user && !free && item.kind !== 'clip' && !hasCapability(user, WATCH_CAPABILITY)) return { kind: 'no-watch' };
  if (!free && item.type !== 'register' && !item.hasAccess) return { kind: 'paywall' };
  if (item.kind === 'vod' && !free && user && !hasCapability(user, 'vod_media_access') && !item.hasAccess) {
    return { kind: 'no-capability' };
  }
  const live = item.status === 'live';
  const stream = item.media.find((m) => m.type === (live ? 'live' : 'vod'));
  if (stream) return { kind: 'play', url: stream.url, live };
  // https only: an http page in a frame is blocked as mixed content on an https page, a blank frame.
  const embedded = navigationUrl(item.media.find((m) => m.type === 'embedded')?.url);
  return embedded?.startsWith('https:') ? { kind: 'embed', url: embedded } : { kind: 'unavailable' };
}

/** Capability check; `vod_media` and `vod_media_access` are the same right. */
export function hasCapability(user: AccessViewer | undefined, capability: string): boolean {
  if (!user) return false;
  const caps = new Set(user.capabilities);
  if (caps.has(capability)) return true;
  if (capability === 'vod_media_access') return caps.has('vod_media');
  if (capability === 'vod_media') return caps.has('vod_media_access');
  return false;
}
