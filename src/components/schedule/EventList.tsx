/**
 * A schedule's loaded events, windowed: cards come in memoised blocks and only the blocks near the viewport are
 * rendered (see window.ts); the next page is fetched when the end of the list comes near.
 */
import { memo, useEffect, useRef, type MouseEvent, type ReactNode, type RefObject } from 'react';
import type { Event } from '../../api/channel-schemas.js';
import { errorText } from '../ui/messages.js';
import { useElement } from '../ui/context.js';
import { EAGER_PICTURES, EventItem } from './EventItem.js';
import type { ScheduleOptions } from './options.js';
import { useBlockWindow } from './window.js';

/** Cards per layout block: a multiple of 1, 2, 3, 4 and 6, so grid rows stay whole across blocks. */
const BLOCK_SIZE = 12;
/** Space after each block of cards, in pixels (matches the grid gap inside a block). */
const BLOCK_GAP = 12;

/** Whether the viewer can favourite, and which events touch one of their favourites. */
interface StarProps {
  signedIn: boolean;
  following(event: Event): boolean;
}

/** The list's events, their paging state and the callbacks every card shares. */
export interface ListProps extends StarProps {
  events: Event[];
  total: number;
  title: string;
  options: ScheduleOptions;
  loadingMore: boolean;
  moreError: unknown;
  onLoadMore(): void;
  onSelect(event: Event, e: MouseEvent): void;
  onStar(event: Event): void;
}

/**
 * Renders the loaded pages, windowed; when the end of the list comes near the viewport (or "Show more" is
 * pressed) the next page is fetched.
 */
export function EventList(props: ListProps): ReactNode {
  const { t } = useElement();
  const { events, total, options, onLoadMore } = props;
  const sentinel = useRef<HTMLDivElement>(null);
  const hasMore = events.length < total;

  const table = options.view === 'table';
  const list = useRef<HTMLElement>(null);
  const blockCount = Math.ceil(events.length / BLOCK_SIZE);
  const win = useBlockWindow(list, blockCount, table ? 12 * 44 : 480, table ? 0 : BLOCK_GAP);
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasMore || props.loadingMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onLoadMore(), {
      rootMargin: '600px 0px',
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, props.loadingMore, events.length, onLoadMore]);

  // Cards come in small memoised blocks, and only the blocks near the viewport are rendered (see window.ts):
  // appending a page or scrolling commits a block or two, however long the list.
  const blocks: ReactNode[] = [];
  for (let b = win.start; b < win.end; b++) {
    const i = b * BLOCK_SIZE;
    blocks.push(
      <EventBlock
        key={b}
        index={b}
        measure={win.measure(b)}
        events={events.slice(i, i + BLOCK_SIZE)}
        table={table}
        options={options}
        onSelect={props.onSelect}
        onStar={props.onStar}
        signedIn={props.signedIn}
        following={props.following}
      />,
    );
  }
  const spacer = (height: number, key: string) =>
    height <= 0 ? null : table ? (
      <tbody key={key} aria-hidden="true">
        <tr className="spacer" style={{ height }}>
          <td colSpan={5} />
        </tr>
      </tbody>
    ) : (
      <div key={key} className="spacer" aria-hidden="true" style={{ height }} />
    );
  return (
    <>
      {options.view === 'table' ? (
        <table part="table" ref={list as RefObject<HTMLTableElement>}>
          <caption className="sr-only">{props.title}</caption>
          <thead>
            <tr>
              <th scope="col">{t('schedule.columns.event')}</th>
              <th scope="col">{t('schedule.columns.date')}</th>
              <th scope="col">{t('schedule.columns.time')}</th>
              <th scope="col">{t('schedule.columns.access')}</th>
              <th scope="col">
                <span className="sr-only">{t('schedule.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          {spacer(win.before, 'before')}
          {blocks}
          {spacer(win.after, 'after')}
        </table>
      ) : (
        <div className="items" role="list" part="list" ref={list as RefObject<HTMLDivElement>}>
          {spacer(win.before, 'before')}
          {blocks}
          {spacer(win.after, 'after')}
        </div>
      )}
      {hasMore ? (
        <div className="more" ref={sentinel}>
          <button type="button" className="btn secondary" part="more" disabled={props.loadingMore} onClick={onLoadMore}>
            {props.loadingMore ? t('schedule.loadingMore') : t('schedule.more')}
          </button>
        </div>
      ) : null}
      {props.moreError ? (
        <p className="notice" role="alert">
          {errorText(props.moreError, t)}
        </p>
      ) : null}
    </>
  );
}

/** One block's events and the list's shared props. */
interface BlockProps extends StarProps {
  index: number;
  measure(node: HTMLElement | null): void;
  events: Event[];
  table: boolean;
  options: ScheduleOptions;
  onSelect(event: Event, e: MouseEvent): void;
  onStar(event: Event): void;
}

/** One block of cards (or table rows). Re-renders only when one of its own events or a shared prop changes. */
const EventBlock = memo(
  function EventBlock(props: BlockProps): ReactNode {
    const rows = props.events.map((event, i) => (
      <EventItem
        key={event.id}
        eager={props.index === 0 && i < EAGER_PICTURES}
        event={event}
        options={props.options}
        onSelect={props.onSelect}
        onStar={props.onStar}
        signedIn={props.signedIn}
        following={props.following(event)}
      />
    ));
    return props.table ? (
      <tbody data-block={props.index} ref={props.measure}>
        {rows}
      </tbody>
    ) : (
      <div className="block" role="none" data-block={props.index} ref={props.measure}>
        {rows}
      </div>
    );
  },
  (a, b) =>
    a.index === b.index &&
    a.measure === b.measure &&
    a.table === b.table &&
    a.options === b.options &&
    a.onSelect === b.onSelect &&
    a.onStar === b.onStar &&
    a.signedIn === b.signedIn &&
    a.events.length === b.events.length &&
    // A change of favourites re-renders only the blocks where a card's star changes.
    a.events.every((e, i) => e === b.events[i] && (a.following === b.following || a.following(e) === b.following(e))),
);
