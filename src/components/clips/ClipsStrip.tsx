/**
 * The signed-in user's clips of one event as a strip of small cards (poster, name, length), each linking to the
 * clip's share page; a clip still being made says so, without a link. Renders nothing for a guest or an event
 * without clips. The site's watch page shows it under the player.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useMemo, type ReactNode } from 'react';
import type { Clip } from '../../api/account-schemas.js';
import { formatClock } from '../../lib/time.js';
import { safeUrl } from '../../lib/url.js';
import { clipPlayHref, clipStatus } from '../../stores/clips.js';
import { createEventClips } from '../../stores/clips/event-clips.js';
import { useNamespace } from '../ui/namespace.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';

/** The strip of `eventId`'s clips; `href` is where a card leads (default: the clip's share page). */
export function ClipsStrip(props: { eventId: number; href?: (clip: Clip) => string | undefined }): ReactNode {
  const { t } = useElement();
  const view = useViewHost();
  const store = useMemo(() => createEventClips(props.eventId), [props.eventId]);
  useEffect(() => () => store.destroy(), [store]);
  const clips = useStore(store.$clips);
  const texts = useNamespace('clips');
  const titleId = useId();
  if (!texts || clips.length === 0) return null;
  const href = props.href ?? ((clip: Clip) => clipPlayHref(clip, view.siteHref));
  return (
    <section className="clips-strip" aria-labelledby={titleId} part="clips-strip">
      <h2 id={titleId}>{t('clips:strip.title')}</h2>
      <ul>
        {clips.map((clip) => (
          <li key={clip.id}>
            <ClipCard clip={clip} href={clipStatus(clip) === 'done' ? href(clip) : undefined} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ClipCard(props: { clip: Clip; href: string | undefined }): ReactNode {
  const { t } = useElement();
  const { clip } = props;
  const poster = safeUrl(clip.media.find((m) => m.type === 'image')?.url);
  const body = (
    <>
      {poster ? <img src={poster} alt="" loading="lazy" /> : <span className="clip-card-blank" aria-hidden="true" />}
      <span className="clip-card-name">{clip.name}</span>
      <span className="detail">
        {props.href ? t('clips:strip.duration', { duration: formatClock(clip.duration) }) : t('clips:strip.making')}
      </span>
    </>
  );
  return props.href ? (
    <a className="clip-card" href={props.href} part="clip-card">
      {body}
    </a>
  ) : (
    <div className="clip-card" part="clip-card">
      {body}
    </div>
  );
}
