/**
 * One player's state: what it plays (an event, a library item or a clip), the access decision, the offers of its
 * paywall, the preroll, and the re-checks of an upcoming event. Each player view owns one. It follows the shared
 * stores, never DOM events: a change of the user (a sign-in or sign-out here or in another tab) or of the
 * entitlements (a purchase, or one the host page reports) reloads the item once, so the player unlocks without a
 * page reload. It also renews a refused stream URL: signed stream URLs are bound
 * to the client address they were handed to and expire after 2 hours, so a stream refused mid-play gets one
 * freshly signed URL (a quiet reload of the item) before the viewer is told access was refused.
 */
import { atom, type ReadableAtom } from 'nanostores';
import { channelApi, type Event, type User } from '../api/channel-schemas.js';
import { vodApi, type VodItem } from '../api/vod-schemas.js';
import { prerollOptionsOf, prerollsOf, type Preroll } from '../api/preroll-schemas.js';
import type { PrerollRule } from '../lib/preroll-rules.js';
import { accountApi, type Clip } from '../api/account-schemas.js';
import { ApiError, HttpError, isCancel } from '../api/errors.js';
import { loadChunk } from '../lib/chunks.js';
import { env } from '../lib/env.js';
import { downloadUrl, mediaOrigins } from '../lib/url-rules.js';
import { IDLE, LOADING, failed, ready, type Async } from '../lib/async.js';
import {
  decideAccess,
  fromClip,
  fromEvent,
  fromVod,
  signInForClip,
  type Access,
  type Playable,
} from './commerce/access.js';
import { offersFor, type Offer } from './commerce/offers.js';
import { renewalPolicy, type Refusal, type RenewalPolicy } from '../media/renewal.js';
import { choosePreroll, suppress, visitorId } from '../media/prerolls.js';
import type { ResumeViewer } from '../media/resume.js';
import { $entitlementsVersion } from './commerce/entitlements.js';
import { $config } from './config.js';
import { holdAnalytics } from './analytics/gate.js';
import { videoDetails, videoReporting, type VideoDetails } from './analytics/video.js';
import type { VideoReporting } from '../media/analytics.js';
import { $geoBlocked, $settings, $user, getClient, identified, startSession } from './session.js';
import { reloadUserAccess } from './sign-in.js';

/**
 * Re-checks of an upcoming event: one at its start time, then every RECHECK_MS RECHECKS times, then every
 * RECHECK_SLOW_MS for as long as it is shown (a live ingest event is upcoming until its encoder pushes, however late).
 */
export const RECHECK_MS = 10_000;
export const RECHECKS = 30;
export const RECHECK_SLOW_MS = 60_000;
/** Longest single wait before an upcoming event's start (timers cannot wait for days; we look again). */
export const MAX_WAIT_MS = 3_600_000;

/** What a player shows. */
export type PlayerState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; error: ApiError }
  | {
      status: 'ready';
      item: Playable;
      event?: Event | undefined;
      /** The clip played (its name, event and tags show under the player). */
      clip?: Clip | undefined;
      access: Access;
      /** The paywall's offers (idle unless the access decision is a paywall). */
      offers: Async<Offer[], ApiError>;
    };

/**
 * Which item to play. A clip with its `uuid` (its share link) plays for anyone through `shared-clip`; without, it
 * is one of the signed-in user's own clips.
 */
export type PlayerTarget =
  { kind: 'event'; id: string } | { kind: 'vod'; id: string } | { kind: 'clip'; id: string; uuid?: string | undefined };

/** A player's store and actions. */
export interface PlayerStore {
  $state: ReadableAtom<PlayerState>;
  setTarget(target: PlayerTarget | undefined): void;
  /** Loads the item again (access may have changed). */
  refresh(): void;
  /**
   * Loads the item again for a freshly signed stream URL (a stale one can never recover); resolves with the URL
   * it now plays (possibly the same), or undefined when the reload failed or the item no longer plays.
   */
  reloadStream(): Promise<string | undefined>;
  /**
   * The stream was refused (401/403): `reloadStream` when `renewalPolicy` says the grant may be stale, resolving
   * with a new URL (undefined when there is none: the refusal stands); false when the refusal stands at once.
   */
  renewStream(refusal: Refusal): Promise<string | undefined> | false;
  /**
   * The preroll to play before the main video now, if any (and records it as played). `early`: the choice of the
   * loader's early video (src/loader/early-video.ts), made by the same rules: the preroll it plays already, or null
   * when it chose none. That is the one choice, never a second, wherever this viewer may be shown a preroll at all.
   */
  takePreroll(early?: PrerollRule | null): Promise<Preroll | undefined>;
  /** Where video analytics report for the channel and the viewer (read at the first frame); undefined unconfigured. */
  analytics(): VideoReporting | undefined;
  /**
   * The stage has shown its first frame, or will not without the viewer (no autoplay, an error): analytics, held
   * while the player starts so they never compete with its first frame, may run.
   */
  playbackSettled(): void;
  /** Asks for the download URL of the finished event, then reloads the user's access. */
  download(): Promise<string>;
  /** Whose resume positions this player reads and keeps: the channel and the signed-in user (or the guest). */
  resumeViewer(): ResumeViewer | undefined;
  destroy(): void;
}

