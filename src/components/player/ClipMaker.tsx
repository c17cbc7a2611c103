/**
 * The clip maker of `<channel-player>` (a lazy chunk: only a signed-in user with `clipping` loads it, and only while
 * the main video of a live event or a recording plays, never during the preroll). A Clip button opens a panel, a
 * non-modal dialog under the video: Tab stays inside it while it is open, Escape (or Close) closes it and gives
 * focus back to the Clip button. The panel shows the form, or the clip made last for this event (or one still
 * being made when the page loaded) with its progress, then its actions, and "Make another". The clip is the shared
 * clips store's: closing the panel, or reloading the page, does not stop following it.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Clip } from '../../api/account-schemas.js';
import type { Event } from '../../api/channel-schemas.js';
import type { MediaControls } from '../../media/session.js';
import { $clips, $makerClips, clipStatus, makeAnother, makerClip, showInMaker } from '../../stores/clips.js';
import { ClipOutcome } from '../clips/ClipActions.js';
import { useNamespace } from '../ui/namespace.js';
import { useElement } from '../ui/shell.js';
import { ClipForm } from './ClipForm.js';

/** What the maker needs: the main video's controls and the event it plays (live or its recording). */
export interface ClipMakerProps {
  media: MediaControls;
  event: Event;
  live: boolean;
}

/** The Clip button and, while open, its panel. */
export default function ClipMaker(props: ClipMakerProps): ReactNode {
  const { t } = useElement();
  const texts = [useNamespace('forms'), useNamespace('clips')].every(Boolean);
  // Following the shared list loads it, and looks again while one of the user's clips is being made.
  const list = useStore($clips);
  const shown = useStore($makerClips);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const clip = makerClip(props.event.id, list.status === 'ready' ? list.value : [], shown);
  const making = clip && clipStatus(clip) === 'pending';
  // A clip found being made (after a reload) stays in the panel once it is done.
  const eventId = props.event.id;
  const clipId = clip?.id;
  useEffect(() => {
    if (clipId !== undefined) showInMaker(eventId, clipId);
  }, [eventId, clipId]);
  if (!texts) return null;
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="clip-maker" part="clip-maker">
      <button
        ref={button}
        type="button"
        className="btn secondary"
        part="button clip-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((was) => !was)}
      >
        {t('clips:maker.open')}
        {making && !open ? (
          <span className="clip-badge" part="clip-badge">
            {' · '}
            {t('clips:progress.percent', { percent: Math.round(clip.progress ?? 0) })}
          </span>
        ) : null}
      </button>
      {open ? <ClipPanel id={panelId} {...props} clip={clip} onClose={close} /> : null}
    </div>
  );
}

/** The buttons, links and fields Tab moves between inside the panel. */
const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), a[href], [tabindex="0"]';

function ClipPanel(props: ClipMakerProps & { id: string; clip: Clip | undefined; onClose(): void }): ReactNode {
  const { t } = useElement();
  const panel = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  const { clip, event } = props;
  const focusHeading = () => heading.current?.focus();
  // Opened: focus goes into the panel. The form swapped for the clip (or back): focus stays inside.
  useEffect(focusHeading, [clip?.id]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      props.onClose();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items.at(-1);
    const active = (panel.current.getRootNode() as ShadowRoot | Document).activeElement;
    if (e.shiftKey && (active === first || active === heading.current)) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first?.focus();
    }
  };

  return (
    <div
      ref={panel}
      id={props.id}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      className="clip-panel"
      part="clip-panel"
      onKeyDown={onKeyDown}
    >
      <div className="clip-panel-head">
        <h3 ref={heading} id={titleId} tabIndex={-1} className="clip-panel-title">
          {t('clips:maker.title')}
        </h3>
        <button type="button" className="btn secondary" part="button clip-close" onClick={props.onClose}>
          {t('clips:maker.close')}
        </button>
      </div>
      {clip ? (
        <ClipOutcome clip={clip} onDeleted={focusHeading}>
          <button
            type="button"
            className="btn secondary"
            part="button clip-another"
            onClick={() => makeAnother(event.id)}
          >
            {t('clips:maker.another')}
          </button>
        </ClipOutcome>
      ) : (
        <ClipForm media={props.media} event={event} live={props.live} onMade={focusHeading} />
      )}
    </div>
  );
}
