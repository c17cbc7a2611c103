/**
 * One library item as a card: a link to its watch page with its image (its short preview, muted and looping,
 * while the card is pointed at or focused: loaded only then), title, date, length, and what unlocks it when the
 * viewer cannot watch it yet.
 */
import { useStore } from '../ui/use-store.js';
import { memo, useState, type MouseEvent, type ReactNode } from 'react';
import type { VodItem } from '../../api/vod-schemas.js';
import { formatClock, formatDay } from '../../lib/time.js';
import { assetOf, unlockedBy } from '../../stores/library.js';
import { $user } from '../../stores/session.js';
import { useElement } from '../ui/context.js';
import { Preview } from '../ui/preview.js';

/** What a card gets: its item, its link, and the list's shared callback. */
export interface CardProps {
  item: VodItem;
  href: string;
  /** The viewer activated the card's link (the handler may prevent following it). */
  onOpen(item: VodItem, e: MouseEvent): void;
  /** Whether pointing at or focusing the card plays its preview (not for a viewer who prefers less motion). */
  previews: boolean;
}

/** A library card; memoised, so "Show more" renders only the new cards. */
export const LibraryCard = memo(function LibraryCard(props: CardProps): ReactNode {
  const { t, lang } = useElement();
  const { item } = props;
  const [active, setActive] = useState(false);
  const image = assetOf(item, 'image');
  const preview = props.previews ? assetOf(item, 'preview') : undefined;
  const user = useStore($user);
  const lock = unlockedBy(item, user);
  const day = formatDay(item.date, lang);
  const on = () => setActive(true);
  const off = () => setActive(false);
  return (
    <a
      className="lib-card"
      part={lock ? 'library-card library-card-locked' : 'library-card'}
      href={props.href}
      onClick={(e) => props.onOpen(item, e)}
      onMouseEnter={on}
      onMouseLeave={off}
      onFocus={on}
      onBlur={off}
    >
      <span className="thumb" part="library-card-media">
        {image ? <img src={image} alt="" loading="lazy" decoding="async" /> : null}
        {active && preview ? <Preview src={preview} part="library-card-preview" /> : null}
        {item.duration ? (
          <span className="duration" part="library-card-duration">
            {formatClock(item.duration)}
          </span>
        ) : null}
      </span>
      <span className="card-body">
        <span className="card-title" part="library-card-title">
          {item.title}
        </span>
        {day ? (
          <time className="card-date" dateTime={day.iso} part="library-card-date">
            {day.text}
          </time>
        ) : null}
        {lock ? (
          <span className={`lock ${lock}`} part={`library-card-lock lock-${lock}`}>
            <LockIcon />
            {t(`library:card.locked.${lock}`)}
          </span>
        ) : null}
      </span>
    </a>
  );
});

function LockIcon(): ReactNode {
  return (
    <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M4 7V5a4 4 0 1 1 8 0v2h.5A1.5 1.5 0 0 1 14 8.5v5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 13.5v-5A1.5 1.5 0 0 1 3.5 7H4Zm2 0h4V5a2 2 0 1 0-4 0v2Z"
      />
    </svg>
  );
}
