/**
 * The player view: plays an event, a library item or a clip, or shows why it cannot (region, schedule, sign-in,
 * paywall, a clip still being made). A signed-in user with `clipping` gets the clip maker under the main video of a
 * live event or a recording (a lazy chunk). The decisions live in the player store and src/media; this renders
 * them. The tag (`<channel-player>`) and the site render it alike; what it asks of its root goes through
 * `useViewHost`.
 */
import { useStore } from '../ui/use-store.js';
import { Suspense, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { lazyChunk } from '../ui/lazy.js';
import { HttpError } from '../../api/errors.js';
import { formatEventTime } from '../../lib/time.js';
import type { MediaControls } from '../../media/session.js';
import { hasCapability } from '../../stores/commerce/access.js';
import { createPlayer, type PlayerState, type PlayerStore } from '../../stores/player.js';
import { $user } from '../../stores/session.js';
import type { AttributeNotice } from '../ui/attributes.js';
import { eventTitle } from '../ui/event.js';
import { errorText } from '../ui/messages.js';
import { NamespaceReady } from '../ui/namespace.js';
import { AttributeNotices, LoadingPanel } from '../ui/panels.js';
import { useElement } from '../ui/shell.js';
import { saveFile } from '../ui/download.js';
import { useViewHost } from '../ui/view.js';
import { ClipMaking, ClipMeta } from './ClipInfo.js';
import { Countdown } from './Countdown.js';
import { Paywall } from './Paywall.js';
import type { PlayerOptions } from './options.js';
import { VideoStage } from './VideoStage.js';
// The player's English texts (`player.*`) travel with its code.
import '../../i18n/player.js';

export type { PlayerOptions } from './options.js';

type Ready = Extract<PlayerState, { status: 'ready' }>;

const ClipMaker = lazyChunk('the clip maker', () => import('./ClipMaker.js'));

/** A player with its own store; `notices` are the ignored attribute values of the tag that renders it. */
export function PlayerView(props: {
  options: PlayerOptions;
  notices?: readonly AttributeNotice[] | undefined;
}): ReactNode {
  const { options } = props;
  const { t } = useElement();
  const store = useMemo(createPlayer, []);
  useEffect(() => () => store.destroy(), [store]);
  const targetKey = JSON.stringify(options.target ?? null);
  useEffect(() => {
    store.setTarget(options.target);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `targetKey` is the target by value: new options naming the same target do not reload the player
  }, [store, targetKey]);

  const state = useStore(store.$state);
  const clip = options.target?.kind === 'clip';
  // What a waiting play() of the element's media API is told when nothing can play (a paywall, an error...).
  const media = useViewHost().media;
  const blocked =
    state.status === 'error'
      ? 'The item could not be loaded.'
      : state.status === 'idle' && !options.target
        ? 'There is nothing to play.'
        : state.status === 'ready' && state.access.kind !== 'play'
          ? `The item cannot play here (${state.access.kind}).`
          : undefined;
  useEffect(() => media?.unavailable(blocked), [media, blocked]);
  // The loader's early video is released unless a stage adopted it (src/lib/early-video.ts): what shows is not its
  // stream, or the view goes.
  const shown = state.status === 'ready' || state.status === 'error' || (state.status === 'idle' && !options.target);
  useEffect(() => {
    if (shown) media?.dropEarlyVideo?.();
  }, [media, shown]);
  useEffect(() => () => media?.dropEarlyVideo?.(), [media]);
  const notFound = state.status === 'error' && state.error instanceof HttpError && state.error.status === 404;
  const content =
    state.status === 'idle' ? (
      <Stage>
        <Panel>{t('player.noTarget')}</Panel>
      </Stage>
    ) : state.status === 'loading' ? (
      <Stage>
        <LoadingPanel text={t('player.loading')} spinner />
      </Stage>
    ) : state.status === 'error' ? (
      <Stage>
        <Panel role="alert" part="error">
          <p>{notFound ? t(clip ? 'clips:player.gone' : 'player.notFound') : t('player.loadError')}</p>
          {notFound ? null : (
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
    );
  return (
    <section className={options.embed ? 'player embed' : 'player'} aria-label={t('player.label')} part="player">
      <AttributeNotices notices={props.notices ?? []} />
      {clip ? <NamespaceReady ns="clips">{content}</NamespaceReady> : content}
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

/**
 * An `embedded` stream: the channel's embeddable page in a sandboxed frame. It may run its scripts, go full screen
 * and open a link in a new tab; it may not navigate the host page, open forms or dialogs, or reach the page's
 * storage (same-origin rights only for a page of another origin, so it never shares the host page's). What it
 * plays is its own: no preroll, no first frame, viewing time or resume, no clip maker or download, and `play()`
 * rejects.
 */
function EmbedStage(props: { url: string; title: string }): ReactNode {
  const sameOrigin = new URL(props.url).origin === window.location.origin;
  return (
    <div className="stage video" part="stage">
      <iframe
        className="embedded"
        part="embedded"
        src={props.url}
        title={props.title}
        sandbox={`allow-scripts allow-presentation allow-popups allow-popups-to-escape-sandbox${sameOrigin ? '' : ' allow-same-origin'}`}
        allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
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
  const { t, lang } = useElement();
  const view = useViewHost();
  const { state, store, options } = props;
  const { item, access, event, clip } = state;
  const title = event ? eventTitle(event, t as never) : item.title;
  const user = useStore($user);
  const titleId = useId();
  const makingId = useId();
  // The clip maker: a signed-in user with `clipping`, under the main video of a live event or a recording.
  const clipping = item.kind === 'event' && event && access.kind === 'play' && hasCapability(user, 'clipping');
  const maker =
    clipping && access.kind === 'play'
      ? (media: MediaControls | undefined) =>
          media ? (
            <Suspense fallback={null}>
              <ClipMaker media={media} event={event} live={access.live} />
            </Suspense>
          ) : null
      : undefined;

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
          streamId={`${item.kind === 'event' ? '' : `${item.kind}-`}${item.id}`}
          options={options}
          below={maker}
        />
      );
      break;
    case 'embed':
      stage = <EmbedStage url={access.url} title={title} />;
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
              onClick={() =>
                view.open({ to: 'sign-in', reason: 'watch', eventId: item.kind === 'event' ? item.id : undefined })
              }
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
    case 'no-watch':
      stage = <MessageStage poster={item.poster} part="message no-watch" text={t('player.noWatch')} />;
      break;
    case 'clip-pending':
      stage = (
        <Stage poster={item.poster}>
          <Panel part="message clip-making">
            <ClipMaking progress={access.progress} labelId={makingId} />
          </Panel>
        </Stage>
      );
      break;
    case 'clip-failed':
      stage = <MessageStage poster={item.poster} alert part="message clip-failed" text={t('clips:player.failed')} />;
      break;
    default:
      stage = <MessageStage poster={item.poster} part="message" text={t('player.unavailable')} />;
  }

  if (options.embed) return stage;
  const when = item.startsAt
    ? formatEventTime(item.startsAt, event?.time_zone ?? event?.location?.time_zone, lang)
    : undefined;
  const canDownload =
    item.kind === 'event' && item.status === 'finished' && access.kind === 'play' && hasCapability(user, 'download');
  return (
    <>
      <header className="head" part="header">
        <h2 id={titleId} className="title" part="title">
          {title}
        </h2>
        <p className="meta">
          {item.kind === 'clip' ? (
            <span className="badge" part="badge">
              {t('clips:maker.open')}
            </span>
          ) : item.status === 'live' ? (
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
          {clip ? <ClipMeta clip={clip} /> : null}
        </p>
      </header>
      {stage}
      {canDownload ? <DownloadButton store={store} /> : null}
    </>
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
      saveFile(await props.store.download());
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="actions" part="actions">
      <button
        type="button"
        className="btn secondary"
        part="button download"
        disabled={busy}
        onClick={() => void download()}
      >
        {busy ? t('player.downloading') : t('player.download')}
      </button>
      {failed ? <p role="alert">{t('player.downloadError')}</p> : null}
    </div>
  );
}
