/**
 * /watch_library/{id}: plays a library item, with its title, date, length, category and description under the
 * player and a "More in {category}" rail; with `?type=clip`, plays the viewer's clip of that id instead.
 */
import { useStore } from '../../ui/use-store.js';
import { useEffect, useMemo, type ReactNode } from 'react';
import type { VodItem } from '../../../api/vod-schemas.js';
import { formatClock, formatDay } from '../../../lib/time.js';
import { createCategoryItems, createLibraryItem, followViewer, libraryCategoryOf } from '../../../stores/library.js';
import { clipsCss } from '../../clips/styles.js';
import { libraryCss, Rail, useItemLinks } from '../../library/index.js';
import { PlayerView } from '../../player/PlayerView.js';
import type { PlayerOptions } from '../../player/options.js';
import { playerCss } from '../../player/styles.js';
import { useElement } from '../../ui/context.js';
import { NamespaceReady } from '../../ui/namespace.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';

/** The library's watch page (once the library's texts are in). */
export default function WatchLibraryPage(): ReactNode {
  return (
    <NamespaceReady ns="library">
      <WatchLibraryBody />
    </NamespaceReady>
  );
}

function WatchLibraryBody(): ReactNode {
  // A clip (`?type=clip`) shows its progress, event link and tags: the clips' rules as on the share page.
  useSiteStyles(playerCss, libraryCss, clipsCss);
  const { t } = useElement();
  const { route } = useSite();
  const id = route.params.id ?? '';
  const clip = route.query.type === 'clip';
  const options = useMemo<PlayerOptions>(
    // Opened to watch: it starts at once (muted where the browser requires it).
    () => ({ target: clip ? { kind: 'clip', id } : { kind: 'vod', id }, autoplay: true, muted: false, embed: false }),
    [id, clip],
  );
  const details = useMemo(createLibraryItem, []);
  useEffect(() => () => details.destroy(), [details]);
  useEffect(() => {
    if (!clip) details.show(id);
  }, [details, id, clip]);
  const state = useStore(details.$state);
  const item = !clip && state.status === 'ready' ? state.value : undefined;
  const title = clip ? t('library:watch.clip') : (item?.title ?? t('site:titles.watchLibrary'));
  return (
    <>
      <PageHeading title={title} className="page-title sr-only" />
      <PlayerView options={options} />
      {item ? <Details item={item} /> : null}
      {item ? <MoreIn item={item} /> : null}
    </>
  );
}

/** The item's title, date, length, category and description. */
function Details(props: { item: VodItem }): ReactNode {
  const { t, lang } = useElement();
  const { item } = props;
  const day = formatDay(item.date, lang);
  return (
    <section className="watch-details" part="library-details" aria-label={item.title}>
      <p className="name" part="library-details-title">
        {item.title}
      </p>
      <dl>
        {day ? (
          <div>
            <dt>{t('library:watch.date')}</dt>
            <dd>
              <time dateTime={day.iso}>{day.text}</time>
            </dd>
          </div>
        ) : null}
        {item.duration ? (
          <div>
            <dt>{t('library:watch.duration')}</dt>
            <dd>{formatClock(item.duration)}</dd>
          </div>
        ) : null}
        {item.category?.name ? (
          <div>
            <dt>{t('library:watch.category')}</dt>
            <dd>{item.category.name}</dd>
          </div>
        ) : null}
      </dl>
      {item.description ? (
        <p className="description" part="library-details-description">
          {item.description}
        </p>
      ) : null}
    </section>
  );
}

/** The other items of the item's category, as a rail (none when it has no category or no other items). */
function MoreIn(props: { item: VodItem }): ReactNode {
  const { t } = useElement();
  const { href } = useSite();
  const { item } = props;
  const categoryId = libraryCategoryOf(item);
  const pager = useMemo(() => createCategoryItems(), []);
  useEffect(() => {
    const unfollow = followViewer(() => pager.refresh());
    return () => {
      unfollow();
      pager.destroy();
    };
  }, [pager]);
  useEffect(() => pager.show(categoryId), [pager, categoryId]);
  const state = useStore(pager.$state);
  const links = useItemLinks(href('/watch_library/{id}'));
  const others = useMemo(() => state.items.filter((other) => other.id !== item.id), [state.items, item.id]);
  if (categoryId === undefined || state.status !== 'ready' || others.length === 0) return null;
  return (
    <Rail
      listId={`library-more-in-${categoryId}`}
      title={t('library:rail.moreIn', { category: item.category?.name ?? '' })}
      items={others}
      href={links.href}
      onOpen={links.onOpen}
      level={2}
    />
  );
}
