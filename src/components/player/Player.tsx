/**
 * `<channel-player>`: plays an event or a library item, or shows why it cannot (region, schedule, sign-in,
 * paywall). The decisions live in the player store and src/media; this renders them and wires the <video>.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Preroll } from '../../api/contract.js';
import { HttpError } from '../../api/errors.js';
import { ChannelLoginRequestEvent, ChannelPurchaseRequestEvent } from '../../events/index.js';
import { env } from '../../env.js';
import { formatPrice } from '../../lib/money.js';
import { formatEventTime } from '../../lib/time.js';
import type { Offer } from '../../media/access.js';
import { hasCapability } from '../../media/access.js';
import { monitorVideo, type VideoMonitor } from '../../media/analytics.js';
import { nativeLacksSubtitles, startPlayback, type Playback, type PlaybackState } from '../../media/playback.js';
import { exclusiveSound } from '../../media/sound.js';
import { $config } from '../../stores/config.js';
import { createPlayer, prefetchPlayable, type PlayerState, type PlayerStore } from '../../stores/player.js';
import { $settings, $user } from '../../stores/session.js';
import { eventTitle } from '../ui/event.js';
import { errorText } from '../ui/messages.js';
import { ElementShell, useElement, type ShellProps } from '../ui/shell.js';
import { parsePlayerProps, PLAYER_PROPS, type PlayerOptions, type PlayerProps } from './attributes.js';
import { playerCss } from './styles.js';

/** A preroll that shows no frame within this time is skipped (it must never block the main video). */
export const PREROLL_TIMEOUT_MS = 8_000;
/** Seek step of the arrow keys, in seconds. */
const SEEK_STEP = 10;

