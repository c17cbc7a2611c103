/**
 * /vod_library: the video-on-demand library (rails, categories, search) under the page heading. `?category=`
 * (an id, alias or name) opens a category first, as a menu or slide link may ask.
 */
import { useMemo, type ReactNode } from 'react';
import { LibraryView, libraryCss, type LibraryOptions } from '../../library/index.js';
import { useElement } from '../../ui/context.js';
import { NamespaceReady } from '../../ui/namespace.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';

/** The library page (once the library's texts are in: its heading is the library's title). */
export default function LibraryPage(): ReactNode {
  return (
    <NamespaceReady ns="library">
      <LibraryBody />
    </NamespaceReady>
  );
}

function LibraryBody(): ReactNode {
  useSiteStyles(libraryCss);
  const { t } = useElement();
  const { route, href } = useSite();
  const watchUrl = href('/watch_library/{id}');
  // `category_id` is the contract's name, `category` ours (an id, alias or name).
  const category = (route.query.category_id || route.query.category)?.trim() || undefined;
  // The page heading stands for the view's own.
  const options = useMemo<LibraryOptions>(() => ({ watchUrl, category, heading: false }), [watchUrl, category]);
  return (
    <>
      <PageHeading title={t('library:title')} />
      <LibraryView options={options} />
    </>
  );
}
