/**
 * The profile's clips: the shared list of the user's clips (a clip made in a player on the page shows here at once,
 * and both follow the same polling). Each clip shows its name, event, length and state, and the same states and
 * actions as the clip maker: progress while it is being made, Play (its share page), Download, Copy link and Share,
 * Delete after an inline confirmation, Retry when it failed.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Clip } from '../../api/account-schemas.js';
import { formatClock } from '../../lib/time.js';
import { $clips, clipPlayHref, clipStatus, loadClips } from '../../stores/clips.js';
import { ClipOutcome } from '../clips/ClipActions.js';
import { NamespaceReady } from '../ui/namespace.js';
import { LoadingPanel } from '../ui/panels.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';

const k = (key: string) => `forms:account.${key}`;

/** The section: loads the list when it opens (the list on screen stays while it reloads). */
export function ClipsSection(): ReactNode {
  return (
    <NamespaceReady ns="clips">
      <Clips />
    </NamespaceReady>
  );
}

function Clips(): ReactNode {
  const { t } = useElement();
  const state = useStore($clips);
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  const [deleted, setDeleted] = useState<string>();
  useEffect(() => void loadClips(), []);
  const loading = state.status === 'loading' || state.status === 'idle';
  const onDeleted = (clip: Clip) => {
    setDeleted(clip.name);
    // The row is gone: focus goes to the section's title rather than to the page.
    title.current?.focus();
  };
  return (
    <section className="section" aria-labelledby={titleId} aria-busy={loading} part="clips">
      <h3 id={titleId} ref={title} tabIndex={-1} className="section-title">
        {t(k('clips.title'))}
      </h3>
      {deleted ? (
        <p className="message" role="status" part="message clip-deleted">
          {t('clips:actions.deleted', { name: deleted })}
        </p>
      ) : null}
      {loading ? (
        <LoadingPanel variant="line" className="detail" text={t(k('loading'))} />
      ) : state.status === 'error' ? (
        <div className="panel error" role="alert" part="error">
          <p>{t(k('list.loadError'))}</p>
          <p className="detail">{t(state.error.key, state.error.values)}</p>
          <button type="button" className="btn" part="button retry" onClick={() => void loadClips()}>
            {t('common.retry')}
          </button>
        </div>
      ) : state.value.length === 0 ? (
        <p className="empty" part="empty">
          {t(k('clips.empty'))}
        </p>
      ) : (
        <ul className="rows">
          {state.value.map((clip) => (
            <ClipRow key={clip.id} clip={clip} onDeleted={onDeleted} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ClipRow(props: { clip: Clip; onDeleted(clip: Clip): void }): ReactNode {
  const { t } = useElement();
  const view = useViewHost();
  const { clip } = props;
  const status = clipStatus(clip);
  const state = status === 'pending' ? 'processing' : status;
  // In a site the share page opens in the site; elsewhere the link leads to the channel's site.
  const play = status === 'done' ? clipPlayHref(clip, view.siteHref) : undefined;
  return (
    <li className="row clip-row" part="clip">
      <span className="row-name">{clip.name}</span>
      {clip.event ? <span className="row-kind">{clip.event.name}</span> : null}
      <span className="badge" part="clip-state" data-status={state}>
        {t(k(`clips.state.${state}`))}
      </span>
      <span className="detail">{t(k('clips.duration'), { duration: formatClock(clip.duration) })}</span>
      {status === 'pending' ? <span className="detail">{t(k('clips.processing'))}</span> : null}
      {play ? (
        <a className="link" href={play} part="clip-play" aria-label={t('clips:actions.playLabel', { name: clip.name })}>
          {t('clips:actions.play')}
        </a>
      ) : null}
      <ClipOutcome clip={clip} onDeleted={props.onDeleted} quiet />
    </li>
  );
}
