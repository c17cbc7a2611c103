/**
 * `<channel-player>` as a media element: the HTMLMediaElement members a host page (or media-chrome's
 * `<media-controller>`) uses, on the element itself, and the media events of the video inside its shadow root
 * dispatched again from the element, so `player.addEventListener('timeupdate', ...)` works from outside.
 *
 * The element answers for whichever stage its view shows: the view attaches a stage (its <video> and media
 * session) while it plays something and detaches it when it goes. Before a stage exists (the item is loading) a
 * `play()` waits for it; a view that cannot play (paywall, sign-in, region) fails a waiting `play()` with
 * NotAllowedError. While a preroll plays, `adPlaying` is true and the members describe the ad: seeking and
 * changing the speed are refused (an ad is unskippable) and `currentTime`, `duration` and the events are the ad's.
 */
import { AD_END_EVENT, AD_START_EVENT, MEDIA_EVENTS } from '../lib/media-events.js';
import type { MediaSession, SessionState } from './session.js';
import { earlyVideoOf, releaseEarlyVideo, type EarlyVideo } from '../lib/early-video.js';

export { AD_END_EVENT, AD_START_EVENT, MEDIA_EVENTS } from '../lib/media-events.js';

/** How a stage would start its stream: an early video is adopted only where it would have started it so. */
export interface EarlyStart {
  autoplay: boolean;
  muted: boolean;
  prefer: 'native' | 'mse' | undefined;
  /** A resume position: the early video started from the beginning. */
  startAt: number | undefined;
}

/** What a view hands the element while it plays something. */
export interface MediaStage {
  video: HTMLVideoElement;
  /** What fullscreen shows: the video with our overlays. */
  stage: HTMLElement;
  /** Whether the stream is live now (an event that ends becomes its recording). */
  live(): boolean;
  session(): MediaSession | undefined;
  state(): SessionState;
}

/** The view's side of the bridge (a `ViewHost.media`). */
export interface MediaHost {
  /** The view plays something on this stage; returns the removal. */
  attach(stage: MediaStage): () => void;
  /** The session's state changed (the preroll started or ended). */
  stateChanged(state: SessionState): void;
  /** The view shows something that cannot play (a reason for `play()`), or undefined once it can again. */
  unavailable(reason: string | undefined): void;
  /**
   * The loader's early video in the element's shadow root (src/lib/early-video.ts), if it was started for `url` (its
   * stream, or the preroll the loader chose for it) as the stage would start it: offered to the stage that plays
   * `url`, which adopts it once (`adoptEarlyVideo`), so the frame on screen stays and nothing is loaded twice; the
   * stage then releases it when it goes.
   */
  takeEarlyVideo?(url: string, start: EarlyStart): EarlyVideo | undefined;
  /** Releases the loader's early video if no stage adopted it (the view shows something else, or goes). */
  dropEarlyVideo?(): void;
}

type Pending = { resolve(): void; reject(error: unknown): void };

const domError = (message: string, name: string) => new DOMException(message, name);

/** A video that never gets a source: its empty TimeRanges and TextTrackList stand in before a stage exists. */
let blank: HTMLVideoElement | undefined;
const blankVideo = () => (blank ??= document.createElement('video'));

/** One element's bridge between its public media API and the stage its view shows. */
export class MediaBridge implements MediaHost {
  readonly #host: HTMLElement;
  #stage: MediaStage | undefined;
  #pending: Pending[] = [];
  #unavailable: string | undefined;
  #inAd = false;
  // What the page set before a stage existed, applied to every stage that comes (what it did not set stays as the
  // video has it: an adopted early video keeps the volume and speed its viewer chose before the player's code came,
  // unless the page set one).
  #muted: boolean | undefined;
  #volume: number | undefined;
  #rate: number | undefined;

  constructor(host: HTMLElement) {
    this.#host = host;
  }

