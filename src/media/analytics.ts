/**
 * Video analytics: mux-embed monitoring (with the channel's environment key and, when set, its own beacon domain) and
 * the datalake video calls (first frame, viewing time). Both start only after the first frame, once analytics may
 * run (consent, an idle moment: stores/analytics/gate.ts), so they never delay it; both stop with the player, and
 * when the page withdraws consent. Nothing here carries the user's token: the datalake gets the user id and email it
 * asks for, and mux gets neither. Nor does mux get a signed stream URL: it reports `video.currentSrc` (and any
 * `*_url` in its events) to Mux's collector, so every URL it holds is redacted first (see `redactMuxData`).
 */
import type { Settings, User } from '../api/contract.js';
import { loadChunk } from '../lib/chunks.js';
import { env } from '../lib/env.js';
import { randomId as uuid } from '../lib/ids.js';
import { redactMediaUrl } from '../lib/url.js';
import type { ChannelConfig } from '../stores/config.js';
import {
  analyticsAllowed,
  attributedPartner,
  commonFields,
  cut,
  datalakeSession,
  postDatalake,
  targetOf,
  viewerFields,
} from '../stores/analytics/datalake.js';
import { onAnalyticsConsent, whenAnalyticsMay } from '../stores/analytics/gate.js';

export { analyticsAllowed };

/** How often the viewing time is reported while playing. */
export const VIEWING_EVERY_MS = 30_000;

/** What the video payloads say of what is watched (spec: category, sport, gender, school and league). */
export interface VideoDetails {
  category?: string | undefined;
  sport?: string | undefined;
  gender?: string | undefined;
  school?: string | undefined;
  league?: string | undefined;
}

/** What is being watched. */
export interface VideoInfo {
  streamId: string;
  streamType: 'live' | 'vod';
  title: string;
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

/** What a monitor needs besides the video: the channel, the viewer, when the player started, and mux-embed. */
export interface MonitorContext {
  config: ChannelConfig;
  settings: Settings | undefined;
  user: User | undefined;
  startedAt: number;
  /** When the first frame showed, if before the monitor started (an adopted early video); default: now. */
  firstFrameAt?: number | undefined;
  /** Default: a dynamic import, so mux-embed is its own chunk fetched after the first frame. */
  loadMux?: MuxLoader | undefined;
  /** What the payloads say of the item (its category, sport, ...), looked up after the first frame. */
  details?: (() => Promise<VideoDetails>) | undefined;
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
  const { config, settings, user } = context;
  const cancels: (() => void)[] = [];
  let destroyed = false;
  let mux: Mux | undefined;
  const allowed = analyticsAllowed(config);
  const viewId = uuid();

  const stopMux = () => {
    const attached = (video as unknown as { mux?: { deleted?: boolean } }).mux;
    if (mux && attached && !attached.deleted) mux.destroyMonitor(video);
    mux = undefined;
  };

  // --- mux-embed, lazily
  const muxKey = settings?.mux?.env_key;
  if (muxKey && allowed) {
    whenAnalyticsMay(() => {
      if (destroyed) return;
      void (context.loadMux ?? loadMux)()
        .then((loaded) => {
          if (destroyed) return;
          mux = loaded;
          // A monitor destroyed earlier (an engine switch) leaves its stub behind; mux-embed would refuse to start.
          const previous = (video as unknown as { mux?: { deleted?: boolean } }).mux;
          if (previous?.deleted) delete (video as unknown as { mux?: unknown }).mux;
          const partner = attributedPartner();
          mux.monitor(video, {
            debug: false,
            ...(settings?.mux?.beacon_domain ? { beaconCollectionDomain: settings.mux.beacon_domain } : {}),
            // Signed stream URLs (a token in the path or the query) must not reach Mux's collector.
            stateDataTranslator: redactMuxData,
            emitTranslator: (event: string, data?: Record<string, unknown>) => [event, redactMuxData(data)],
            data: {
              env_key: muxKey,
              player_name: 'channel-player',
              player_init_time: context.startedAt,
              video_id: info.streamId,
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
  let details: VideoDetails = {};
  let detailsAsked: Promise<void> | undefined;
  /** The item's details, looked up once (after the first frame: it may load the schools' list). */
  const lookUp = () =>
    (detailsAsked ??= (context.details?.() ?? Promise.resolve({})).then(
      (found) => void (details = found),
      () => undefined,
    ));
  const send = (path: string, extra: Record<string, unknown>) => {
    const target = targetOf(config, settings);
    if (!target) return;
    void Promise.all([datalakeSession(target), lookUp()]).then(([session]) => {
      if (!session) return;
      void postDatalake(target, path, {
        ...commonFields(target),
        ...viewerFields(session, user),
        stream_id: info.streamId,
        stream_type: info.streamType,
        video_view_uuid: viewId,
        title: cut(info.title) ?? null,
        category: cut(details.category) ?? null,
        sport: cut(details.sport) ?? null,
        gender: cut(details.gender) ?? null,
        school: cut(details.school) ?? null,
        league: cut(details.league) ?? null,
        ...extra,
      });
    });
  };
  const profile = settings?.['yare-analytics'];
  if (profile && allowed) {
    whenAnalyticsMay(() => {
      if (!destroyed) send('video/event/', { event: 'first_frame', first_frame_ms: firstFrameMs });
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
        whenAnalyticsMay(() => send('video/viewing/', { viewing_time: seconds }));
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
    onAnalyticsConsent((state) => {
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
