/**
 * Video analytics: mux-embed monitoring (with the channel's environment key and, when set, its own beacon domain) and
 * the datalake video calls (first frame, viewing time). Both start only after the first frame, once analytics may
 * run (consent, an idle moment: stores/analytics/gate.ts), so they never delay it; both stop with the player, and
 * when the page withdraws consent. The channel's analytics come in as a `VideoReporting` (made by
 * `videoReporting` in stores/analytics/video.ts): the media layer imports no store. Nothing here carries the user's token: the datalake gets the user id and email it
 * asks for, and mux gets neither. Nor does mux get a signed stream URL: it reports `video.currentSrc` (and any
 * `*_url` in its events) to Mux's collector, so every URL it holds is redacted first (see `redactMuxData`).
 */
import { loadChunk } from '../lib/chunks.js';
import { env } from '../lib/env.js';
import { randomId as uuid } from '../lib/uuid.js';
import { redactMediaUrl } from '../lib/url.js';

/** How often the viewing time is reported while playing. */
export const VIEWING_EVERY_MS = 30_000;

/** What is being watched. */
export interface VideoInfo {
  streamId: string;
  streamType: 'live' | 'vod';
  title: string;
  /** The stream's URL: a Mux one (`https://stream.mux.com/{playback id}.m3u8`) names its playback id to Mux. */
  url?: string | undefined;
}

/** A running monitor. */
export interface VideoMonitor {
  destroy(): void;
}

/** The part of mux-embed we use (so tests can inject a fake). */
export interface Mux {
  monitor(video: HTMLMediaElement, options: Record<string, unknown>): void;
  destroyMonitor(video: HTMLMediaElement): void;
}

/** Loads mux-embed. */
export type MuxLoader = () => Promise<Mux>;

/** One view of a video, as its datalake calls name it. */
export interface VideoView extends VideoInfo {
  /** The view's own id (`video_view_uuid`). */
  viewId: string;
}

/** Where a monitor reports: the channel's analytics for this viewer, and when analytics may run. */
export interface VideoReporting {
  /** Mux monitoring with the channel's environment key; undefined: none (no key, or not from this page). */
  mux?: { envKey: string; beaconDomain?: string | undefined } | undefined;
  /** The partner the page's analytics are attributed to, read when Mux starts. */
  partner(): string | undefined;
  /** Sends one datalake video call (`video/event/`, `video/viewing/`); undefined: no datalake for this channel. */
  datalake?: ((path: string, view: VideoView, fields: Record<string, unknown>) => void) | undefined;
  /** Runs `task` once analytics may run (consent, no player starting, an idle moment). */
  whenMay(task: () => void): void;
  /** Follows the page's consent (a refusal stops Mux); returns the removal. */
  onConsent(listener: (state: 'granted' | 'pending' | 'refused') => void): () => void;
}

/** What a monitor needs besides the video: where it reports, when the player started, and mux-embed. */
export interface MonitorContext extends VideoReporting {
  startedAt: number;
  /** When the first frame showed, if before the monitor started (an adopted early video); default: now. */
  firstFrameAt?: number | undefined;
  /** Default: a dynamic import, so mux-embed is its own chunk fetched after the first frame. */
  loadMux?: MuxLoader | undefined;
}

const loadMux: MuxLoader = async () =>
  (await loadChunk('mux-embed', () => import('mux-embed'))).default as unknown as Mux;

/**
 * mux-embed's data with every `*_url` string redacted (`redactMediaUrl`). mux-embed 5.19 reads
 * `video_source_url: hlsjs.url || dashjs.getSource() || video.currentSrc` and `video_poster_url: video.poster`
 * in its html5 monitor's `getStateData`, which the monitor always sets itself; its `stateDataTranslator` option
 * sees that state before it is stored, and its `emitTranslator` option sees every event's data (`request_url`
 * of hls.js/dash.js request events, `player_source_url`), so the two together cover every URL of a beacon.
 * `video_source_hostname`/`_domain` are derived later from the redacted URL: the host is no secret.
 */
function redactMuxData<T extends Record<string, unknown> | undefined>(data: T): T {
  if (!data) return data;
  const out: Record<string, unknown> = { ...data };
  for (const [name, value] of Object.entries(out)) {
    if (name.endsWith('_url') && typeof value === 'string') out[name] = redactMediaUrl(value);
  }
  return out as T;
}

