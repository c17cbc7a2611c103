/**
 * Playback of one HLS stream in a <video>: native HLS where the browser has it and nothing asks for MSE,
 * otherwise hls.js, loaded on demand (the light build unless the stream has subtitles, which only the full
 * build renders). No React: `startPlayback` wires everything and `destroy` undoes all of it (listeners, timers,
 * hls.js, the video's source), so nothing is requested after an element is removed.
 *
 * Recovery follows hls.js's own retry policies, set explicitly in HLS_LOAD_POLICIES (engine.ts; a segment that fails is
 * retried by hls.js and never stops playback); on top of them:
 * - a stream that shows no first frame within FIRST_FRAME_MS is an error with a Retry;
 * - a live stream shows "reconnecting" only while actually stalled (waiting with no progress for STALL_MS),
 *   keeps trying, and gives up after GIVE_UP_MS with a Retry;
 * - a manifest answered 404 is reported once as `denied`, without retry loops;
 * - a stream refused with 401 or 403 (the manifest, a child playlist or a segment) may only have a stale grant:
 *   signed stream URLs are bound to the client address they were handed to and expire after 2 hours, so a viewer
 *   whose address changes mid-stream (Wi-Fi to mobile data) or who watches longer than 2 hours is refused while
 *   playing. The owner is asked (`onRefused`) whether a freshly signed URL is coming; meanwhile the stream shows
 *   "reconnecting", and only a refusal the owner does not renew (`renewalPolicy`) is reported as `denied`;
 * - a fatal media error gets hls.js's `recoverMediaError` once before it is reported.
 */
import { env } from '../lib/env.js';
import { stopVideo } from '../lib/early-video.js';
import {
  HLS_BUFFER,
  HLS_LOAD_POLICIES,
  loadHls,
  needsFullHls,
  playsNatively,
  type Engine,
  type HlsClass,
  type HlsLike,
  type HlsLoader,
  type Quality,
} from './engine.js';
import type { Refusal } from './renewal.js';

/** What the viewer should see about playback. */
export type PlaybackState =
  | { kind: 'loading' }
  | { kind: 'playing' }
  | { kind: 'paused' }
  | { kind: 'reconnecting' }
  | { kind: 'gave-up' }
  | { kind: 'denied'; status: number }
  | { kind: 'error'; detail: string };

/** Time without progress, while waiting, before a live stream shows "reconnecting". */
export const STALL_MS = 2_500;
/** Time a live stream keeps reconnecting before it gives up with a Retry. */
export const GIVE_UP_MS = 30_000;
/** Delay between reload attempts of a stalled live stream. */
export const RELOAD_EVERY_MS = 3_000;
/** Time the main stream may take to show its first frame before the viewer is told, with a Retry. */
export const FIRST_FRAME_MS = 30_000;

/** Options of one playback. */
export interface PlaybackOptions {
  video: HTMLVideoElement;
  url: string;
  live: boolean;
  prefer?: 'native' | 'mse' | undefined;
  autoplay?: boolean | undefined;
  loadHls?: HlsLoader | undefined;
  onState(state: PlaybackState): void;
  /** Called once, when the first frame is on screen. */
  onFirstFrame?(engine: Engine): void;
  /** Start at this position (seconds), e.g. when switching engines mid-stream. */
  startAt?: number | undefined;
  /** Show the stream's first subtitle track (hls.js). */
  captions?: boolean | undefined;
  /**
   * The stream was refused (401/403). Return a promise when a freshly signed URL may be on its way (playback
   * stops and shows "reconnecting"; true: the owner replaces this playback, false: `denied`), or false to report
   * `denied` now. Without it every refusal is `denied`.
   */
  onRefused?(refusal: Refusal): Promise<boolean> | false;
  /** hls.js plays: its renditions, and whenever the chosen or playing one changes (the quality menu). */
  onQuality?(quality: Quality): void;
}

/** A running playback. */
export interface Playback {
  readonly engine: Engine | undefined;
  /** Plays rendition `index` from now on (-1: hls.js chooses); only where hls.js plays. */
  setQuality(index: number): void;
  destroy(): void;
}

/** `HTMLMediaElement.HAVE_CURRENT_DATA`: a frame is decoded. */
const HAVE_CURRENT_DATA = 2;

