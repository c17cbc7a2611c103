/**
 * /vod_library: the video-on-demand library (rails, categories, search) under the page heading. `?category=`
 * (an id, alias or name) opens a category first, as a menu or slide link may ask.
 */
import { useMemo, type ReactNode } from 'react';
import { LibraryView, libraryCss, type LibraryOptions } from '../../library/index.js';
import { useElement } from '../../ui/context.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';

/** The library page. */
export default function LibraryPage(): ReactNode {
  useSiteStyles(libraryCss);
  const { t } = useElement();
  const { route, href } = useSite();
  const watchUrl = href('/watch_library/{id}');
  const category = route.query.category?.trim() || undefined;
  const options = useMemo<LibraryOptions>(() => ({ watchUrl, category, heading: false }), [watchUrl, category]);
  return (
    <>
      <PageHeading title={t('site:titles.vodLibrary')} />
      <LibraryView options={options} />
    </>
  );
}
