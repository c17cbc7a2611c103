/**
 * The <video> of a player and what shows over it: the Play button, the "Ad" label, the recovery overlays, the
 * Unmute and Captions buttons, and the keyboard shortcuts. What happens in the video is the media session's
 * (src/media/session.ts); this renders its state and hands it the viewer's actions.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  idleSession,
  initialize,
  type MediaControls,
  type MediaSession,
  type SessionState,
} from '../../media/session.js';
import { forgetResume, resumePosition, saveResume } from '../../media/resume.js';
import {
  adoptEarlyVideo,
  dropEarlyBar,
  dropEarlyLabel,
  earlyBarFocus,
  moveNode,
  releaseEarlyVideo,
} from '../../lib/early-video.js';
import type { PlayerStore } from '../../stores/player.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';
import { MediaBar } from './MediaBar.js';
import type { PlayerOptions } from './options.js';
// The player's English texts (`player.*`) travel with its code.
import '../../i18n/player.js';

/** Seek step of the arrow keys, in seconds. */
const SEEK_STEP = 10;
/** The resume position is saved at most this often while playing (seconds of video); also on pause and seek. */
const RESUME_SAVE_EVERY_S = 5;

/** What a video stage plays. */
export interface VideoStageProps {
  store: PlayerStore;
  url: string;
  live: boolean;
  title: string;
  poster?: string | undefined;
  streamId: string;
  options: PlayerOptions;
  /**
   * What shows under the stage (the clip maker), given the main video's controls once the main stream plays
   * (undefined before it and during the preroll: an ad is never clipped).
   */
  below?: ((media: MediaControls | undefined) => ReactNode) | undefined;
}

