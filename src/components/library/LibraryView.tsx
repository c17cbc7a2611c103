/**
 * The library view: a search field (results replace the rails while a search is active), the categories (one
 * chosen shows its items in a grid), and the rails as carousels. It takes typed options, never attribute
 * strings; what it shows lives in the library store, and opening an item goes through the view host (the tag
 * fires `channel-vod-select`, the site routes to /watch_library/{id}).
 */
import { useStore } from '../ui/use-store.js';
import { useCallback, useEffect, useId, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import type { VodCategory, VodItem } from '../../api/vod-schemas.js';
import { env } from '../../lib/env.js';
import { fillTemplate } from '../../lib/url.js';
import { createLibrary, type Library } from '../../stores/library.js';
import type { AttributeNotice } from '../ui/attributes.js';
import { prefersReducedMotion } from '../ui/carousel.js';
import { useElement } from '../ui/context.js';
import { errorText } from '../ui/messages.js';
import { NamespaceReady } from '../ui/namespace.js';
import { AttributeNotices, LoadingPanel } from '../ui/panels.js';
import { useViewHost } from '../ui/view.js';
import { ItemGrid } from './ItemGrid.js';
import type { LibraryOptions } from './options.js';
import { Rail } from './Rail.js';

/** The library. `notices` are the tag's ignored attribute values, shown under the title. */
export function LibraryView(props: {
  options: LibraryOptions;
  notices?: readonly AttributeNotice[] | undefined;
}): ReactNode {
  // The store starts before the texts are in: the rails and categories are asked for alongside them.
  const library = useMemo(createLibrary, []);
  useEffect(() => {
    library.start();
    return () => library.destroy();
  }, [library]);
  return (
    <NamespaceReady ns="library">
      <LibraryBody library={library} options={props.options} notices={props.notices} />
    </NamespaceReady>
  );
}

/** How a view links and opens items: the item's link from the template, and the host's navigation. */
export function useItemLinks(watchUrl: string) {
  const view = useViewHost();
  const href = useCallback(
    (item: VodItem) =>
      fillTemplate(watchUrl, { id: item.id }, env().baseUrl() ?? 'http://localhost/') ?? `#vod-${item.id}`,
    [watchUrl],
  );
  const onOpen = useCallback(
    (item: VodItem, e: MouseEvent) => {
      if (!view.open({ to: 'library-item', id: item.id })) e.preventDefault();
    },
    [view],
  );
  return { href, onOpen };
}

/** The category a `category` option names: by id, alias or name (case-insensitive). */
export function categoryNamed(categories: readonly VodCategory[], value: string): VodCategory | undefined {
  const wanted = value.trim().toLowerCase();
  return categories.find(
    (c) => String(c.id) === wanted || c.alias?.toLowerCase() === wanted || c.name.trim().toLowerCase() === wanted,
  );
}

function LibraryBody(props: {
  library: Library;
  options: LibraryOptions;
  notices?: readonly AttributeNotice[] | undefined;
}): ReactNode {
  const { options, library } = props;
  const { t } = useElement();
  const links = useItemLinks(options.watchUrl);
  const [previews] = useState(() => !prefersReducedMotion());
  const titleId = useId();
  const inputId = useId();
  const [text, setText] = useState('');
  const query = useStore(library.$query);
  const results = useStore(library.results.$state);
  const categories = useStore(library.$categories);

  // The category the options name is opened once the categories are known.
  const wanted = options.category;
  const unknownCategory =
    wanted !== undefined && categories.status === 'ready' && !categoryNamed(categories.value, wanted);
  useEffect(() => {
    if (wanted === undefined || categories.status !== 'ready') return;
    const found = categoryNamed(categories.value, wanted);
    if (found) library.choose(found.id);
  }, [library, wanted, categories]);

  // Sections are headed one level below the view's heading, or the page's when the view has none.
  const level = options.heading === false ? 2 : 3;
  const announcement = !query
    ? ''
    : results.status === 'ready'
      ? results.total > 0
        ? t('library:search.results', { count: results.total })
        : t('library:search.empty', { query })
      : results.status === 'error'
        ? t('library:search.error')
        : '';

  return (
    <section
      className="library"
      {...(options.heading === false ? { 'aria-label': t('library:title') } : { 'aria-labelledby': titleId })}
      part="library"
    >
      {options.heading === false ? null : (
        <div className="head">
          <h2 className="title" id={titleId} part="title">
            {t('library:title')}
          </h2>
        </div>
      )}
      <AttributeNotices notices={props.notices ?? []} />
      {unknownCategory ? (
        <p className="notice" role="status" part="notice">
          {t('library:categories.unknown', { name: wanted })}
        </p>
      ) : null}
      <form role="search" className="search" part="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={inputId}>{t('library:search.label')}</label>
        <input
          id={inputId}
          type="search"
          part="search-input"
          value={text}
          placeholder={t('library:search.placeholder')}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            setText(e.target.value);
            library.search(e.target.value);
          }}
        />
      </form>
      <p className="sr-only" role="status" aria-live="polite" part="search-status">
        {announcement}
      </p>
      {query ? (
        <Results library={library} query={query} links={links} previews={previews} level={level} />
      ) : (
        <Browse library={library} links={links} previews={previews} level={level} />
      )}
    </section>
  );
}

