/**
 * What a player shows of a clip besides its video: under the title, the event it comes from (a link that asks the
 * view host to open the event, and leads to its watch page on the channel's site otherwise) and its tags; on the
 * stage, the clip being made (with its progress).
 */
import type { MouseEvent, ReactNode } from 'react';
import type { Clip } from '../../api/account-schemas.js';
import { siteAddress } from '../../stores/clips/share.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';

/** The clip's event and tags. */
export function ClipMeta(props: { clip: Clip }): ReactNode {
  const { t } = useElement();
  const view = useViewHost();
  const { clip } = props;
  const event = clip.event;
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (!view.open({ to: 'event', id: clip.event_id })) e.preventDefault();
  };
  return (
    <>
      {event ? (
        <span className="clip-from" part="clip-event">
          {t('clips:player.from')}{' '}
          <a href={siteAddress(`/watch/${clip.event_id}`, view.siteHref)} onClick={open} part="clip-event-link">
            {event.name}
          </a>
        </span>
      ) : null}
      {clip.tags.length ? (
        <span className="clip-tag-list" part="clip-tags">
          <span className="sr-only">{t('clips:player.tags')}: </span>
          {clip.tags.map((tag) => (
            <span key={tag} className="badge" part="clip-tag">
              {t(`clips:tags.${tag}`, { defaultValue: tag })}
            </span>
          ))}
        </span>
      ) : null}
    </>
  );
}

/** The stage's message while the clip is being made, with its progress (indeterminate while it waits). */
export function ClipMaking(props: { progress: number | undefined; labelId: string }): ReactNode {
  const { t } = useElement();
  return (
    <>
      <p id={props.labelId}>{t('clips:player.making')}</p>
      <progress
        aria-labelledby={props.labelId}
        max={100}
        value={props.progress === undefined ? undefined : Math.max(0, Math.min(100, props.progress))}
        part="clip-progress"
      />
    </>
  );
}