/** A stage with the video: optional preroll, then the main stream with its recovery. */
export function VideoStage(props: VideoStageProps): ReactNode {
  const { t } = useElement();
  const { store, url, live, options } = props;
  const media = useViewHost().media;
  // Where the viewer left this on-demand video, read once: the stream starts there, with Start over offered (read
  // before an early video is taken: that one started from the beginning).
  const [resumedAt, setResumedAt] = useState(() => {
    const viewer = live ? undefined : store.resumeViewer();
    return viewer ? resumePosition(viewer, props.streamId) : undefined;
  });
  // The loader's early video, when it plays this stream already (src/lib/early-video.ts): the stage plays on it.
  const [handover] = useState(() =>
    media?.takeEarlyVideo?.(url, {
      autoplay: options.autoplay,
      muted: options.muted,
      prefer: options.prefer,
      startAt: resumedAt,
    }),
  );
  const early = handover?.video;
  const video = useRef<HTMLVideoElement>(early ?? null);
  // When the early video started and showed its first frame: handed to the first session only, so a session started
  // again on this stage (the store changed) counts neither a second time.
  const earlyTimes = useRef(handover && { startedAt: handover.startedAt, framedAt: handover.framedAt });
  const stage = useRef<HTMLDivElement>(null);
  const session = useRef<MediaSession | undefined>(undefined);
  const [state, setState] = useState<SessionState>(() => idleSession(options.autoplay));
  const stateRef = useRef(state);
  stateRef.current = state;
  const liveRef = useRef(live);
  liveRef.current = live;
  const source = { url, live, prefer: options.prefer, muted: options.muted };

  // The early video takes the place of the stage's own, before the browser paints: it never leaves the document,
  // so it plays on.
  useLayoutEffect(() => {
    if (!handover) return;
    const at = stage.current!;
    moveNode(at, adoptEarlyVideo(handover), at.firstChild);
    // The early video's bar goes where this stage's own will show, until that one does (below).
    if (handover.bar) moveNode(at.parentNode!, handover.bar.element, at.nextSibling);
    // Released with the stage, even before its session played anything on it: nothing more is fetched.
    return () => releaseEarlyVideo(handover);
  }, [handover]);

  // A layout effect: the stream is set before the browser paints the stage, not a frame later.
  useLayoutEffect(() => {
    const times = earlyTimes.current;
    earlyTimes.current = undefined;
    const running = initialize(video.current!, {
      ...source,
      startAt: resumedAt,
      info: { streamId: props.streamId, streamType: live ? 'live' : 'vod', title: props.title },
      takePreroll: async () => {
        // An adopted early video brings the loader's choice for this stream (its preroll, or none): this view's one
        // choice, the preroll counted as seen.
        if (!handover || handover.stream !== url) return store.takePreroll();
        const preroll = await store.takePreroll(handover.preroll ?? null);
        // An advert that ended (or broke) before the player's code came was shown: on to the event.
        return preroll && (early!.ended || early!.error) ? undefined : preroll;
      },
      renewStream: store.renewStream,
      reloadStream: store.reloadStream,
      analytics: store.analytics,
      // Its analytics start when the early video did, and its first frame is the one the early video showed.
      early: times,
      onState: (next) => {
        stateRef.current = next;
        media?.stateChanged(next);
        setState(next);
      },
    });
    session.current = running;
    // The element's media API (play(), currentTime, the re-dispatched events) answers for this stage.
    const detach = media?.attach({
      video: video.current!,
      stage: stage.current!,
      live: () => liveRef.current,
      session: () => session.current,
      state: () => stateRef.current,
    });
    return () => {
      detach?.();
      session.current = undefined;
      running.teardown();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one session per stage: the stage is keyed by the item; a new URL goes through `update` below
  }, [store]);

  // Remembers where the viewer is in an on-demand video (every few seconds, on pause, seek and leaving the page),
  // and forgets it at the end.
  useEffect(() => {
    const v = video.current!;
    let saved: number | undefined;
    const watching = () => !liveRef.current && stateRef.current.phase === 'main' && stateRef.current.framed;
    const save = (always: boolean) => {
      const viewer = store.resumeViewer();
      if (!viewer || !watching()) return;
      if (!always && saved !== undefined && Math.abs(v.currentTime - saved) < RESUME_SAVE_EVERY_S) return;
      saved = v.currentTime;
      saveResume(viewer, props.streamId, v.currentTime, v.duration);
    };
    const onTime = () => save(false);
    const onStop = () => save(true);
    const onEnded = () => {
      const viewer = store.resumeViewer();
      if (viewer && watching()) forgetResume(viewer, props.streamId);
    };
    v.addEventListener('timeupdate', onTime);
    v.addEventListener('pause', onStop);
    v.addEventListener('seeked', onStop);
    v.addEventListener('ended', onEnded);
    window.addEventListener('pagehide', onStop);
    return () => {
      save(true);
      v.removeEventListener('timeupdate', onTime);
      v.removeEventListener('pause', onStop);
      v.removeEventListener('seeked', onStop);
      v.removeEventListener('ended', onEnded);
      window.removeEventListener('pagehide', onStop);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one set of listeners per stage: the stage is keyed by the item, so `props.streamId` stays
  }, [store]);

  useEffect(() => {
    session.current?.update(source);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `source` is made anew each render: these are its values
  }, [url, live, options.prefer, options.muted]);

  // Autoplay, also when the attribute is added after the stage showed its Play button (a host script sets it late).
  useEffect(() => {
    if (options.autoplay) session.current?.start();
  }, [options.autoplay]);

  // Analytics wait for the first frame, or for the viewer (no autoplay), or for an error: whichever comes first.
  const settled =
    state.framed ||
    !options.autoplay ||
    state.playback.kind === 'error' ||
    state.playback.kind === 'denied' ||
    state.playback.kind === 'gave-up';
  useEffect(() => {
    if (settled) store.playbackSettled();
  }, [settled, store]);

  const { phase, playback } = state;
  // The loader's "Ad" label over an adopted preroll stays until this stage's session has started (its own label,
  // or the event after the advert): never two labels, never an unlabelled advert.
  useLayoutEffect(() => {
    if (handover && phase !== 'idle') dropEarlyLabel(handover);
  }, [handover, phase]);
  const togglePlay = () => session.current?.togglePlay();

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const v = video.current;
    if (!v || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    // Buttons inside the stage keep their own keys, and the browser's own controls already toggle on space
    // when the video itself has focus (handling it here too would toggle twice).
    if (target.tagName === 'BUTTON') return;
    if (e.key === ' ' && target.tagName === 'VIDEO' && (target as HTMLVideoElement).controls) return;
    switch (e.key) {
      case ' ':
      case 'k':
      case 'K':
        togglePlay();
        break;
      case 'f':
      case 'F':
        if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
        else void stage.current?.requestFullscreen?.().catch(() => undefined);
        break;
      case 'm':
      case 'M':
        v.muted = !v.muted;
        break;
      case 'ArrowLeft':
      case 'ArrowRight': {
        // On demand: the whole video; live: the window the stream keeps (DVR), up to its edge.
        const seekable = v.seekable;
        if (phase === 'preroll' || !seekable.length) return;
        const first = live ? seekable.start(0) : 0;
        const last = live ? seekable.end(seekable.length - 1) : v.duration;
        if (!Number.isFinite(last)) return;
        v.currentTime = Math.min(
          last,
          Math.max(first, v.currentTime + (e.key === 'ArrowLeft' ? -SEEK_STEP : SEEK_STEP)),
        );
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  };

  const controls = state.started && phase === 'main' && state.framed && playback.kind !== 'denied';
  const main = state.started && phase === 'main' ? session.current?.controls : undefined;
  const bar =
    state.started &&
    phase === 'main' &&
    state.framed &&
    playback.kind !== 'error' &&
    playback.kind !== 'denied' &&
    playback.kind !== 'gave-up' &&
    video.current;
  // The early video's bar (and the browser's controls it came with) stays until this stage's own bar shows, in the same
  // paint, or until the stage shows none (an error, a refusal, an advert).
  const barSettled =
    Boolean(bar) ||
    phase === 'preroll' ||
    playback.kind === 'error' ||
    playback.kind === 'denied' ||
    playback.kind === 'gave-up';
  useLayoutEffect(() => {
    if (!handover || !barSettled) return;
    // A control of the early bar that had the keyboard focus hands it to the same control of this bar.
    const control = earlyBarFocus(handover);
    dropEarlyBar(handover);
    if (control) stage.current?.parentNode?.querySelector<HTMLElement>(`[part~="media-bar"] ${control}`)?.focus();
  }, [handover, barSettled]);
  // What React sets on its own <video>, set on an adopted one.
  useLayoutEffect(() => {
    if (!early) return;
    early.controls = controls || Boolean(handover?.bar);
    if (props.poster) early.poster = props.poster;
    else early.removeAttribute('poster');
    early.setAttribute('aria-label', props.title);
  });

  return (
    <>
      <div
        className={`stage video${phase === 'preroll' ? ' in-ad' : ''}`}
        part="stage"
        ref={stage}
        onKeyDown={onKeyDown}
        aria-label={t('player.keyboard')}
        role="group"
      >
        {early ? null : (
          <video
            ref={video}
            part="video"
            playsInline
            poster={props.poster}
            controls={controls}
            aria-label={props.title}
            crossOrigin="anonymous"
            preload="none"
          />
        )}
        {phase === 'preroll' ? (
          <div className="ad-label" part="ad-label" role="status" aria-label={t('player.adLabel')}>
            {state.adLeft !== undefined ? t('player.adRemaining', { seconds: state.adLeft }) : t('player.ad')}
          </div>
        ) : null}
        {state.mutedByBrowser && phase === 'main' ? (
          <button
            type="button"
            className="btn unmute"
            part="button unmute"
            onClick={() => {
              if (video.current) video.current.muted = false;
            }}
          >
            {t('player.unmute')}
          </button>
        ) : null}
        {state.captionsOffer && phase === 'main' ? (
          <button
            type="button"
            className="btn captions"
            part="button captions"
            onClick={() => session.current?.showCaptions()}
          >
            {t('player.captions')}
          </button>
        ) : null}
        <Overlay state={state} title={props.title} onPlay={togglePlay} onRetry={() => session.current?.retry()} />
      </div>
      {bar ? (
        <MediaBar
          video={bar}
          live={live}
          state={state}
          session={session.current}
          resumedAt={resumedAt}
          onStartOver={() => {
            const viewer = store.resumeViewer();
            if (viewer) forgetResume(viewer, props.streamId);
            setResumedAt(undefined);
            if (video.current) video.current.currentTime = 0;
          }}
        />
      ) : null}
      {props.below?.(main)}
    </>
  );
}

/** What covers the video: the Play button before the start, then the main stream's recovery and refusals. */
function Overlay(props: { state: SessionState; title: string; onPlay(): void; onRetry(): void }): ReactNode {
  const { t } = useElement();
  const { started, phase, playback } = props.state;
  if (!started) {
    return (
      <button
        type="button"
        className="big-play"
        part="button play"
        aria-label={t('player.play', { title: props.title })}
        onClick={props.onPlay}
      >
        <span aria-hidden="true">▶</span>
      </button>
    );
  }
  if (phase !== 'main') return null;
  switch (playback.kind) {
    case 'reconnecting':
      return (
        <div className="overlay" role="status" part="reconnecting">
          <span className="spinner" aria-hidden="true" />
          {t('player.reconnecting')}
        </div>
      );
    case 'gave-up':
    case 'error':
      return (
        <div className="overlay panel" role="alert" part="message playback-error">
          <p>{playback.kind === 'gave-up' ? t('player.gaveUp') : t('player.playbackError')}</p>
          <button type="button" className="btn" part="button retry" onClick={props.onRetry}>
            {t('common.retry')}
          </button>
        </div>
      );
    case 'denied':
      return (
        <div className="overlay panel" role="alert" part="message denied">
          <p>{playback.status === 404 ? t('player.denied404') : t('player.denied403')}</p>
          {/* Try again reloads the item: a fresh signed URL, or what the viewer may do now (a paywall). */}
          <button type="button" className="btn" part="button retry" onClick={props.onRetry}>
            {t('common.retry')}
          </button>
        </div>
      );
    default:
      return null;
  }
}
