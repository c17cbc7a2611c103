/**
 * Who may watch what (spec sections 3, 4 and 6): the player's decision from the event (or library item), the
 * user's capabilities and the geo-block flag, and the offers that would unlock a paid event. Pure functions.
 */
import type { Event, EventMedia, Package, Subscription, User, VodItem } from '../api/contract.js';

/** What a player can play, normalised from an event or a library item. */
export interface Playable {
  kind: 'event' | 'vod';
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
    poster: event.media.find((m) => m.type === 'image')?.url ?? event.image ?? undefined,
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
    poster: item.assets.find((a) => a.type === 'image')?.path,
    media: item.media,
    categoryId: item.event_category_id,
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
  | { kind: 'unavailable' }
  | { kind: 'play'; url: string; live: boolean };

/**
 * Decides what the viewer gets. Order matters: region first (no stream request at all), then schedule, then
 * rights. Free plays for everyone; register needs a signed-in user; paid and ppv need access granted by the
 * server (`has_access`: an order, package or subscription). Library items also need `vod_media_access` when
 * they are not free.
 */
export function decideAccess(item: Playable, user: User | undefined, geoBlocked: boolean): Access {
  if (geoBlocked || item.geoBlocked || user?.is_geo_blocked) return { kind: 'geo-blocked' };
  if (item.status === 'upcoming') return { kind: 'upcoming', startsAt: item.startsAt };
  if (item.status === 'finished' && !item.hasRecording) return { kind: 'no-recording' };
  const free = item.type === 'free';
  if (item.type === 'register' && !user) return { kind: 'sign-in' };
  if (!free && item.type !== 'register' && !item.hasAccess) return { kind: 'paywall' };
  if (item.kind === 'vod' && !free && user && !hasCapability(user, 'vod_media_access') && !item.hasAccess) {
    return { kind: 'no-capability' };
  }
  const live = item.status === 'live';
  const stream = item.media.find((m) => m.type === (live ? 'live' : 'vod'));
  return stream ? { kind: 'play', url: stream.url, live } : { kind: 'unavailable' };
}

/** Capability check; `vod_media` and `vod_media_access` are the same right (spec section 3). */
export function hasCapability(user: User | undefined, capability: string): boolean {
  if (!user) return false;
  const caps = new Set(user.capabilities);
  if (caps.has(capability)) return true;
  if (capability === 'vod_media_access') return caps.has('vod_media');
  if (capability === 'vod_media') return caps.has('vod_media_access');
  return false;
}

/** One way to unlock an event, as the paywall lists it. */
export type Offer =
  | { type: 'event'; id: number; packageId: number; name: string; price: number }
  | { type: 'package'; id: number; name: string; price: number; teamPass: boolean; participantIds: number[] }
  | { type: 'subscription'; id: number; name: string; price: number; period: 'monthly' | 'annual'; trialDays: number };

/**
 * The offers that unlock `item`: its single-event pass, the category or team packages that cover it, and the
 * subscriptions (which cover every paid event). Each kind sorted by weight, then price.
 */
export function offersFor(item: Playable, packages: Package[], subscriptions: Subscription[]): Offer[] {
  const out: Offer[] = [];
  const byWeight = <T extends { weight: number; price: number }>(a: T, b: T) => a.weight - b.weight || a.price - b.price;
  if (item.kind === 'event') {
    const single = packages.find((p) => p.id === item.singlePackageId) ?? undefined;
    if (item.singlePackageId && (single || item.price)) {
      out.push({
        type: 'event',
        id: item.id,
        packageId: item.singlePackageId,
        name: single?.name ?? item.title,
        price: item.price ?? single?.price ?? 0,
      });
    }
  }
  const covering = packages
    .filter((p) => p.type !== 'single' && p.id !== item.singlePackageId)
    .filter((p) => {
      const inCategory = item.categoryId !== null && item.categoryId !== undefined && p.event_categories.includes(item.categoryId);
      if (!p.is_team_pass) return inCategory;
      const teams = p.participants.filter((id) => item.participantIds.includes(id));
      return teams.length > 0 || (inCategory && p.participants.length === 0);
    })
    .sort(byWeight);
  for (const p of covering) {
    out.push({
      type: 'package',
      id: p.id,
      name: p.name,
      price: p.price,
      teamPass: p.is_team_pass,
      participantIds: p.is_team_pass
        ? p.participants.length
          ? p.participants.filter((id) => item.participantIds.includes(id))
          : item.participantIds
        : [],
    });
  }
  for (const s of [...subscriptions].sort(byWeight)) {
    out.push({
      type: 'subscription',
      id: s.id,
      name: s.name,
      price: s.price,
      period: /annual|year/i.test(`${s.offer} ${s.period ?? ''}`) ? 'annual' : 'monthly',
      trialDays: s.trial_period && s.trial_period > 0 ? s.trial_period : 0,
    });
  }
  return out;
}
