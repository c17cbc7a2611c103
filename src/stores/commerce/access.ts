/**
 * Who may watch what: the player's decision from the event (or library item, or clip), the user's capabilities
 * and the geo-block flag. Pure functions; the offers that unlock a paywall are in offers.ts. The decision itself is
 * src/lib/access-rules.ts, which the loader's early video shares.
 */
import type { Clip } from '../../api/account-schemas.js';
import type { Event, EventMedia } from '../../api/channel-schemas.js';
import type { VodItem } from '../../api/vod-schemas.js';
import type { AccessItem } from '../../lib/access-rules.js';
import { safeUrl } from '../../lib/url.js';

/** What a player can play, normalised from an event, a library item or a clip (what the access rules read, and more). */
export interface Playable extends AccessItem {
  id: number;
  title: string;
  poster?: string | undefined;
  media: EventMedia[];
  categoryId?: number | null | undefined;
  locationId?: number | null | undefined;
  participantIds: number[];
  singlePackageId?: number | null | undefined;
  price?: number | null | undefined;
}

/** What a viewer is shown of a clip: being made (queued or processing), done (the spec's ready) or failed. */
export type ClipStatus = NonNullable<AccessItem['clipStatus']>;

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

// The decision, shared with the loader's early video.
export { decideAccess, hasCapability, WATCH_CAPABILITY, type Access } from '../../lib/access-rules.js';
