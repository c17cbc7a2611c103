/**
 * A rail of the library: a titled row of cards that scrolls sideways, a carousel in the manner of the WAI-ARIA
 * pattern (a labelled region with previous, next and pause buttons). It moves on by one card every
 * `RAIL_SCROLL_MS` (back to the start after the last) unless the viewer prefers reduced motion, and holds still
 * while the pointer is over it or focus is inside it. Every card is a link reachable by Tab; the arrow keys move
 * between the cards of a rail.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import type { VodItem } from '../../api/vod-schemas.js';
import { PauseButton, prefersReducedMotion, StepButton, useAutoAdvance, useHold } from '../ui/carousel.js';
import { useElement } from '../ui/context.js';
import { LibraryCard } from './Card.js';
import { useListViewed } from '../ui/list-viewed.js';
import { libraryItems } from './options.js';
import { RAIL_SCROLL_MS } from './options.js';

/** What a rail shows. */
export interface RailProps {
  /** The list's id for `view_item_list` (`library-rail-{id}`, ...). */
  listId: string;
  title: string;
  items: readonly VodItem[];
  href(item: VodItem): string;
  onOpen(item: VodItem, e: MouseEvent): void;
  /** The heading level of its title (3 under a library's own heading, 2 on a page). */
  level?: 2 | 3;
}

/** One rail. */
export function Rail(props: RailProps): ReactNode {
  const { t } = useElement();
  const titleId = useId();
  const trackId = useId();
  const track = useRef<HTMLUListElement>(null);
  const { held, handlers } = useHold();
  const [reduced] = useState(prefersReducedMotion);
  const [playing, setPlaying] = useState(!reduced);
  const [overflowing, setOverflowing] = useState(false);
  useListViewed(props.listId, props.title, libraryItems(props.items));

  // Controls and auto-scroll only while the cards do not all fit.
  useEffect(() => {
    const node = track.current;
    if (!node) return;
    const measure = () => setOverflowing(node.scrollWidth > node.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [props.items.length]);

  /** Scrolls one card on (or back), from the last card back to the first and the other way round. */
  const step = (direction: 1 | -1) => {
    const node = track.current;
    const card = node?.querySelector('li');
    if (!node || !card) return;
    const gap = parseFloat(getComputedStyle(node).columnGap) || 0;
    const width = card.getBoundingClientRect().width + gap;
    const end = node.scrollWidth - node.clientWidth;
    let left = (Math.round(node.scrollLeft / width) + direction) * width;
    if (direction > 0 && node.scrollLeft >= end - 2) left = 0;
    else if (direction < 0 && node.scrollLeft <= 2) left = end;
    node.scrollTo({ left: Math.max(0, Math.min(left, end)), behavior: reduced ? 'auto' : 'smooth' });
  };
  useAutoAdvance(playing && !held && overflowing, RAIL_SCROLL_MS, () => step(1));

  // The arrow keys move focus between the cards (the browser scrolls the focused one into view).
  const onKey = (e: KeyboardEvent) => {
    const keys: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };
    const move = keys[e.key];
    const links = [...(track.current?.querySelectorAll<HTMLAnchorElement>('a.lib-card') ?? [])];
    const at = links.indexOf(e.target as HTMLAnchorElement);
    if (move === undefined && e.key !== 'Home' && e.key !== 'End') return;
    if (at < 0) return;
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? links.length - 1 : at + (move ?? 0);
    const next = links[Math.max(0, Math.min(to, links.length - 1))];
    if (!next) return;
    e.preventDefault();
    next.focus();
  };

  if (props.items.length === 0) return null;
  const Heading = props.level === 2 ? 'h2' : 'h3';
  return (
    <section
      className="rail"
      part="library-rail"
      aria-roledescription={t('library:rail.carousel')}
      aria-labelledby={titleId}
      {...handlers}
    >
      <div className="rail-head">
        <Heading className="rail-title" id={titleId} part="library-rail-title">
          {props.title}
        </Heading>
        {overflowing ? (
          <div className="rail-controls">
            <PauseButton
              className="rail-button"
              part="rail-pause"
              playing={playing}
              labels={{
                pause: t('library:rail.pause', { title: props.title }),
                play: t('library:rail.play', { title: props.title }),
              }}
              onClick={() => setPlaying(!playing)}
            />
            <StepButton
              className="rail-button"
              part="rail-previous"
              controls={trackId}
              label={t('library:rail.previous', { title: props.title })}
              sign="‹"
              onClick={() => step(-1)}
            />
            <StepButton
              className="rail-button"
              part="rail-next"
              controls={trackId}
              label={t('library:rail.next', { title: props.title })}
              sign="›"
              onClick={() => step(1)}
            />
          </div>
        ) : null}
      </div>
      <ul className="track" id={trackId} ref={track} part="library-rail-track" onKeyDown={onKey}>
        {props.items.map((item) => (
          <li key={item.id}>
            <LibraryCard item={item} href={props.href(item)} onOpen={props.onOpen} previews={!reduced} />
          </li>
        ))}
      </ul>
    </section>
  );
}
