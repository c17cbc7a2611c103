/** A paged list of library items as a grid of cards, with "Show more" while the list has more. */
import { useEffect, useRef, type ReactNode } from 'react';
import type { VodItem } from '../../api/vod-schemas.js';
import type { PagedItems } from '../../stores/library.js';
import { useElement } from '../ui/context.js';
import { errorText } from '../ui/messages.js';
import { LoadingPanel } from '../ui/panels.js';
import { LibraryCard, type CardProps } from './Card.js';
import { useListViewed } from '../ui/list-viewed.js';
import { libraryItems } from './options.js';

/** A grid's items, its pager, and how its cards link. */
export interface GridProps {
  /** The list's id and name for `view_item_list`. */
  listId: string;
  listName: string;
  state: PagedItems;
  pager: { more(): void; retry(): void };
  links: { href(item: VodItem): string; onOpen: CardProps['onOpen'] };
  previews: boolean;
  /** The loading text of the first page. */
  loading: string;
  /** What a failed first page says. */
  failure: string;
}

/** The grid. */
export function ItemGrid(props: GridProps): ReactNode {
  const { t } = useElement();
  const { state, pager } = props;
  const list = useRef<HTMLUListElement>(null);
  // "Show more" pressed with this many cards shown: once the next ones are in, focus goes to the first of them (the
  // button may be gone: the list is complete), so a keyboard user goes on where the new cards start.
  const focusFrom = useRef<number | undefined>(undefined);
  const count = state.status === 'ready' ? state.items.length : 0;
  useListViewed(props.listId, props.listName, state.status === 'ready' ? libraryItems(state.items) : undefined);
  useEffect(() => {
    const from = focusFrom.current;
    if (from === undefined || count <= from) return;
    focusFrom.current = undefined;
    list.current?.children[from]?.querySelector<HTMLElement>('a')?.focus();
  }, [count]);
  if (state.status === 'idle' || state.status === 'loading')
    return <LoadingPanel variant="line" text={props.loading} part="loading" />;
  if (state.status === 'error')
    return (
      <div className="panel error" role="alert" part="error">
        <p>{props.failure}</p>
        <p className="detail">{errorText(state.error, t)}</p>
        <button type="button" className="btn" part="button" onClick={() => pager.retry()}>
          {t('common.retry')}
        </button>
      </div>
    );
  return (
    <>
      <ul className="lib-grid" part="library-grid" ref={list}>
        {state.items.map((item) => (
          <li key={item.id}>
            <LibraryCard
              item={item}
              href={props.links.href(item)}
              onOpen={props.links.onOpen}
              previews={props.previews}
            />
          </li>
        ))}
      </ul>
      {state.items.length < state.total ? (
        <div className="more">
          <button
            type="button"
            className="btn secondary"
            part="more"
            disabled={state.loadingMore}
            onClick={() => {
              focusFrom.current = state.items.length;
              pager.more();
            }}
          >
            {state.loadingMore ? t('library:loadingMore') : t('library:more')}
          </button>
        </div>
      ) : null}
      {state.error ? (
        <p className="notice" role="alert">
          {errorText(state.error, t)}
        </p>
      ) : null}
    </>
  );
}
