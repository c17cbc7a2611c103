/**
 * One player's media session on its <video>, without React (in the manner of Mux's playback-core): after Play,
 * the preroll if there is one (labelled "Ad", skipped on failure), then the main stream with its recovery, the
 * captions offer of a browser engine that leaves subtitles out, and analytics after the first frame.
 * `initialize` wires it; `teardown` removes every listener, timer, playback and monitor it started. hls.js and
 * mux-embed are injectable; what the session needs of the item (the preroll, fresh stream URLs) comes from its
 * owner's callbacks.
 */
import type { Preroll } from '../api/preroll-schemas.js';
import { env } from '../lib/env.js';
import { rangeEnd } from '../lib/media-bar.js';
import { monitorVideo, type MonitorContext, type VideoInfo, type VideoMonitor } from './analytics.js';
import { nativeLacksSubtitles, type HlsLoader, type Quality } from './engine.js';
import { startPlayback, type Playback, type PlaybackState } from './playback.js';
import type { Refusal } from './renewal.js';
import { exclusiveSound } from './sound.js';

/** A preroll that shows no frame within this time is skipped (it must never block the main video). */
export const PREROLL_TIMEOUT_MS = 8_000;

/** What the viewer should see of the session. */
export interface SessionState {
  /** Play was pressed (or autoplay asked for it). */
  started: boolean;
  phase: 'idle' | 'preroll' | 'main';
  /** The main stream's state. */
  playback: PlaybackState;
  /** Seconds left of the preroll, when its duration is known. */
  adLeft: number | undefined;
  /** The main video showed its first frame (the browser's controls appear then, not before). */
  framed: boolean;
  /** The browser's engine left the stream's subtitles out: captions through hls.js may be offered. */
  captionsOffer: boolean;
  /** The browser muted the video (autoplay with sound refused) though the page did not ask for it. */
  mutedByBrowser: boolean;
  /** Where hls.js plays the main stream: its renditions and the chosen one (the quality menu). */
  quality: Quality | undefined;
}

/** The stream a session plays, which its owner may change (a freshly signed URL restarts it in place). */
export interface SessionSource {
  url: string;
  live: boolean;
  prefer?: 'native' | 'mse' | undefined;
  muted: boolean;
}

/** Options of a session. */
export interface SessionOptions extends SessionSource {
  /** What is watched (analytics). */
  info: VideoInfo;
  /** Where the main stream starts (seconds; an on-demand video the viewer left there before). */
  startAt?: number | undefined;
  /** The preroll to play first, if any. */
  takePreroll(): Promise<Preroll | undefined>;
  /** A refused stream (see `PlaybackOptions.onRefused`): a fresh URL coming, or false. */
  renewStream(refusal: Refusal): Promise<string | undefined> | false;
  /** Reloads the item for a freshly signed URL (Retry); resolves with the URL it now plays. */
  reloadStream(): Promise<string | undefined>;
  /** The channel and viewer analytics report, read at the first frame; undefined: no analytics. */
  analytics(): Omit<MonitorContext, 'startedAt'> | undefined;
  onState(state: SessionState): void;
  loadHls?: HlsLoader | undefined;
  /** Default `monitorVideo`. */
  monitor?: typeof monitorVideo | undefined;
  /**
   * The loader's early video the stage adopted as this video (src/lib/early-video.ts): when it started, and when it
   * showed its first frame (ms since the epoch), before this session.
   */
  early?: { startedAt: number; framedAt: number | undefined } | undefined;
}

/**
 * What a view may read and do of the main video (the clip maker): its position, seeking, play and pause. Nothing
 * of the preroll: before the main stream (and during the ad) `position` is undefined and the actions do nothing.
 */
export interface MediaControls {
  /**
   * Seconds: the position, the length (Infinity for live) and the seekable range (a live stream's window). For a
   * live stream, `liveClockMs` maps the video's clock to the wall clock: the content at video time `t` was live at
   * `liveClockMs + t * 1000` (UNIX ms). It is measured once, when the main stream first plays: the newest content
   * loaded then (the end of the seekable window, else of the buffer, which the browser fills to the playlist's
   * end) was live at that moment. Pausing, seeking or playing a selection do not move it.
   */
  position():
    | {
        time: number;
        duration: number;
        seekable: { start: number; end: number } | undefined;
        /** The end of what is buffered (a live stream's newest content where the browser reports no window). */
        bufferedEnd?: number | undefined;
        liveClockMs?: number | undefined;
      }
    | undefined;
  seek(time: number): void;
  play(): void;
  pause(): void;
  /** Calls `listener` whenever the position, length or seekable range may have changed; returns the removal. */
  onChange(listener: () => void): () => void;
}

