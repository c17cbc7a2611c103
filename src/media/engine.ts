/**
 * The engines that play a stream: the browser's own HLS or hls.js (its light build, or the full one for subtitles),
 * which of them a stream gets, how hls.js is loaded, and the retry and buffer policies it is given. Used by
 * playback (src/media/playback.ts) and the player's captions.
 */
import { loadChunk } from '../lib/chunks.js';
import { env } from '../lib/env.js';
import { nativeEngine } from '../lib/start-rules.js';

/** Which engine plays the stream. */
export type Engine = 'native' | 'hls.js' | 'hls.js-light';

/** The part of hls.js we use (so tests can inject a fake). */
export interface HlsLike {
  loadSource(url: string): void;
  attachMedia(media: HTMLMediaElement): void;
  startLoad(position?: number): void;
  stopLoad(): void;
  recoverMediaError(): void;
  destroy(): void;
  on(event: string, listener: (event: string, data: HlsErrorData) => void): void;
  /** The renditions of the master playlist, once parsed. */
  readonly levels?: readonly { height: number; bitrate: number }[];
  /** The rendition playing; set: switch to it now (-1: automatic). */
  currentLevel?: number;
}

/** A rendition of the stream, as the quality menu lists it. */
export interface Rendition {
  height: number;
  bitrate: number;
}

/** The renditions hls.js plays from, and which one is chosen (-1: automatic) and playing. */
export interface Quality {
  renditions: readonly Rendition[];
  selected: number;
  playing: number;
}

/** The fields of an hls.js error we read. */
export interface HlsErrorData {
  fatal?: boolean;
  type?: string;
  details?: string;
  response?: { code?: number } | undefined;
}

/** An hls.js class (`Hls` from 'hls.js' or 'hls.js/light'). */
export interface HlsClass {
  new (config?: Record<string, unknown>): HlsLike;
  isSupported(): boolean;
  Events: { ERROR: string; MANIFEST_PARSED: string; FRAG_LOADED: string; LEVEL_SWITCHED?: string };
}

/** Loads hls.js: the full build when the stream needs it, else the light one. */
export type HlsLoader = (full: boolean) => Promise<HlsClass>;

/** One hls.js retry rule: `maxNumRetry` attempts more, waiting `retryDelayMs` doubled each time up to the max. */
const retries = (maxNumRetry: number, retryDelayMs: number) => ({
  maxNumRetry,
  retryDelayMs,
  maxRetryDelayMs: retryDelayMs * 4,
});

/**
 * hls.js's load policies, set here rather than left to its defaults (which let a hung manifest take a minute and a
 * segment six retries): every load has a deadline and a small retry budget, so a fault reaches the viewer in
 * seconds. hls.js retries a timeout or a 5xx, never a 4xx or a network failure (CORS) (`shouldRetry`), then tries
 * the other rendition before its error turns fatal; on a fatal error a live stream reconnects within GIVE_UP_MS.
 * The master playlist's deadline also bounds our own first read of it (`needsFullHls`), which counts as its
 * first attempt: hls.js does not wait for it a second time.
 */
export const HLS_LOAD_POLICIES = {
  manifestLoadPolicy: {
    default: {
      maxTimeToFirstByteMs: 10_000,
      maxLoadTimeMs: 10_000,
      timeoutRetry: retries(0, 0),
      errorRetry: retries(1, 1_000),
    },
  },
  playlistLoadPolicy: {
    default: {
      maxTimeToFirstByteMs: 10_000,
      maxLoadTimeMs: 10_000,
      timeoutRetry: retries(1, 0),
      errorRetry: retries(2, 1_000),
    },
  },
  fragLoadPolicy: {
    default: {
      maxTimeToFirstByteMs: 10_000,
      maxLoadTimeMs: 30_000,
      timeoutRetry: retries(1, 0),
      errorRetry: retries(3, 1_000),
    },
  },
} as const;

/**
 * What hls.js keeps in the SourceBuffer: 30 s behind the play position (older media is evicted) and 30 s ahead
 * (at most 60 s ahead when the bandwidth allows), so a stream played for hours holds about a minute of media.
 */
export const HLS_BUFFER = { backBufferLength: 30, maxBufferLength: 30, maxMaxBufferLength: 60 } as const;
/** The default loader: dynamic imports, so hls.js is its own chunk fetched only when needed. */
export const loadHls: HlsLoader = async (full) =>
  (await loadChunk(full ? 'hls.js' : 'hls.js light', () => (full ? import('hls.js') : import('hls.js/light'))))
    .default as unknown as HlsClass;

/** Whether this browser plays HLS by itself. */
export function hasNativeHls(video: HTMLVideoElement): boolean {
  return video.canPlayType('application/vnd.apple.mpegurl') !== '';
}

/** Whether this browser has Media Source Extensions, which hls.js plays through. */
function hasMse(): boolean {
  return typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window);
}

/**
 * Whether the browser's own engine plays the stream (the rule, shared with the loader's early video, is
 * src/lib/start-rules.ts `nativeEngine`).
 */
export function playsNatively(
  video: HTMLVideoElement,
  options: { prefer?: 'native' | 'mse' | undefined; live: boolean },
) {
  return nativeEngine(hasNativeHls(video), hasMse(), options.prefer, options.live);
}

/** Whether a master playlist lists subtitles or closed captions (which the light hls.js build lacks). */
export function needsFullHls(manifest: string): boolean {
  return /#EXT-X-MEDIA:[^\n]*TYPE=(SUBTITLES|CLOSED-CAPTIONS)/.test(manifest);
}

/**
 * Whether the browser's own HLS engine left out the stream's subtitles (Chromium's does; Safari's shows them):
 * true when the master playlist lists subtitles and the video has no text track. Read after the first frame,
 * off the critical path; the player then offers captions through hls.js.
 */
export async function nativeLacksSubtitles(video: HTMLVideoElement, url: string): Promise<boolean> {
  if (video.textTracks.length > 0) return false;
  try {
    const answer = await env().fetch(url, { credentials: 'omit' });
    return answer.ok && needsFullHls(await answer.text()) && video.textTracks.length === 0;
  } catch {
    return false;
  }
}