/**
 * Starts monitoring `video` after its first frame. `firstFrameMs` is the time from the player's start to the
 * first frame, reported to the datalake.
 */
export function monitorVideo(video: HTMLVideoElement, info: VideoInfo, context: MonitorContext): VideoMonitor {
  const cancels: (() => void)[] = [];
  let destroyed = false;
  let mux: Mux | undefined;
  const view: VideoView = { ...info, viewId: uuid() };

  const stopMux = () => {
    const attached = (video as unknown as { mux?: { deleted?: boolean } }).mux;
    if (mux && attached && !attached.deleted) mux.destroyMonitor(video);
    mux = undefined;
  };

  // --- mux-embed, lazily
  const muxed = context.mux;
  if (muxed) {
    context.whenMay(() => {
      if (destroyed) return;
      void (context.loadMux ?? loadMux)()
        .then((loaded) => {
          if (destroyed) return;
          mux = loaded;
          // A monitor destroyed earlier (an engine switch) leaves its stub behind; mux-embed would refuse to start.
          const previous = (video as unknown as { mux?: { deleted?: boolean } }).mux;
          if (previous?.deleted) delete (video as unknown as { mux?: unknown }).mux;
          const partner = context.partner();
          mux.monitor(video, {
            debug: false,
            ...(muxed.beaconDomain ? { beaconCollectionDomain: muxed.beaconDomain } : {}),
            // Signed stream URLs (a token in the path or the query) must not reach Mux's collector.
            stateDataTranslator: redactMuxData,
            emitTranslator: (event: string, data?: Record<string, unknown>) => [event, redactMuxData(data)],
            data: {
              env_key: muxed.envKey,
              player_name: 'channel-player',
              player_init_time: context.startedAt,
              // A Mux stream's playback id, as Mux's own players name it (the URL reaches Mux redacted).
              video_id: /^https:\/\/stream\.mux\.com\/(\w+)\.m3u8/.exec(info.url ?? '')?.[1] ?? info.streamId,
              video_title: info.title,
              video_stream_type: info.streamType === 'live' ? 'live' : 'on-demand',
              // Mux's field for grouping views by the site they came from: the page's partner.
              ...(partner ? { sub_property_id: partner } : {}),
            },
          });
        })
        .catch((error: unknown) =>
          env().logger.warn(`<channel-player>: video analytics (mux) did not load: ${String(error)}`),
        );
    });
  }

  // --- datalake
  const firstFrameMs = Math.round((context.firstFrameAt ?? env().now()) - context.startedAt);
  const send = context.datalake;
  if (send) {
    context.whenMay(() => {
      if (!destroyed) send('video/event/', view, { event: 'first_frame', first_frame_ms: firstFrameMs });
    });
    // Viewing time: counted while playing, reported periodically and when the player stops.
    let watched = 0;
    let since: number | undefined;
    const start = () => (since ??= env().now());
    const stop = () => {
      if (since !== undefined) watched += env().now() - since;
      since = undefined;
    };
    const report = () => {
      const running = since !== undefined;
      stop();
      if (watched >= 1_000) {
        const seconds = Math.round(watched / 1000);
        context.whenMay(() => send('video/viewing/', view, { viewing_time: seconds }));
      }
      watched = 0;
      if (running) start();
    };
    video.addEventListener('playing', start);
    video.addEventListener('pause', stop);
    video.addEventListener('waiting', stop);
    if (!video.paused) start();
    let timer = env().setTimeout(function tick() {
      report();
      timer = env().setTimeout(tick, VIEWING_EVERY_MS);
    }, VIEWING_EVERY_MS);
    cancels.push(() => {
      env().clearTimeout(timer);
      video.removeEventListener('playing', start);
      video.removeEventListener('pause', stop);
      video.removeEventListener('waiting', stop);
      report();
    });
  }

  // A page that withdraws consent: Mux stops now (what waits for the datalake is dropped by the gate).
  cancels.push(
    context.onConsent((state) => {
      if (state === 'refused') stopMux();
    }),
  );

  return {
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const cancel of cancels) cancel();
      stopMux();
    },
  };
}