/** A running session. */
export interface MediaSession {
  /** The main video's position and actions (see MediaControls). */
  readonly controls: MediaControls;
  /** Starts (preroll, then the main stream); again does nothing. */
  start(): void;
  /** Play/pause; before the start, starts. */
  togglePlay(): void;
  /** Follows a new source: a new URL, engine preference or live flag restarts the main stream. */
  update(source: SessionSource): void;
  /**
   * Retry after "gave-up" or an error: the URL in use may be stale (bound to another client address or past its
   * 2 h), so the item is reloaded for a freshly signed one first. A new URL restarts the stream through `update`;
   * the same one (or a failed reload) is started again as it is.
   */
  retry(): void;
  /** Takes the captions offer: the stream restarts through hls.js where it was, showing the first subtitles. */
  showCaptions(): void;
  /** Plays the main stream's rendition `index` (-1: automatic), where hls.js plays it. */
  setQuality(index: number): void;
  /** Stops everything the session started. */
  teardown(): void;
}

/** The state before Play. */
export function idleSession(started = false): SessionState {
  return {
    started,
    phase: 'idle',
    playback: { kind: 'loading' },
    adLeft: undefined,
    framed: false,
    captionsOffer: false,
    mutedByBrowser: false,
    quality: undefined,
  };
}