/** Creates one player's store. */
export function createPlayer(): PlayerStore {
  const $state = atom<PlayerState>({ status: 'idle' });
  // Analytics wait while this player starts: until its first frame, or until it shows something else than a stream.
  let releaseAnalytics: (() => void) | undefined = holdAnalytics();
  const settle = () => {
    releaseAnalytics?.();
    releaseAnalytics = undefined;
  };
  const unsettle = $state.listen((state) => {
    if (state.status === 'error' || (state.status === 'ready' && state.access.kind !== 'play')) settle();
  });
  let target: PlayerTarget | undefined;
  let controller: AbortController | undefined;
  let timer: unknown;
  let rechecks = 0;
  let destroyed = false;
  let generation = 0;
  // The latest load: a stream reload waits for whichever load ends up showing the item.
  let latest: Promise<boolean> = Promise.resolve(false);
  // One per target: refusals of its stream URLs renew them at most once per episode.
  let renewal: RenewalPolicy = renewalPolicy();
  // A clip being made is followed until it is done: a shared one by looking again, the user's own through the
  // shared list of clips (which looks for every view at once).
  let stopFollowing: (() => void) | undefined;
  /** The clips' store module, once a clip target has loaded it. */
  let clips: typeof import('./clips.js') | undefined;
  const unfollow = () => {
    stopFollowing?.();
    stopFollowing = undefined;
  };

  const clearTimer = () => {
    if (timer !== undefined) env().clearTimeout(timer);
    timer = undefined;
  };

  /** The first load of a target may take an answer prefetched moments ago (prefetchPlayable); later ones are fresh. */
  let firstLoad = false;

  /** Starts a load and remembers it as the latest. */
  function reload(quiet: boolean): Promise<boolean> {
    latest = load(quiet);
    return latest;
  }

  /** Loads the item; true when this load is the one that showed it. */
  async function load(quiet: boolean): Promise<boolean> {
    const current = target;
    if (!current || destroyed) return false;
    const cache = firstLoad;
    firstLoad = false;
    const mine = ++generation;
    controller?.abort();
    controller = new AbortController();
    const signal = controller.signal;
    if (!quiet) $state.set({ status: 'loading' });
    try {
      // The item loads alongside the profile (or geo) call; the geo-block must be known before any stream is
      // requested, so nothing shows until both are in.
      await startSession();
      const api = getClient();
      let item: Playable;
      let event: Event | undefined;
      let clip: Clip | undefined;
      if (current.kind === 'clip') {
        // The clips' code comes only with a clip to play: a player of events and library items never loads it.
        const [loaded] = await Promise.all([loadChunk('the clips', () => import('./clips.js')), identified()]);
        clips = loaded;
        clip = await clips.playerClip(current, signal, cache);
        item = clip ? fromClip(clip) : signInForClip(Number(current.id));
      } else if (current.kind === 'event') {
        [event] = await Promise.all([
          api.call(channelApi.event, { params: { id: current.id }, signal, cache }).then((answer) => answer.data),
          identified(),
        ]);
        item = fromEvent(event, event.name);
      } else {
        const [vod]: [VodItem, void] = await Promise.all([
          api.call(vodApi.vodItem, { params: { id: current.id }, signal, cache }).then((answer) => answer.data),
          identified(),
        ]);
        item = fromVod(vod);
      }
      if (mine !== generation || destroyed) return false;
      show(item, event, clip);
      return true;
    } catch (error) {
      if (isCancel(error) || mine !== generation || destroyed) return false;
      // A quiet reload keeps what is on screen when it fails; an upcoming event keeps being re-checked.
      const shown = $state.get();
      if (quiet && shown.status === 'ready') {
        if (shown.access.kind === 'upcoming' && timer === undefined) scheduleRecheck(shown.access.startsAt);
        return false;
      }
      $state.set({
        status: 'error',
        error: error instanceof ApiError ? error : new ApiError('network', String(error)),
      });
      return false;
    }
  }

  /** Follows a clip on screen: until it is done (shared), or for as long as it shows (the user's own). */
  function followShown(item: Playable, clip: Clip | undefined): void {
    if (stopFollowing || !clip || !clips || target?.kind !== 'clip') return;
    if (!target.uuid) {
      stopFollowing = clips.followOwnClip(clip, (now) => {
        if (now) return show(fromClip(now), undefined, now);
        unfollow();
        generation++;
        $state.set({ status: 'error', error: new HttpError(404, 'Clip not found.', '') });
      });
    } else if (item.clipStatus === 'pending') {
      stopFollowing = clips.followClip(async () => {
        await reload(true);
        const state = $state.get();
        const more = state.status === 'ready' && state.access.kind === 'clip-pending';
        if (!more) stopFollowing = undefined;
        return more;
      });
    }
  }

  function show(item: Playable, event: Event | undefined, clip?: Clip): void {
    const access = decideAccess(item, $user.get(), $geoBlocked.get());
    const previous = $state.get();
    const keepOffers =
      previous.status === 'ready' &&
      previous.access.kind === 'paywall' &&
      access.kind === 'paywall' &&
      previous.offers.status === 'ready'
        ? previous.offers
        : undefined;
    // A stream URL's age decides whether its refusal may be a stale grant (see `renewalPolicy`).
    const previousUrl =
      previous.status === 'ready' && previous.access.kind === 'play' ? previous.access.url : undefined;
    if (access.kind === 'play' && access.url !== previousUrl) renewal.issued();
    $state.set({ status: 'ready', item, event, clip, access, offers: keepOffers ?? IDLE });
    if (item.kind === 'clip') followShown(item, clip);
    clearTimer();
    if (access.kind === 'upcoming') scheduleRecheck(access.startsAt);
    else rechecks = 0;
    if (access.kind === 'paywall' && !keepOffers) void loadOffers(item);
  }

  /** Waits for the start time, then re-checks until the stream is live: often at first, then once a minute. */
  function scheduleRecheck(startsAt: number | undefined): void {
    const untilStart = startsAt === undefined ? 0 : startsAt * 1000 - env().now();
    const wait =
      untilStart > 0 ? Math.min(untilStart + 500, MAX_WAIT_MS) : rechecks < RECHECKS ? RECHECK_MS : RECHECK_SLOW_MS;
    timer = env().setTimeout(() => {
      timer = undefined;
      if (untilStart <= 0) rechecks++;
      void reload(true);
    }, wait);
  }

  async function loadOffers(item: Playable): Promise<void> {
    const mine = generation;
    const set = (offers: Async<Offer[], ApiError>) => {
      const state = $state.get();
      if (mine === generation && state.status === 'ready' && state.item.id === item.id)
        $state.set({ ...state, offers });
    };
    set(LOADING);
    try {
      const api = getClient();
      const [packages, subscriptions] = await Promise.all([
        api.call(accountApi.packages, { query: { no_limit: 1 } }),
        api.call(accountApi.subscriptions, { query: { no_limit: 1 } }),
      ]);
      set(ready(offersFor(item, packages.data, subscriptions.data)));
    } catch (error) {
      if (!isCancel(error)) set(failed(error instanceof ApiError ? error : new ApiError('network', String(error))));
    }
  }

  /** See `PlayerStore.reloadStream`. */
  async function reloadStream(): Promise<string | undefined> {
    let pending = reload(true);
    let shown = await pending;
    // A newer load (a sign-in meanwhile) superseded this one: its answer is the one on screen.
    while (pending !== latest) {
      pending = latest;
      shown = await pending;
    }
    const state = $state.get();
    return shown && state.status === 'ready' && state.access.kind === 'play' ? state.access.url : undefined;
  }

  // Access may change elsewhere: the user, and the entitlements (bumped by our checkout and by the host page's
  // public events, so a sign-in reloads once, not once per store and once per event).
  // Feature counts (reloaded after a download or a clip) change nothing the player shows: a reload then would
  // only restart the stream with a freshly signed URL.
  let viewer = accessOf($user.get());
  const unbindUser = $user.listen((user) => {
    const next = accessOf(user);
    if (next === viewer) return;
    viewer = next;
    void reload(true);
  });
  const unbindEntitlements = $entitlementsVersion.listen(() => void reload(true));
  const unbindGeo = $geoBlocked.listen(() => {
    const state = $state.get();
    if (state.status === 'ready') show(state.item, state.event, state.clip);
  });

  return {
    $state,
    setTarget(next) {
      if (JSON.stringify(next) === JSON.stringify(target)) return;
      target = next;
      firstLoad = true;
      rechecks = 0;
      renewal = renewalPolicy();
      clearTimer();
      unfollow();
      if (!next) {
        controller?.abort();
        generation++;
        $state.set({ status: 'idle' });
        return;
      }
      void reload(false);
    },
    refresh() {
      void reload($state.get().status === 'ready');
    },
    reloadStream,
    renewStream(refusal) {
      if (!renewal.take(refusal)) return false;
      const before = $state.get();
      const refusedUrl = before.status === 'ready' && before.access.kind === 'play' ? before.access.url : undefined;
      // The same URL again was not re-signed: it would be refused again.
      return reloadStream().then((url) => (url === refusedUrl ? undefined : url));
    },
    async takePreroll(early) {
      const state = $state.get();
      // No advertising before a clip: a few seconds of video someone shared.
      if (state.status !== 'ready' || state.access.kind !== 'play' || state.item.kind === 'clip') return undefined;
      const user = $user.get();
      const noAds = Boolean(user?.capabilities.includes('no_ads'));
      const settings = $settings.get();
      const options = prerollOptionsOf(settings?.preroll_options);
      if (noAds || options.enabled === false || early === null) return undefined;
      const eventId = `${state.item.kind === 'vod' ? 'vod-' : ''}${state.item.id}`;
      const viewer = user ? `user-${user.id}` : `visitor-${visitorId()}`;
      // The list comes with the settings (the spec's place for it), never a request here; one left out is reported
      // as any answer's record (once a page), also when the loader chose the preroll.
      const { prerolls, dropped } = prerollsOf(settings?.prerolls);
      const client = getClient();
      client.reportLeftOut(channelApi.settings.name, dropped, `${client.apiUrl}/${channelApi.settings.path}`);
      const chosen =
        early ??
        choosePreroll(
          prerolls,
          { eventId, live: state.access.live, locationId: state.item.locationId, categoryId: state.item.categoryId },
          { key: viewer, noAds },
        );
      if (chosen) suppress(viewer, eventId, chosen.id, options.suppression_minutes ?? undefined);
      return chosen;
    },
    analytics() {
      const config = $config.get();
      const state = $state.get();
      // A clip's event is a summary without teams: its payloads carry what the clip's own item says.
      const event = state.status === 'ready' ? state.event : undefined;
      const details = () => (event ? videoDetails(event) : Promise.resolve<VideoDetails>({}));
      return config ? videoReporting({ config, settings: $settings.get(), user: $user.get(), details }) : undefined;
    },
    playbackSettled: settle,
    async download() {
      const state = $state.get();
      if (state.status !== 'ready' || state.item.kind !== 'event') throw new ApiError('config', 'nothing to download');
      const api = getClient();
      const answer = await api.call(accountApi.downloadEvent, { params: { id: state.item.id }, cache: false });
      // After a download the user's access info is reloaded.
      await reloadUserAccess();
      // An https file (a signed storage URL, wherever it is), or an http one on the channel's media origins only
      // (url-rules.ts `downloadUrl`); anything else is the download's failure.
      const apiUrl = $config.get()?.apiUrl ?? '';
      const url = downloadUrl(answer.data.url, mediaOrigins(apiUrl, state.event?.media ?? []));
      if (!url) throw new ApiError('invalid-response', 'the download is not an http(s) file of the channel');
      return url;
    },
    resumeViewer() {
      const config = $config.get();
      return config ? { channel: config.channelKey, userId: $user.get()?.id } : undefined;
    },
    destroy() {
      destroyed = true;
      settle();
      unsettle();
      controller?.abort();
      clearTimer();
      unfollow();
      unbindUser();
      unbindGeo();
      unbindEntitlements();
    },
  };
}

/** What of the user decides access: everything but the feature counts. */
function accessOf(user: User | undefined): string {
  return user ? JSON.stringify({ ...user, featureCount: undefined }) : '';
}

/**
 * Starts fetching an item as soon as the element knows its id, while the session is still starting: the request
 * goes out the moment the api key is known instead of after settings, colours and a render, and the store's first
 * load takes its answer (the client's 60 s cache, or the request in flight). Best effort: failures are the
 * store's to report.
 */
export function prefetchPlayable(target: PlayerTarget): void {
  if (!$config.get()) return;
  const api = getClient();
  // The user's own clips wait for the sign-in to be known; a shared clip needs none.
  if (target.kind === 'clip' && !target.uuid) return;
  const answer =
    target.kind === 'event'
      ? api.call(channelApi.event, { params: { id: target.id } })
      : target.kind === 'clip'
        ? api.call(accountApi.sharedClip, { params: { id: target.id }, query: { uuid: target.uuid }, skipLog: [404] })
        : api.call(vodApi.vodItem, { params: { id: target.id } });
  answer.catch(() => undefined);
}