  attach(stage: MediaStage): () => void {
    this.#stage = stage;
    const { video } = stage;
    if (this.#muted !== undefined) video.muted = this.#muted;
    if (this.#volume !== undefined) video.volume = this.#volume;
    if (this.#rate !== undefined && !stage.live()) video.playbackRate = this.#rate;
    const forward = (event: Event) => {
      if (this.#stage !== stage) return;
      if (event.type === 'playing') this.#settle();
      // A failing preroll is skipped, not an error of the player's.
      if (event.type === 'error' && stage.state().phase === 'main') {
        this.#settle(video.error ?? domError('The stream could not play.', 'NotSupportedError'));
      }
      this.#host.dispatchEvent(new Event(event.type));
    };
    for (const name of MEDIA_EVENTS) video.addEventListener(name, forward);
    // The stage brings its own start values (the `muted` attribute): a client that read them before hears so.
    this.#host.dispatchEvent(new Event('volumechange'));
    // An adopted early video has played already: a client listening now hears what it missed, in order.
    if (video.readyState >= 1) {
      const missed = ['loadedmetadata', 'durationchange'];
      if (video.readyState >= 2) missed.push('loadeddata');
      if (video.readyState >= 3) missed.push('canplay');
      if (!video.paused) missed.push('play', 'playing');
      for (const name of missed) this.#host.dispatchEvent(new Event(name));
      if (!video.paused && video.readyState > 2) this.#settle();
    }
    if (this.#pending.length) stage.session()?.start();
    return () => {
      for (const name of MEDIA_EVENTS) video.removeEventListener(name, forward);
      if (this.#stage !== stage) return;
      this.#stage = undefined;
      this.#setAd(false);
    };
  }

  stateChanged(state: SessionState): void {
    this.#setAd(state.phase === 'preroll');
  }

  takeEarlyVideo(url: string, start: EarlyStart): EarlyVideo | undefined {
    // Asked again (a render React started over): the same one, until a stage has adopted it.
    const early = earlyVideoOf(this.#host);
    // Chosen for this very stream, and still playing what it was set to play (its preroll, else the stream).
    const { video } = early ?? {};
    if (!early || !video || video.error || early.stream !== url) return undefined;
    if (video.getAttribute('src') !== (early.preroll ? early.preroll.url : url)) return undefined;
    // The tag's attributes may have changed before its code came: only a start the stage would make itself.
    if (!start.autoplay || !start.muted || start.prefer === 'mse' || start.startAt !== undefined) return undefined;
    return early;
  }

  dropEarlyVideo(): void {
    const early = earlyVideoOf(this.#host);
    if (early) releaseEarlyVideo(early);
  }

  unavailable(reason: string | undefined): void {
    this.#unavailable = reason;
    if (reason) this.#settle(domError(reason, 'NotAllowedError'));
  }

  #setAd(inAd: boolean) {
    if (inAd === this.#inAd) return;
    this.#inAd = inAd;
    this.#host.dispatchEvent(new Event(inAd ? AD_START_EVENT : AD_END_EVENT, { bubbles: true, composed: true }));
  }

  /** Resolves (no error) or rejects every waiting `play()`. */
  #settle(error?: unknown) {
    const pending = this.#pending;
    this.#pending = [];
    for (const p of pending) {
      if (error === undefined) p.resolve();
      else p.reject(error);
    }
  }

  #wait(): Promise<void> {
    return new Promise((resolve, reject) => this.#pending.push({ resolve, reject }));
  }

  /** The main stream's video, not an ad's. */
  #main(): HTMLVideoElement | undefined {
    const stage = this.#stage;
    return stage && stage.state().phase === 'main' ? stage.video : undefined;
  }

  // ---------------------------------------------------------------- the API

  play(): Promise<void> {
    const stage = this.#stage;
    if (!stage) {
      if (this.#unavailable) return Promise.reject(domError(this.#unavailable, 'NotAllowedError'));
      return this.#wait();
    }
    const state = stage.state();
    if (!state.started || state.phase === 'idle') {
      const waiting = this.#wait();
      stage.session()?.start();
      return waiting;
    }
    return stage.video.play();
  }

  pause(): void {
    this.#settle(domError('The play() request was interrupted by a call to pause().', 'AbortError'));
    this.#stage?.video.pause();
  }

  get adPlaying(): boolean {
    return this.#inAd;
  }

  get currentTime(): number {
    return this.#stage?.video.currentTime ?? 0;
  }

  set currentTime(time: number) {
    const video = this.#main();
    if (video && Number.isFinite(time)) video.currentTime = Math.max(0, time);
  }

  get duration(): number {
    return this.#stage?.video.duration ?? Number.NaN;
  }

  get paused(): boolean {
    return this.#stage?.video.paused ?? true;
  }

  get ended(): boolean {
    return this.#main()?.ended ?? false;
  }

  get muted(): boolean {
    return this.#stage?.video.muted ?? this.#muted ?? this.#host.hasAttribute('muted');
  }

  set muted(muted: boolean) {
    this.#muted = Boolean(muted);
    if (this.#stage) this.#stage.video.muted = this.#muted;
  }

  get volume(): number {
    return this.#stage?.video.volume ?? this.#volume ?? 1;
  }

  set volume(volume: number) {
    if (!Number.isFinite(volume) || volume < 0 || volume > 1) {
      throw domError(`The volume ${volume} is outside the range [0, 1].`, 'IndexSizeError');
    }
    this.#volume = volume;
    if (this.#stage) this.#stage.video.volume = volume;
  }

  get playbackRate(): number {
    return this.#stage?.video.playbackRate ?? this.#rate ?? 1;
  }

  /** On-demand video only, and never during an ad: a live stream and a preroll play at their own pace. */
  set playbackRate(rate: number) {
    if (!Number.isFinite(rate) || rate <= 0) return;
    const stage = this.#stage;
    if (stage?.live() || this.#inAd) return;
    this.#rate = rate;
    if (stage) stage.video.playbackRate = rate;
  }

  get seekable(): TimeRanges {
    return (this.#stage?.video ?? blankVideo()).seekable;
  }

  get buffered(): TimeRanges {
    return (this.#stage?.video ?? blankVideo()).buffered;
  }

  get readyState(): number {
    return this.#stage?.video.readyState ?? 0;
  }

  get textTracks(): TextTrackList {
    return (this.#stage?.video ?? blankVideo()).textTracks;
  }

  get videoWidth(): number {
    return this.#stage?.video.videoWidth ?? 0;
  }

  get videoHeight(): number {
    return this.#stage?.video.videoHeight ?? 0;
  }

  /** 'live' or 'on-demand' while something plays (media-chrome reads it); undefined before. */
  get streamType(): 'live' | 'on-demand' | undefined {
    const stage = this.#stage;
    return stage ? (stage.live() ? 'live' : 'on-demand') : undefined;
  }

  /** A live stream may be seeked back in its whole window (media-chrome: Infinity is a DVR window). */
  get targetLiveWindow(): number {
    return this.#stage?.live() ? Number.POSITIVE_INFINITY : Number.NaN;
  }

  requestPictureInPicture(): Promise<PictureInPictureWindow> {
    const video = this.#stage?.video;
    if (!video) return Promise.reject(domError('Nothing is playing yet.', 'InvalidStateError'));
    if (typeof video.requestPictureInPicture !== 'function') {
      return Promise.reject(domError('This browser has no Picture-in-Picture.', 'NotSupportedError'));
    }
    return video.requestPictureInPicture();
  }

  /** Fullscreen shows the stage (video and overlays), or the whole element before one exists. */
  requestFullscreen(own: (options?: FullscreenOptions) => Promise<void>, options?: FullscreenOptions): Promise<void> {
    const stage = this.#stage?.stage;
    return stage ? stage.requestFullscreen(options) : own(options);
  }
}

const bridges = new WeakMap<HTMLElement, MediaBridge>();

/** The bridge of one element (made on first use). */
export function bridgeFor(host: HTMLElement): MediaBridge {
  let bridge = bridges.get(host);
  if (!bridge) bridges.set(host, (bridge = new MediaBridge(host)));
  return bridge;
}

/** The media members `<channel-player>` adds to HTMLElement (documented in docs/player.md, "The media API"). */
export interface PlayerMediaApi {
  play(): Promise<void>;
  pause(): void;
  currentTime: number;
  readonly duration: number;
  readonly paused: boolean;
  readonly ended: boolean;
  muted: boolean;
  volume: number;
  playbackRate: number;
  readonly seekable: TimeRanges;
  readonly buffered: TimeRanges;
  readonly readyState: number;
  readonly textTracks: TextTrackList;
  readonly videoWidth: number;
  readonly videoHeight: number;
  readonly adPlaying: boolean;
  readonly streamType: 'live' | 'on-demand' | undefined;
  readonly targetLiveWindow: number;
  requestPictureInPicture(): Promise<PictureInPictureWindow>;
}

/** Adds the media API to an element class (`<channel-player>`'s). */
export function withMediaApi(Base: CustomElementConstructor): CustomElementConstructor {
  const Element = Base as unknown as { new (): HTMLElement };
  class MediaElement extends Element implements PlayerMediaApi {
    play(): Promise<void> {
      return bridgeFor(this).play();
    }
    pause(): void {
      bridgeFor(this).pause();
    }
    get currentTime(): number {
      return bridgeFor(this).currentTime;
    }
    set currentTime(time: number) {
      bridgeFor(this).currentTime = Number(time);
    }
    get duration(): number {
      return bridgeFor(this).duration;
    }
    get paused(): boolean {
      return bridgeFor(this).paused;
    }
    get ended(): boolean {
      return bridgeFor(this).ended;
    }
    // `muted` as a property is the media element's (a boolean, now); the `muted` attribute is the start value.
    get muted(): boolean {
      return bridgeFor(this).muted;
    }
    set muted(muted: boolean) {
      bridgeFor(this).muted = muted;
    }
    get volume(): number {
      return bridgeFor(this).volume;
    }
    set volume(volume: number) {
      bridgeFor(this).volume = Number(volume);
    }
    get playbackRate(): number {
      return bridgeFor(this).playbackRate;
    }
    set playbackRate(rate: number) {
      bridgeFor(this).playbackRate = Number(rate);
    }
    get seekable(): TimeRanges {
      return bridgeFor(this).seekable;
    }
    get buffered(): TimeRanges {
      return bridgeFor(this).buffered;
    }
    get readyState(): number {
      return bridgeFor(this).readyState;
    }
    get textTracks(): TextTrackList {
      return bridgeFor(this).textTracks;
    }
    get videoWidth(): number {
      return bridgeFor(this).videoWidth;
    }
    get videoHeight(): number {
      return bridgeFor(this).videoHeight;
    }
    get adPlaying(): boolean {
      return bridgeFor(this).adPlaying;
    }
    get streamType(): 'live' | 'on-demand' | undefined {
      return bridgeFor(this).streamType;
    }
    get targetLiveWindow(): number {
      return bridgeFor(this).targetLiveWindow;
    }
    requestPictureInPicture(): Promise<PictureInPictureWindow> {
      return bridgeFor(this).requestPictureInPicture();
    }
    override requestFullscreen(options?: FullscreenOptions): Promise<void> {
      return bridgeFor(this).requestFullscreen((o) => super.requestFullscreen(o), options);
    }
  }
  return MediaElement as unknown as CustomElementConstructor;
}