/** Wires a session to `video`; nothing plays until `start`. */
export function initialize(video: HTMLVideoElement, options: SessionOptions): MediaSession {
  let state = idleSession();
  let source: SessionSource = { url: options.url, live: options.live, prefer: options.prefer, muted: options.muted };
  /** The wall clock (UNIX ms) of a live stream's video time 0, once it has played (see MediaControls.position). */
  let liveClockMs: number | undefined;
  let tornDown = false;
  // What the current phase started; stopped when the phase ends or the main stream restarts.
  let stopPhase: (() => void) | undefined;
  // Captions asked for: from then on the main stream plays through hls.js with subtitles, from this position.
  let captions: { at: number } | undefined;
  // Where the next start of the main stream resumes a non-live stream (after a renewed URL or a Retry; at first, where
  // the viewer left it).
  let resumeAt: number | undefined = options.live ? undefined : options.startAt;
  let playing: Playback | undefined;
  let startedAt = env().now();
  // An early video the stage adopted started, and showed its first frame, before this.
  let earlyFrameAt = options.early?.framedAt;
  if (options.early) startedAt = options.early.startedAt;

  const set = (patch: Partial<SessionState>) => {
    if (tornDown) return;
    state = { ...state, ...patch };
    options.onState(state);
  };
  let entered = 0;
  const enter = (phase: SessionState['phase'], run: () => () => void) => {
    const stop = stopPhase;
    stopPhase = undefined;
    stop?.();
    if (tornDown) return;
    const mine = ++entered;
    set({ phase });
    const cleanup = run();
    // The phase may have ended while it started (a preroll failing at once): its cleanup is due now.
    if (mine === entered && !tornDown) stopPhase = cleanup;
    else cleanup();
  };

  // An adopted early video started muted, as the tag asked: unmuted now, its viewer did it (the browser's controls).
  if (!options.early) video.muted = source.muted;
  const releaseSound = exclusiveSound(video);

  /** The preroll: plays once; an error, a refused stream or no frame in time skips it. */
  function playPreroll(preroll: Preroll): () => void {
    let done = false;
    // The preroll replaces an early video: the main stream's first frame is its own.
    earlyFrameAt = undefined;
    const finish = () => {
      if (done) return;
      done = true;
      enter('main', playMain);
    };
    const timeout = env().setTimeout(finish, PREROLL_TIMEOUT_MS);
    const ad: Playback = startPlayback({
      video,
      url: preroll.url,
      live: false,
      autoplay: true,
      loadHls: options.loadHls,
      onState: (s) => (s.kind === 'error' || s.kind === 'denied') && finish(),
      onFirstFrame: () => env().clearTimeout(timeout),
    });
    const tick = () =>
      set({
        adLeft: Number.isFinite(video.duration)
          ? Math.max(0, Math.ceil(video.duration - video.currentTime))
          : undefined,
      });
    video.addEventListener('ended', finish);
    video.addEventListener('timeupdate', tick);
    return () => {
      done = true;
      env().clearTimeout(timeout);
      video.removeEventListener('ended', finish);
      video.removeEventListener('timeupdate', tick);
      ad.destroy();
      set({ adLeft: undefined });
    };
  }

  /** The main stream, with its renewal of refused URLs, captions offer and analytics. */
  function playMain(): () => void {
    const { url, live } = source;
    let monitor: VideoMonitor | undefined;
    let stopped = false;
    const startAt = resumeAt ?? captions?.at;
    resumeAt = undefined;
    const running = startPlayback({
      video,
      url,
      live,
      prefer: captions ? 'mse' : source.prefer,
      startAt,
      captions: Boolean(captions),
      autoplay: true,
      loadHls: options.loadHls,
      onState: (playback) => set({ playback }),
      onQuality: (quality) => set({ quality }),
      // Signed stream URLs are bound to the client address and expire after 2 h: a refusal mid-play gets one
      // freshly signed URL from the owner; its `update` then restarts the stream where it stopped.
      onRefused: (refusal) => {
        const renewing = options.renewStream(refusal);
        if (!renewing) return false;
        // Set before the new URL arrives: the owner's update may restart the stream before the promise settles.
        resumeAt = refusal.at;
        startedAt = env().now();
        return renewing.then((fresh) => {
          if (fresh !== undefined) return true;
          resumeAt = undefined;
          return false;
        });
      },
      onFirstFrame: (engine) => {
        set({ framed: true });
        if (engine === 'native') {
          void nativeLacksSubtitles(video, url).then((lacks) => !stopped && set({ captionsOffer: lacks }));
        }
        const context = options.analytics();
        const firstFrameAt = earlyFrameAt;
        earlyFrameAt = undefined;
        if (context) {
          monitor = (options.monitor ?? monitorVideo)(
            video,
            { ...options.info, url },
            { ...context, startedAt, firstFrameAt },
          );
        }
      },
    });
    const onVolume = () => set({ mutedByBrowser: video.muted && !source.muted });
    video.addEventListener('volumechange', onVolume);
    // A live stream's clock (see MediaControls.position), measured when it first plays.
    liveClockMs = undefined;
    const onPlaying = () => {
      if (!live || liveClockMs !== undefined) return;
      const edge = Math.max(rangeEnd(video.seekable) ?? 0, rangeEnd(video.buffered) ?? 0, video.currentTime);
      liveClockMs = env().now() - edge * 1000;
    };
    video.addEventListener('playing', onPlaying);
    // An adopted early video plays already.
    if (!video.paused && video.readyState > 2) onPlaying();
    playing = running;
    return () => {
      stopped = true;
      if (playing === running) playing = undefined;
      set({ quality: undefined });
      video.removeEventListener('volumechange', onVolume);
      video.removeEventListener('playing', onPlaying);
      monitor?.destroy();
      running.destroy();
    };
  }

  const restartMain = () => {
    if (state.phase === 'main') enter('main', playMain);
  };

  const start = () => {
    if (state.started || tornDown) return;
    set({ started: true });
    const next = (preroll: Preroll | undefined) => {
      if (tornDown) return;
      if (preroll) enter('preroll', () => playPreroll(preroll));
      else enter('main', playMain);
    };
    void options.takePreroll().then(next, () => next(undefined));
  };

  const main = () => state.phase === 'main' && !tornDown;
  const controls: MediaControls = {
    position() {
      if (!main()) return undefined;
      const range = video.seekable;
      const last = range.length - 1;
      return {
        time: video.currentTime,
        duration: video.duration,
        seekable: last >= 0 ? { start: range.start(0), end: range.end(last) } : undefined,
        bufferedEnd: rangeEnd(video.buffered),
        liveClockMs: source.live ? liveClockMs : undefined,
      };
    },
    seek(time) {
      if (main() && Number.isFinite(time)) video.currentTime = time;
    },
    play() {
      if (main()) void video.play().catch(() => undefined);
    },
    pause() {
      if (main()) video.pause();
    },
    onChange(listener) {
      const events = ['timeupdate', 'durationchange', 'progress', 'seeked', 'loadedmetadata'];
      for (const name of events) video.addEventListener(name, listener);
      return () => events.forEach((name) => video.removeEventListener(name, listener));
    },
  };

  return {
    controls,
    start,
    togglePlay() {
      if (!state.started) return start();
      if (video.paused) void video.play().catch(() => undefined);
      else video.pause();
    },
    update(next) {
      const restart = next.url !== source.url || next.live !== source.live || next.prefer !== source.prefer;
      if (next.muted !== source.muted) video.muted = next.muted;
      source = { ...next };
      if (restart) restartMain();
    },
    retry() {
      const { url, live } = source;
      resumeAt = !live && video.currentTime > 0 ? video.currentTime : undefined;
      startedAt = env().now();
      set({ playback: { kind: 'reconnecting' } });
      void options.reloadStream().then((fresh) => {
        if (!tornDown && (fresh === undefined || fresh === url)) restartMain();
      });
    },
    setQuality(index) {
      playing?.setQuality(index);
    },
    showCaptions() {
      captions = { at: video.currentTime };
      set({ captionsOffer: false });
      restartMain();
    },
    teardown() {
      if (tornDown) return;
      tornDown = true;
      stopPhase?.();
      stopPhase = undefined;
      releaseSound();
    },
  };
}
