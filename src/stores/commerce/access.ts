/**
 * Who may watch what: the player's decision from the event (or library item, or clip), the user's capabilities
 * and the geo-block flag. Pure functions; the offers that unlock a paywall are in offers.ts.
 */
import type { Clip, Event, EventMedia, User, VodItem } from '../../api/contract.js';
import { safeUrl } from '../../lib/url.js';
import { navigationUrl } from '../../lib/url-rules.js';

/** What a player can play, normalised from an event, a library item or a clip. */
export interface Playable {
  kind: 'event' | 'vod' | 'clip';
  id: number;
  title: string;
  type: string;
  hasAccess: boolean;
  status: 'live' | 'upcoming' | 'finished';
  startsAt?: number | undefined;
  hasRecording: boolean;
  geoBlocked: boolean;
  poster?: string | undefined;
  media: EventMedia[];
  categoryId?: number | null | undefined;
  locationId?: number | null | undefined;
  participantIds: number[];
  singlePackageId?: number | null | undefined;
  price?: number | null | undefined;
  /** A clip's display state and, while it is being made, its progress (0 to 100). */
  clipStatus?: ClipStatus | undefined;
  progress?: number | undefined;
}

/** What a viewer is shown of a clip: being made (queued or processing), done (the spec's ready) or failed. */
export type ClipStatus = 'pending' | 'done' | 'failed';

/** A clip's display state; `ready` is `done` (some back ends say so), anything unknown is still being made. */
export function clipStatus(clip: Pick<Clip, 'status'>): ClipStatus {
  const status = clip.status.toLowerCase();
  if (status === 'done' || status === 'ready') return 'done';
  if (status === 'failed' || status === 'error') return 'failed';
  return 'pending';
}

/** An event as a playable. */
export function fromEvent(event: Event, title: string): Playable {
  return {
    kind: 'event',
    id: event.id,
    title,
    type: event.type,
    hasAccess: event.has_access,
    status: event.stream_status,
    startsAt: event.event_utc_ts,
    hasRecording: event.has_recording,
    geoBlocked: Boolean(event.is_geo_blocked),
    poster: safeUrl(event.media.find((m) => m.type === 'image')?.url ?? event.image),
    media: event.media,
    categoryId: event.event_category_id,
    locationId: event.location_id,
    participantIds: event.participants.map((p) => p.id),
    singlePackageId: event.single_event_package_id,
    price: event.price,
  };
}

/** A library item as a playable (always on demand). */
export function fromVod(item: VodItem): Playable {
  return {
    kind: 'vod',
    id: item.id,
    title: item.title,
    type: item.type,
    hasAccess: item.has_access,
    status: 'finished',
    hasRecording: true,
    geoBlocked: false,
    poster: safeUrl(item.assets.find((a) => a.type === 'image')?.path),
    media: item.media,
    categoryId: item.event_category_id,
    participantIds: [],
  };
}

/**
 * A clip as a playable: anyone with its link may watch it (the server lists its stream only for them), so it is
 * free; it plays its `vod` stream once done.
 */
export function fromClip(clip: Clip): Playable {
  return {
    kind: 'clip',
    id: clip.id,
    title: clip.name,
    type: 'free',
    hasAccess: true,
    status: 'finished',
    hasRecording: true,
    geoBlocked: false,
    poster: safeUrl(clip.media.find((m) => m.type === 'image')?.url ?? clip.event?.image),
    media: clip.media,
    participantIds: [],
    clipStatus: clipStatus(clip),
    progress: clip.progress ?? undefined,
  };
}

/** A user's own clip asked for by a guest: nothing is known but that it needs a sign-in. */
export function signInForClip(id: number): Playable {
  return {
    kind: 'clip',
    id,
    title: '',
    type: 'register',
    hasAccess: false,
    status: 'finished',
    hasRecording: true,
    geoBlocked: false,
    media: [],
    participantIds: [],
  };
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
export function decideAccess(item: Playable, user: User | undefined, geoBlocked: boolean): Access {
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
export function hasCapability(user: User | undefined, capability: string): boolean {
  if (!user) return false;
  const caps = new Set(user.capabilities);
  if (caps.has(capability)) return true;
  if (capability === 'vod_media_access') return caps.has('vod_media');
  if (capability === 'vod_media') return caps.has('vod_media_access');
  return false;
}