type Links = ReturnType<typeof useItemLinks>;
type Level = 2 | 3;

/** A section's heading at its level. */
function SectionTitle(props: { level: Level; id: string; children: ReactNode }): ReactNode {
  const Tag = props.level === 2 ? 'h2' : 'h3';
  return (
    <Tag className="section-title" id={props.id}>
      {props.children}
    </Tag>
  );
}

/** The search results: a grid, "Show more", and the empty state. */
function Results(props: { library: Library; query: string; links: Links; previews: boolean; level: Level }): ReactNode {
  const { t } = useElement();
  const { results } = props.library;
  const state = useStore(results.$state);
  const id = useId();
  return (
    <section className="results" aria-labelledby={id} aria-busy={state.status === 'loading'} part="results">
      <SectionTitle level={props.level} id={id}>
        {t('library:search.title', { query: props.query })}
      </SectionTitle>
      {state.status === 'ready' && state.items.length === 0 ? (
        <div className="panel" part="empty">
          <p>{t('library:search.empty', { query: props.query })}</p>
        </div>
      ) : (
        <ItemGrid
          listId={`library-search-${props.query}`}
          listName={t('library:search.title', { query: props.query })}
          state={state}
          pager={results}
          links={props.links}
          previews={props.previews}
          loading={t('library:search.searching')}
          failure={t('library:search.error')}
        />
      )}
    </section>
  );
}

/** Browsing: the categories, then the chosen category's items or the rails. */
function Browse(props: { library: Library; links: Links; previews: boolean; level: Level }): ReactNode {
  const { t } = useElement();
  const { library } = props;
  const categories = useStore(library.$categories);
  const chosen = useStore(library.$category);
  const list = categories.status === 'ready' ? categories.value : [];
  const current = list.find((c) => c.id === chosen);
  return (
    <>
      {list.length > 0 ? (
        <div className="chips" role="group" aria-label={t('library:categories.label')} part="categories">
          <button
            type="button"
            className="chip"
            part="category category-all"
            aria-pressed={chosen === undefined}
            onClick={() => library.choose(undefined)}
          >
            {t('library:categories.all')}
          </button>
          {list.map((c) => (
            <button
              key={c.id}
              type="button"
              className="chip"
              part="category"
              aria-pressed={chosen === c.id}
              onClick={() => library.choose(c.id)}
            >
              {c.name}
            </button>
          ))}
        </div>
      ) : categories.status === 'error' ? (
        <p className="notice" part="notice">
          {t('library:categories.error')}
        </p>
      ) : null}
      {chosen !== undefined ? (
        <CategoryItems
          library={library}
          name={current?.name ?? ''}
          links={props.links}
          previews={props.previews}
          level={props.level}
        />
      ) : (
        <Rails library={library} links={props.links} level={props.level} />
      )}
    </>
  );
}

/** The chosen category's items as a grid with "Show more". */
function CategoryItems(props: {
  library: Library;
  name: string;
  links: Links;
  previews: boolean;
  level: Level;
}): ReactNode {
  const { t } = useElement();
  const { items } = props.library;
  const state = useStore(items.$state);
  const id = useId();
  return (
    <section className="category" aria-labelledby={id} aria-busy={state.status === 'loading'} part="category-items">
      <div className="head">
        <SectionTitle level={props.level} id={id}>
          {props.name}
        </SectionTitle>
        {state.status === 'ready' && state.total > 0 ? (
          <span className="count" part="count">
            {t('library:categories.count', { count: state.total })}
          </span>
        ) : null}
      </div>
      {state.status === 'ready' && state.items.length === 0 ? (
        <div className="panel" part="empty">
          <p>{t('library:categories.empty')}</p>
        </div>
      ) : (
        <ItemGrid
          listId={`library-category-${props.name}`}
          listName={props.name}
          state={state}
          pager={items}
          links={props.links}
          previews={props.previews}
          loading={t('library:loading')}
          failure={t('library:categories.itemsError')}
        />
      )}
    </section>
  );
}

/** The rails, each a carousel. */
function Rails(props: { library: Library; links: Links; level: Level }): ReactNode {
  const { t } = useElement();
  const { library } = props;
  const state = useStore(library.$rails);
  if (state.status === 'idle' || state.status === 'loading')
    return <LoadingPanel variant="line" text={t('library:loading')} part="loading" />;
  if (state.status === 'error')
    return (
      <div className="panel error" role="alert" part="error">
        <p>{t('library:loadError')}</p>
        <p className="detail">{errorText(state.error, t)}</p>
        <button type="button" className="btn" part="button" onClick={() => library.retry()}>
          {t('common.retry')}
        </button>
      </div>
    );
  const rails = state.value.filter((rail) => rail.vod_media_items.length > 0);
  if (rails.length === 0)
    return (
      <div className="panel" part="empty">
        <p>{t('library:empty')}</p>
      </div>
    );
  return (
    <div className="rails">
      {rails.map((rail) => (
        <Rail
          key={rail.id}
          listId={`library-rail-${rail.id}`}
          title={rail.title}
          items={rail.vod_media_items}
          href={props.links.href}
          onOpen={props.links.onOpen}
          level={props.level}
        />
      ))}
    </div>
  );
}