/** The element's root component. */
export function Player(props: PlayerProps & ShellProps): ReactNode {
  const propsKey = JSON.stringify(PLAYER_PROPS.map((name) => props[name]));
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const parsed = useMemo(() => parsePlayerProps(props), [propsKey]);
  const targetKey = JSON.stringify(parsed.options.target ?? null);
  // The item is asked for while the session still starts (the body renders once it is ready).
  useEffect(() => {
    if (parsed.options.target) prefetchPlayable(parsed.options.target);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [targetKey]);
  return (
    <ElementShell container={props.container} lang={props.lang} css={playerCss}>
      {() => <PlayerBody {...parsed} targetKey={targetKey} />}
    </ElementShell>
  );
}

type Ready = Extract<PlayerState, { status: 'ready' }>;

function PlayerBody({ options, notices, targetKey }: ReturnType<typeof parsePlayerProps> & { targetKey: string }): ReactNode {
  const { t } = useElement();
  const store = useMemo(createPlayer, []);
  useEffect(() => () => store.destroy(), [store]);
  useEffect(() => {
    store.setTarget(options.target);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, targetKey]);
  const noticeKey = notices.map((n) => `${n.name}=${n.value}`).join('|');
  useEffect(() => {
    for (const n of notices) env().logger.warn(`<channel-player>: ignored ${n.name}="${n.value}"; expected ${n.expected}.`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [noticeKey]);

  const state = useStore(store.$state);
  return (
    <section className={options.embed ? 'player embed' : 'player'} aria-label={t('player.label')} part="player">
      {notices.map((n) => (
        <p className="notice" key={n.name} part="notice">
          {t('errors.badAttribute', { name: n.name, value: n.value, expected: n.expected })}
        </p>
      ))}
      {state.status === 'idle' ? (
        <Stage>
          <Panel>{t('player.noTarget')}</Panel>
        </Stage>
      ) : state.status === 'loading' ? (
        <Stage>
          <div className="panel" role="status" part="loading">
            <span className="spinner" aria-hidden="true" />
            <p>{t('player.loading')}</p>
          </div>
        </Stage>
      ) : state.status === 'error' ? (
        <Stage>
          <Panel role="alert" part="error">
            <p>{state.error instanceof HttpError && state.error.status === 404 ? t('player.notFound') : t('player.loadError')}</p>
            {state.error instanceof HttpError && state.error.status === 404 ? null : (
              <>
                <p className="detail">{errorText(state.error, t)}</p>
                <button type="button" className="btn" part="button retry" onClick={() => store.refresh()}>
                  {t('common.retry')}
                </button>
              </>
            )}
          </Panel>
        </Stage>
      ) : (
        <ReadyPlayer state={state} store={store} options={options} />
      )}
    </section>
  );
}

function Stage(props: { children: ReactNode; poster?: string | undefined }): ReactNode {
  return (
    <div className="stage" part="stage">
      {props.poster ? <img className="poster" src={props.poster} alt="" part="poster" /> : null}
      {props.children}
    </div>
  );
}

function Panel(props: { children: ReactNode; role?: string | undefined; part?: string }): ReactNode {
  return (
    <div className="panel" role={props.role} part={props.part ?? 'message'}>
      {props.children}
    </div>
  );
}

/** A stage that only says something. */
function MessageStage(props: { poster?: string | undefined; text: string; part: string; alert?: boolean }): ReactNode {
  return (
    <Stage poster={props.poster}>
      <Panel role={props.alert ? 'alert' : undefined} part={props.part}>
        <p>{props.text}</p>
      </Panel>
    </Stage>
  );
}

function ReadyPlayer(props: { state: Ready; store: PlayerStore; options: PlayerOptions }): ReactNode {
  const { t, lang, host } = useElement();
  const { state, store, options } = props;
  const { item, access, event } = state;
  const title = event ? eventTitle(event, t as never) : item.title;
  const user = useStore($user);
  const titleId = useId();

  let stage: ReactNode;
  switch (access.kind) {
    case 'play':
      stage = (
        // Keyed by the item, not its URL: a renewed (freshly signed) URL restarts the stream inside the same
        // stage, without the Play button or the preroll again.
        <VideoStage
          key={`${item.kind}-${item.id}`}
          store={store}
          url={access.url}
          live={access.live}
          title={title}
          poster={item.poster}
          streamId={`${item.kind === 'vod' ? 'vod-' : ''}${item.id}`}
          options={options}
        />
      );
      break;
    case 'geo-blocked':
      stage = <MessageStage poster={item.poster} alert part="message geo-blocked" text={t('errors.geoBlocked')} />;
      break;
    case 'upcoming':
      stage = (
        <Stage poster={item.poster}>
          <Countdown startsAt={access.startsAt} />
        </Stage>
      );
      break;
    case 'no-recording':
      stage = <MessageStage poster={item.poster} part="message no-recording" text={t('player.noRecording')} />;
      break;
    case 'sign-in':
      stage = (
        <Stage poster={item.poster}>
          <Panel part="message sign-in">
            <h3>{t('player.signIn.title')}</h3>
            <p>{t('player.signIn.text')}</p>
            <button
              type="button"
              className="btn"
              part="button sign-in-button"
              onClick={() => host.dispatchEvent(new ChannelLoginRequestEvent({ reason: 'watch', eventId: item.kind === 'event' ? item.id : undefined }))}
            >
              {t('player.signIn.button')}
            </button>
          </Panel>
        </Stage>
      );
      break;
    case 'paywall':
      stage = (
        <Stage poster={item.poster}>
          <Paywall state={state} onRetry={() => store.refresh()} />
        </Stage>
      );
      break;
    case 'no-capability':
      stage = <MessageStage poster={item.poster} part="message" text={t('player.noCapability')} />;
      break;
    default:
      stage = <MessageStage poster={item.poster} part="message" text={t('player.unavailable')} />;
  }

  if (options.embed) return stage;
  const when = item.startsAt ? formatEventTime(item.startsAt, event?.time_zone ?? event?.location?.time_zone, lang) : undefined;
  const canDownload =
    item.kind === 'event' && item.status === 'finished' && access.kind === 'play' && hasCapability(user, 'download');
  return (
    <>
      <header className="head" part="header">
        <h2 id={titleId} className="title" part="title">
          {title}
        </h2>
        <p className="meta">
          {item.status === 'live' ? (
            <span className="badge live" part="badge badge-live">
              {t('player.live')}
            </span>
          ) : item.status === 'upcoming' ? (
            <span className="badge" part="badge">
              {t('player.upcomingBadge')}
            </span>
          ) : (
            <span className="badge" part="badge">
              {t('player.onDemand')}
            </span>
          )}
          {when ? (
            <time dateTime={when.iso}>
              {when.date} · {when.time}
            </time>
          ) : null}
        </p>
      </header>
      {stage}
      {canDownload ? <DownloadButton store={store} /> : null}
    </>
  );
}

/** Countdown to the start; at zero it says the stream starts by itself (the store re-checks). */
function Countdown(props: { startsAt: number | undefined }): ReactNode {
  const { t, lang } = useElement();
  const [now, setNow] = useState(() => env().now());
  useEffect(() => {
    const id = setInterval(() => setNow(env().now()), 1000);
    return () => clearInterval(id);
  }, []);
  const left = props.startsAt ? Math.max(0, Math.round(props.startsAt - now / 1000)) : 0;
  const when = props.startsAt ? formatEventTime(props.startsAt, undefined, lang) : undefined;
  const days = Math.floor(left / 86400);
  const clock = [Math.floor((left % 86400) / 3600), Math.floor((left % 3600) / 60), left % 60]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
  return (
    <div className="panel" part="message countdown">
      {left > 0 ? (
        <>
          <p>{t('player.upcoming.title')}</p>
          <p className="clock" role="timer" aria-live="off" part="countdown-clock">
            {days > 0 ? `${t('player.upcoming.days', { count: days })} ` : ''}
            {clock}
          </p>
          {when ? <p className="detail">{t('player.upcoming.at', { date: when.date, time: when.time })}</p> : null}
        </>
      ) : (
        <p role="status">{t('player.upcoming.soon')}</p>
      )}
    </div>
  );
}

function Paywall(props: { state: Ready; onRetry(): void }): ReactNode {
  const { t, lang, currency, host } = useElement();
  const { state } = props;
  const offers = state.offers;
  const choose = (offer: Offer) =>
    host.dispatchEvent(
      new ChannelPurchaseRequestEvent({
        eventId: state.item.kind === 'event' ? state.item.id : undefined,
        offer: { type: offer.type, id: offer.id, packageId: offer.type === 'event' ? offer.packageId : undefined },
      }),
    );
  const label = (offer: Offer) =>
    offer.type === 'event'
      ? t('player.paywall.event')
      : offer.type === 'package'
        ? offer.teamPass
          ? t('player.paywall.team')
          : t('player.paywall.package')
        : t(`player.paywall.${offer.period}`);
  const price = (offer: Offer) => {
    const amount = formatPrice(offer.price, currency, lang);
    if (offer.type !== 'subscription') return amount;
    return offer.period === 'annual' ? t('player.paywall.perYear', { price: amount }) : t('player.paywall.perMonth', { price: amount });
  };
  return (
    <div className="panel paywall" part="paywall">
      <h3>{t('player.paywall.title')}</h3>
      {!offers || offers.status === 'loading' ? (
        <p role="status">{t('player.paywall.loading')}</p>
      ) : offers.status === 'error' ? (
        <div role="alert">
          <p>{t('player.paywall.error')}</p>
          <button type="button" className="btn" onClick={props.onRetry}>
            {t('common.retry')}
          </button>
        </div>
      ) : offers.offers.length === 0 ? (
        <p>{t('player.paywall.none')}</p>
      ) : (
        <>
          <p>{t('player.paywall.text')}</p>
          <ul className="offers" part="offers">
            {offers.offers.map((offer) => (
              <li key={`${offer.type}-${offer.id}`} className="offer" part="offer">
                <span className="offer-kind">{label(offer)}</span>
                <span className="offer-name">{offer.name}</span>
                <span className="offer-price" part="offer-price">
                  {price(offer)}
                </span>
                {offer.type === 'subscription' && offer.trialDays ? (
                  <span className="offer-trial">{t('player.paywall.trial', { days: offer.trialDays })}</span>
                ) : null}
                <button
                  type="button"
                  className="btn"
                  part="button offer-button"
                  aria-label={t('player.paywall.buy', { name: offer.name })}
                  onClick={() => choose(offer)}
                >
                  {t('player.paywall.choose')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function DownloadButton(props: { store: PlayerStore }): ReactNode {
  const { t } = useElement();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const url = await props.store.download();
      const a = document.createElement('a');
      a.href = url;
      a.download = '';
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="actions" part="actions">
      <button type="button" className="btn secondary" part="button download" disabled={busy} onClick={() => void download()}>
        {busy ? t('player.downloading') : t('player.download')}
      </button>
      {failed ? <p role="alert">{t('player.downloadError')}</p> : null}
    </div>
  );
}

interface VideoStageProps {
  store: PlayerStore;
  url: string;
  live: boolean;
  title: string;
  poster?: string | undefined;
  streamId: string;
  options: PlayerOptions;
}

type Phase = { kind: 'idle' } | { kind: 'preroll'; preroll: Preroll } | { kind: 'main' };

/**
 * The <video> and what happens in it: optional preroll (labelled "Ad", skipped on failure), then the main
 * stream, its recovery overlays, keyboard shortcuts, and analytics after the first frame.
 */
function VideoStage(props: VideoStageProps): ReactNode {
  const { t } = useElement();
  const { store, url, live, options } = props;
  const video = useRef<HTMLVideoElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [started, setStarted] = useState(options.autoplay);
  const [playback, setPlayback] = useState<PlaybackState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [mutedByBrowser, setMutedByBrowser] = useState(false);
  const [adLeft, setAdLeft] = useState<number | undefined>(undefined);
  // The browser's controls appear with the main video's first frame: building them earlier costs the main thread
  // a style pass while the stream starts.
  const [framed, setFramed] = useState(false);
  // Captions the browser's own engine cannot show: offered, then played through hls.js from where we were.
  const [captionsOffer, setCaptionsOffer] = useState(false);
  const [captions, setCaptions] = useState<{ at: number } | undefined>(undefined);
  const startedAt = useRef(env().now());
  // Where the next start of the main stream resumes a non-live stream (after a renewed URL or a Retry).
  const resumeAt = useRef<number | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // `autoplay` added after the stage showed its Play button (a host script sets it late): start now.
  useEffect(() => {
    if (options.autoplay) setStarted(true);
  }, [options.autoplay]);

  // Muted attribute and sound exclusivity.
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    v.muted = options.muted;
    return exclusiveSound(v);
  }, [options.muted]);

  // Once started: preroll first (if any), then the main video.
  useEffect(() => {
    if (!started) return;
    let cancelled = false;
    void store.takePreroll().then(
      (preroll) => !cancelled && setPhase(preroll ? { kind: 'preroll', preroll } : { kind: 'main' }),
      () => !cancelled && setPhase({ kind: 'main' }),
    );
    return () => {
      cancelled = true;
    };
  }, [started, store]);

  // The preroll: plays once; an error, a refused stream or no frame in time skips it.
  useEffect(() => {
    const v = video.current;
    if (!v || phase.kind !== 'preroll') return;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      setPhase({ kind: 'main' });
    };
    const timeout = env().setTimeout(finish, PREROLL_TIMEOUT_MS);
    const playbackOfAd: Playback = startPlayback({
      video: v,
      url: phase.preroll.url,
      live: false,
      autoplay: true,
      onState: (s) => (s.kind === 'error' || s.kind === 'denied') && finish(),
      onFirstFrame: () => env().clearTimeout(timeout),
    });
    const tick = () => setAdLeft(Number.isFinite(v.duration) ? Math.max(0, Math.ceil(v.duration - v.currentTime)) : undefined);
    v.addEventListener('ended', finish);
    v.addEventListener('timeupdate', tick);
    return () => {
      env().clearTimeout(timeout);
      v.removeEventListener('ended', finish);
      v.removeEventListener('timeupdate', tick);
      playbackOfAd.destroy();
      setAdLeft(undefined);
    };
  }, [phase]);

  // The main video.
  useEffect(() => {
    const v = video.current;
    if (!v || phase.kind !== 'main') return;
    let monitor: VideoMonitor | undefined;
    let cancelled = false;
    const startAt = resumeAt.current ?? captions?.at;
    resumeAt.current = undefined;
    const running = startPlayback({
      video: v,
      url,
      live,
      prefer: captions ? 'mse' : options.prefer,
      startAt,
      captions: Boolean(captions),
      autoplay: true,
      onState: setPlayback,
      // Signed stream URLs are bound to the client address and expire after 2 h: a refusal mid-play gets one
      // freshly signed URL from the store; the new `url` then restarts this effect where the stream stopped.
      onRefused: (refusal) => {
        const renewing = store.renewStream(refusal);
        if (!renewing) return false;
        // Set before the new URL arrives: the store's update may re-run this effect before the promise settles.
        resumeAt.current = refusal.at;
        startedAt.current = env().now();
        return renewing.then((fresh) => {
          if (fresh !== undefined) return true;
          resumeAt.current = undefined;
          return false;
        });
      },
      onFirstFrame: (engine) => {
        setFramed(true);
        if (engine === 'native') void nativeLacksSubtitles(v, url).then((lacks) => !cancelled && setCaptionsOffer(lacks));
        const config = $config.get();
        if (config) {
          monitor = monitorVideo(
            v,
            { streamId: props.streamId, streamType: live ? 'live' : 'vod', title: props.title },
            { config, settings: $settings.get(), user: $user.get(), startedAt: startedAt.current },
          );
        }
      },
    });
    const onVolume = () => setMutedByBrowser(v.muted && !options.muted);
    v.addEventListener('volumechange', onVolume);
    return () => {
      cancelled = true;
      v.removeEventListener('volumechange', onVolume);
      monitor?.destroy();
      running.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase, url, live, options.prefer, attempt, captions]);

  // Retry after "gave-up" or an error: the URL in use may be stale (bound to another client address or past its
  // 2 h), so the item is reloaded for a freshly signed one first. A new URL restarts the stream by itself; the
  // same one (or a failed reload) is started again as it is.
  const retry = () => {
    const v = video.current;
    resumeAt.current = !live && v && v.currentTime > 0 ? v.currentTime : undefined;
    startedAt.current = env().now();
    setPlayback({ kind: 'reconnecting' });
    void store.reloadStream().then((fresh) => {
      if (mounted.current && (fresh === undefined || fresh === url)) setAttempt((n) => n + 1);
    });
  };

  const togglePlay = useCallback(() => {
    const v = video.current;
    if (!v) return;
    if (!started) return setStarted(true);
    if (v.paused) void v.play().catch(() => undefined);
    else v.pause();
  }, [started]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const v = video.current;
    if (!v || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    // Buttons inside the stage keep their own keys, and the browser's own controls already toggle on space
    // when the video itself has focus (handling it here too would toggle twice).
    if (target.tagName === 'BUTTON') return;
    if (e.key === ' ' && target.tagName === 'VIDEO' && (target as HTMLVideoElement).controls) return;
    const inAd = phase.kind === 'preroll';
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
      case 'ArrowRight':
        if (live || inAd || !Number.isFinite(v.duration)) return;
        v.currentTime = Math.min(v.duration, Math.max(0, v.currentTime + (e.key === 'ArrowLeft' ? -SEEK_STEP : SEEK_STEP)));
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const overlay = (() => {
    if (!started) {
      return (
        <button type="button" className="big-play" part="button play" aria-label={t('player.play', { title: props.title })} onClick={togglePlay}>
          <span aria-hidden="true">▶</span>
        </button>
      );
    }
    if (phase.kind !== 'main') return null;
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
            <button type="button" className="btn" part="button retry" onClick={retry}>
              {t('common.retry')}
            </button>
          </div>
        );
      case 'denied':
        return (
          <div className="overlay panel" role="alert" part="message denied">
            <p>{playback.status === 404 ? t('player.denied404') : t('player.denied403')}</p>
          </div>
        );
      default:
        return null;
    }
  })();

  return (
    <div
      className={`stage video${phase.kind === 'preroll' ? ' in-ad' : ''}`}
      part="stage"
      ref={stage}
      onKeyDown={onKeyDown}
      aria-label={t('player.keyboard')}
      role="group"
    >
      <video
        ref={video}
        part="video"
        playsInline
        poster={props.poster}
        controls={started && phase.kind === 'main' && framed && playback.kind !== 'denied'}
        aria-label={props.title}
        crossOrigin="anonymous"
        preload="none"
      />
      {phase.kind === 'preroll' ? (
        <div className="ad-label" part="ad-label" role="status" aria-label={t('player.adLabel')}>
          {adLeft !== undefined ? t('player.adRemaining', { seconds: adLeft }) : t('player.ad')}
        </div>
      ) : null}
      {mutedByBrowser && phase.kind === 'main' ? (
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
      {captionsOffer && !captions && phase.kind === 'main' ? (
        <button
          type="button"
          className="btn captions"
          part="button captions"
          onClick={() => {
            setCaptionsOffer(false);
            setCaptions({ at: video.current?.currentTime ?? 0 });
          }}
        >
          {t('player.captions')}
        </button>
      ) : null}
      {overlay}
    </div>
  );
}
