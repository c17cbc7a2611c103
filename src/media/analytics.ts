/**
 * Video analytics: mux-embed monitoring (with the channel's environment key and, when set, its own beacon domain) and
 * the datalake video calls (first frame, viewing time). Both start only after the first frame, from idle time, so they
 * never delay it; both stop with the player. Nothing here carries the user's token: the datalake gets the user id and
 * email it asks for, and mux gets neither. Nor does mux get a signed stream URL: it reports `video.currentSrc` (and any
 * `*_url` in its events) to Mux's collector, so every URL it holds is redacted first (see `redactMuxData`).
 */
import type { Settings, User } from '../api/contract.js';
import { env } from '../lib/env.js';
import { randomId as uuid } from '../lib/ids.js';
import { redactMediaUrl } from '../lib/url.js';
import type { ChannelConfig } from '../stores/config.js';

/** How often the viewing time is reported while playing. */
export const VIEWING_EVERY_MS = 30_000;
/** The datalake session lives this long. */
export const ANALYTICS_SESSION_MS = 24 * 3_600_000;

/** What is being watched. */
export interface VideoInfo {
  streamId: string;
  streamType: 'live' | 'vod';
  title: string;
  category?: string | undefined;
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
  /** Default: a dynamic import, so mux-embed is its own chunk fetched after the first frame. */
  loadMux?: MuxLoader | undefined;
}

const loadMux: MuxLoader = async () => (await import('mux-embed')).default as unknown as Mux;

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

/** Whether analytics may be sent from this page (nothing from localhost unless configured). */
export function analyticsAllowed(config: ChannelConfig): boolean {
  if (config.analyticsExplicit) return true;
  const host = env().location()?.hostname ?? '';
  return !/^(localhost|127\.0\.0\.1|\[::1\])$/.test(host);
}

/** Runs `fn` when the browser is idle (or soon), so analytics never compete with the first frame. */
function whenIdle(fn: () => void): () => void {
  const w = globalThis as unknown as {
    requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number;
    cancelIdleCallback?: (id: number) => void;
  };
  if (w.requestIdleCallback && w.cancelIdleCallback) {
    const id = w.requestIdleCallback(fn, { timeout: 2_000 });
    return () => w.cancelIdleCallback!(id);
  }
  const id = env().setTimeout(fn, 200);
  return () => env().clearTimeout(id);
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

  // --- mux-embed, lazily
  const muxKey = settings?.mux?.env_key;
  if (muxKey && allowed) {
    cancels.push(
      whenIdle(() => {
        void (context.loadMux ?? loadMux)()
          .then((loaded) => {
            if (destroyed) return;
            mux = loaded;
            // A monitor destroyed earlier (an engine switch) leaves its stub behind; mux-embed would refuse to start.
            const previous = (video as unknown as { mux?: { deleted?: boolean } }).mux;
            if (previous?.deleted) delete (video as unknown as { mux?: unknown }).mux;
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
              },
            });
          })
          .catch((error: unknown) =>
            env().logger.warn(`<channel-player>: video analytics (mux) did not load: ${String(error)}`),
          );
      }),
    );
  }

  // --- datalake
  const profile = settings?.['yare-analytics'];
  if (profile && allowed) {
    const base = `${config.analyticsUrl}/datalake`;
    const payload = (extra: Record<string, unknown>) => ({
      profile,
      session_uuid: datalakeSession(profile),
      user_id: user?.id,
      user_email: user?.email,
      stream_id: info.streamId,
      stream_type: info.streamType,
      video_view_uuid: viewId,
      category: info.category,
      origin_url: pageUrl(),
      ...(outerTracker() ? { trk: outerTracker() } : {}),
      ...extra,
    });
    const send = (path: string, body: Record<string, unknown>) => void postJson(`${base}/${path}`, body);

    cancels.push(
      whenIdle(() => {
        if (destroyed) return;
        void ensureSession(base, profile).then(() => {
          if (!destroyed)
            send(
              'video/event/',
              payload({ event: 'first_frame', first_frame_ms: Math.round(env().now() - context.startedAt) }),
            );
        });
      }),
    );
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
      if (watched >= 1_000) send('video/viewing/', payload({ viewing_time: Math.round(watched / 1000) }));
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

  return {
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const cancel of cancels) cancel();
      const attached = (video as unknown as { mux?: { deleted?: boolean } }).mux;
      if (mux && attached && !attached.deleted) mux.destroyMonitor(video);
    },
  };
}