/** Starts playing `url` in `video`. */
export function startPlayback(options: PlaybackOptions): Playback {
  const { video, url, live } = options;
  const timers = new Set<unknown>();
  const cleanups: (() => void)[] = [];
  let destroyed = false;
  let hls: HlsLike | undefined;
  let engine: Engine | undefined;
  let state: PlaybackState['kind'] | undefined;
  let firstFrame = false;
  let stallSince: number | undefined;
  let stallTimer: unknown | undefined;
  let reloadTimer: unknown | undefined;
  let mediaRecovered = false;
  // hls.js parsed the master playlist (until then a reconnect loads it again).
  let parsed = false;
  // A fresh URL was asked for: this playback only waits to be replaced (or to report `denied`).
  let renewing = false;
  // Chooses a rendition, once hls.js plays.
  let setLevel: ((index: number) => void) | undefined;

  const set = (next: PlaybackState) => {
    if (destroyed) return;
    if (next.kind === state && next.kind !== 'error' && next.kind !== 'denied') return;
    state = next.kind;
    options.onState(next);
  };
  const later = (fn: () => void, ms: number) => {
    const timer = env().setTimeout(() => {
      timers.delete(timer);
      if (!destroyed) fn();
    }, ms);
    timers.add(timer);
    return timer;
  };
  const clear = (timer: unknown | undefined) => {
    if (timer === undefined) return;
    env().clearTimeout(timer);
    timers.delete(timer);
  };
  const listen = <K extends keyof HTMLVideoElementEventMap>(name: K, fn: (e: HTMLVideoElementEventMap[K]) => void) => {
    video.addEventListener(name, fn);
    cleanups.push(() => video.removeEventListener(name, fn));
  };

  // --- stalls (live): "reconnecting" only while waiting without progress; bounded.
  const progressed = () => {
    stallSince = undefined;
    clear(stallTimer);
    clear(reloadTimer);
    stallTimer = reloadTimer = undefined;
    if (state === 'reconnecting' || state === 'loading') set({ kind: video.paused ? 'paused' : 'playing' });
  };
  const stalled = () => {
    if (!live || stallTimer !== undefined || state === 'gave-up' || state === 'denied' || renewing) return;
    stallSince ??= env().now();
    stallTimer = later(() => {
      stallTimer = undefined;
      if (stallSince === undefined) return;
      set({ kind: 'reconnecting' });
      reconnect();
    }, STALL_MS);
  };
  const reconnect = () => {
    if (stallSince === undefined || renewing || state === 'denied') return;
    if (env().now() - stallSince >= GIVE_UP_MS) {
      set({ kind: 'gave-up' });
      hls?.stopLoad();
      return;
    }
    // A master playlist that never loaded is asked for again; otherwise hls.js resumes its playlists and segments.
    if (hls) {
      if (parsed) hls.startLoad(-1);
      else hls.loadSource(url);
    } else if (engine === 'native') {
      // Native playback has no reload call: setting the source again asks for a fresh playlist.
      video.src = url;
      void video.play().catch(() => undefined);
    }
    reloadTimer = later(reconnect, RELOAD_EVERY_MS);
  };

  listen('waiting', stalled);
  listen('stalled', stalled);
  listen('timeupdate', () => {
    if (!video.paused && video.readyState >= 3) progressed();
  });
  listen('playing', progressed);
  // Chromium fires `pause` after `error` when a source fails to load with play() pending: that pause is not the
  // viewer's and must not hide "reconnecting" or the refusal shown for the error.
  listen(
    'pause',
    () => !video.error && !renewing && state !== 'gave-up' && state !== 'denied' && set({ kind: 'paused' }),
  );
  listen('loadeddata', () => {
    if (firstFrame) return;
    firstFrame = true;
    options.onFirstFrame?.(engine ?? 'native');
  });

  // --- refusals (401/403): a stale grant gets one fresh URL from the owner before `denied` is shown.
  const refused = (status: number, fatal: boolean) => {
    if (renewing || destroyed || state === 'denied') return;
    const renewal =
      options.onRefused?.({ status, played: firstFrame, at: live ? undefined : video.currentTime }) ?? false;
    // Not renewable: a fatal refusal stands; a non-fatal one is left to hls.js (another rendition may load).
    if (renewal === false && !fatal) return;
    // Nothing more is asked with the refused URL (every rendition and segment shares its grant), and no pending
    // reconnect of a stall asks again.
    hls?.stopLoad();
    stallSince = undefined;
    clear(stallTimer);
    clear(reloadTimer);
    stallTimer = reloadTimer = undefined;
    if (renewal === false) return set({ kind: 'denied', status });
    renewing = true;
    set({ kind: 'reconnecting' });
    void renewal.then(
      (replaced) => !replaced && set({ kind: 'denied', status }),
      () => set({ kind: 'denied', status }),
    );
  };
  const isRefusal = (status: number | undefined): status is 401 | 403 => status === 401 || status === 403;

  // --- native errors: find out why (the media element does not say), once.
  listen('error', () => {
    if (engine !== 'native' || destroyed || renewing) return;
    void diagnose(url).then((status) => {
      // A late error of the last reload after giving up (or being refused) keeps what the viewer was told.
      if (destroyed || renewing || state === 'gave-up' || state === 'denied') return;
      if (isRefusal(status)) refused(status, true);
      else if (status === 404) set({ kind: 'denied', status });
      else if (live) {
        stallSince ??= env().now();
        set({ kind: 'reconnecting' });
        reloadTimer ??= later(reconnect, RELOAD_EVERY_MS);
      } else set({ kind: 'error', detail: video.error?.message || `media error ${video.error?.code ?? ''}`.trim() });
    });
  });

  const play = () => {
    if (!options.autoplay || destroyed) return;
    void video.play().catch((error: unknown) => {
      // Autoplay with sound refused: play muted (the viewer can unmute).
      if ((error as { name?: string }).name === 'NotAllowedError' && !video.muted && !destroyed) {
        video.muted = true;
        void video.play().catch(() => undefined);
      }
    });
  };

  set({ kind: 'loading' });
  // A stream that never shows a frame (segments that decode to nothing, a playlist with nothing playable that
  // hls.js keeps reloading) must not leave the viewer before an empty stage: with nothing else said by then, it is
  // an error with a Retry. A live stream that reconnects has its own bound (GIVE_UP_MS).
  later(() => {
    if (firstFrame || state !== 'loading') return;
    hls?.stopLoad();
    set({ kind: 'error', detail: 'no first frame' });
  }, FIRST_FRAME_MS);
  if (playsNatively(video, options)) {
    engine = 'native';
    // The loader's early video plays this very stream already (src/loader/early-video.ts): adopted as it is.
    const adopted = video.getAttribute('src') === url && !video.error;
    const startAt = options.startAt;
    if (adopted) {
      // It showed a frame (it may be refilling its buffer now): `loadeddata` has passed.
      if (video.readyState >= HAVE_CURRENT_DATA || video.played.length > 0) {
        firstFrame = true;
        options.onFirstFrame?.('native');
      }
      if (!video.paused && video.readyState > HAVE_CURRENT_DATA) set({ kind: 'playing' });
      // Paused after it played: the viewer paused it with the browser's controls before the player's code came.
      else if (video.paused && video.played.length > 0 && !video.ended) set({ kind: 'paused' });
      else play();
    } else if (startAt !== undefined && startAt > 0 && !live) {
      // The native engine has no start position: seek once the duration is known (a renewed URL resumes here).
      let sought = false;
      listen('loadedmetadata', () => {
        if (sought) return;
        sought = true;
        video.currentTime = startAt;
      });
    }
    if (!adopted) {
      video.src = url;
      play();
    }
  } else {
    void startHls();
  }

  async function startHls(): Promise<void> {
    const loader = options.loadHls ?? loadHls;
    let full = false;
    try {
      // The master playlist says whether the light build is enough (it lacks subtitles).
      // Bounded as hls.js's own load of it is: a master playlist that never answers must not hold the start.
      const abort = new AbortController();
      const deadline = later(() => abort.abort(), HLS_LOAD_POLICIES.manifestLoadPolicy.default.maxLoadTimeMs);
      const answer = await env().fetch(url, { credentials: 'omit', signal: abort.signal });
      if (destroyed) return;
      if (isRefusal(answer.status)) return refused(answer.status, true);
      if (answer.status === 404) return set({ kind: 'denied', status: answer.status });
      full = needsFullHls(await answer.text());
      clear(deadline);
    } catch {
      // Unknown: let hls.js load it and report.
    }
    let Hls: HlsClass;
    try {
      Hls = await loader(full);
    } catch (error) {
      return set({ kind: 'error', detail: `hls.js could not load: ${String(error)}` });
    }
    if (destroyed) return;
    if (!Hls.isSupported()) return set({ kind: 'error', detail: 'this browser cannot play HLS' });
    engine = full ? 'hls.js' : 'hls.js-light';
    const instance = new Hls({
      lowLatencyMode: false,
      ...HLS_BUFFER,
      ...HLS_LOAD_POLICIES,
      enableWorker: false,
      ...(options.startAt !== undefined && !live ? { startPosition: options.startAt } : {}),
      ...(options.captions ? { subtitleDisplay: true } : {}),
    });
    hls = instance;
    instance.on(Hls.Events.ERROR, (_event, data) => {
      if (destroyed || renewing) return;
      const status = data.response?.code;
      // hls.js does not retry a 4xx (manifestLoadError, levelLoadError, fragLoadError, keyLoadError...): it
      // switches renditions, and reports it fatal once none is left. Under a signed URL all are refused alike, so
      // a renewable refusal is acted on at its first report.
      if (data.type === 'networkError' && isRefusal(status)) return refused(status, Boolean(data.fatal));
      if (!data.fatal) return;
      if (data.details === 'manifestLoadError' && status === 404) {
        instance.stopLoad();
        return set({ kind: 'denied', status });
      }
      if (data.type === 'mediaError' && !mediaRecovered) {
        mediaRecovered = true;
        instance.recoverMediaError();
        return;
      }
      if (data.type === 'networkError' && live) {
        stallSince ??= env().now();
        set({ kind: 'reconnecting' });
        reloadTimer ??= later(reconnect, RELOAD_EVERY_MS);
        return;
      }
      set({ kind: 'error', detail: data.details ?? 'playback error' });
    });
    let selected = -1;
    const quality = () =>
      options.onQuality?.({
        renditions: (instance.levels ?? []).map((level) => ({ height: level.height, bitrate: level.bitrate })),
        selected,
        playing: instance.currentLevel ?? -1,
      });
    setLevel = (index) => {
      selected = index;
      instance.currentLevel = index;
      quality();
    };
    instance.on(Hls.Events.MANIFEST_PARSED, () => {
      parsed = true;
      quality();
      play();
    });
    if (Hls.Events.LEVEL_SWITCHED) instance.on(Hls.Events.LEVEL_SWITCHED, quality);
    // Asked for captions: hls.js leaves subtitle tracks disabled unless the playlist marks one DEFAULT, so the
    // first one is shown as it appears.
    if (options.captions) {
      // hls.js follows the text track the page shows, so showing the first one as it appears selects it.
      const showFirst = () => {
        const tracks = [...video.textTracks].filter((track) => track.kind === 'subtitles' || track.kind === 'captions');
        if (tracks[0] && !tracks.some((track) => track.mode === 'showing')) tracks[0].mode = 'showing';
      };
      video.textTracks.addEventListener('addtrack', showFirst);
      cleanups.push(() => video.textTracks.removeEventListener('addtrack', showFirst));
      showFirst();
    }
    instance.attachMedia(video);
    instance.loadSource(url);
  }

  return {
    get engine() {
      return engine;
    },
    setQuality(index) {
      if (!destroyed) setLevel?.(index);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const timer of timers) env().clearTimeout(timer);
      timers.clear();
      for (const cleanup of cleanups) cleanup();
      hls?.destroy();
      hls = undefined;
      // Detach the source so the browser stops fetching segments.
      stopVideo(video);
    },
  };
}

/** The HTTP status of the stream's playlist (0 when unreachable). */
async function diagnose(url: string): Promise<number> {
  try {
    const answer = await env().fetch(url, { credentials: 'omit' });
    return answer.status;
  } catch {
    return 0;
  }
}