/** Posts one analytics body (JSON, no cookies, surviving the page's unload); never rejects. */
function postJson(url: string, body: Record<string, unknown>): Promise<void> {
  return env()
    .fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'omit',
      keepalive: true,
      body: JSON.stringify(body),
    })
    .then(
      () => undefined,
      () => undefined,
    );
}

/** The page's address without its query or hash (they may carry one-time values). */
function pageUrl(): string | undefined {
  const page = env().location();
  return page ? page.origin + page.pathname : undefined;
}

/** The datalake session id, created when missing and kept 24 h. */
function datalakeSession(profile: string): string {
  const key = `analytics.session.${profile}`;
  const stored = env().storage.get(key, (v): v is string => typeof v === 'string' && v.length > 0);
  if (stored) return stored;
  const id = uuid();
  env().storage.set(key, id, ANALYTICS_SESSION_MS);
  return id;
}

const sessions = new Map<string, Promise<void>>();

/** Registers the datalake session once per page (POST /datalake/session/). */
function ensureSession(base: string, profile: string): Promise<void> {
  const session = datalakeSession(profile);
  let pending = sessions.get(session);
  if (!pending) {
    const screenSize = typeof screen === 'undefined' ? undefined : `${screen.width}x${screen.height}`;
    pending = env()
      .fetch(`${base}/session/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'omit',
        body: JSON.stringify({
          profile,
          session: session,
          device_type: /Mobi/i.test(navigator.userAgent) ? 'mobile' : 'desktop',
          user_agent: navigator.userAgent,
          resolution: screenSize,
          platform: 'web',
        }),
      })
      .then(() => undefined)
      .catch(() => undefined);
    sessions.set(session, pending);
  }
  return pending;
}

/** How long the outer tracker (`trk` of a landing address) is kept and sent with analytics. */
export const OUTER_TRACKER_MS = 3 * 3_600_000;
const TRACKER_KEY = 'analytics.trk';

/** Keeps the outer tracker of a landing address for 3 h (a later one replaces it). */
export function keepOuterTracker(trk: string | undefined): void {
  const value = trk?.trim();
  if (value && value.length <= 200) env().storage.set(TRACKER_KEY, value, OUTER_TRACKER_MS);
}

/** The outer tracker kept, if any. */
export function outerTracker(): string | undefined {
  return env().storage.get(TRACKER_KEY, (v): v is string => typeof v === 'string') ?? undefined;
}

/**
 * Sends one datalake event (`POST datalake/event/`: visit_page, login) with the session, the viewer's id and email,
 * the page's address without query and the outer tracker. Never throws, never waits, nothing from localhost unless
 * the analytics URL was given, nothing without the channel's analytics key.
 */
export function datalakeEvent(
  config: ChannelConfig,
  settings: Settings | undefined,
  user: User | undefined,
  event: string,
  extras: Record<string, unknown> = {},
): void {
  const profile = settings?.['yare-analytics'];
  if (!profile || !analyticsAllowed(config)) return;
  const base = `${config.analyticsUrl}/datalake`;
  const trk = outerTracker();
  void ensureSession(base, profile).then(() =>
    postJson(`${base}/event/`, {
      profile,
      session_uuid: datalakeSession(profile),
      user_id: user?.id,
      user_email: user?.email,
      event,
      origin_url: pageUrl(),
      ...(trk ? { trk } : {}),
      ...extras,
    }),
  );
}
