/**
 * The home page: the channel's slides as a carousel, the events live now, the featured events of
 * `events-for-homepage` and the upcoming ones. With `?group={alias or name}` (the menu's school entries), that
 * school's home: its slides and its teams' slides, and its events.
 */
import { useStore } from '../../ui/use-store.js';
import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { participantGroups, participants } from '../../../stores/catalog.js';
import { groupNamed, homepageEvents, slides, slidesFor } from '../../../stores/site/home.js';
import { $settings } from '../../../stores/session.js';
import type { Async } from '../../../lib/async.js';
import { env } from '../../../lib/env.js';
import { ErrorBoundary } from '../../ui/boundary.js';
import { useElement } from '../../ui/context.js';
import { lazyChunk } from '../../ui/lazy.js';
import { NamespaceReady } from '../../ui/namespace.js';
import { LoadingPanel } from '../../ui/panels.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';
import { Carousel } from './Carousel.js';
import { homeCss } from './home-styles.js';

/** The lists under the carousel (HomeLists.tsx): their own code, fetched once the first slide's markup is painted. */
const HomeLists = lazyChunk('the home’s lists', () => import('./HomeLists.js'));
/** The longest the lists wait for the slides before their code is fetched anyway. */
const SLIDES_WAIT_MS = 1_000;

/** The home page (once the site's texts are in: the site waits for them too, a page rendered alone may not). */
export default function HomePage(): ReactNode {
  return (
    <NamespaceReady ns="site">
      <HomeBody />
    </NamespaceReady>
  );
}

function HomeBody(): ReactNode {
  useSiteStyles(homeCss);
  const { t } = useElement();
  const { route } = useSite();
  const settings = useStore($settings);
  // `group` and `school` both name a school (the contract has both names).
  const groupValue = (route.query.group || route.query.school)?.trim() || undefined;
  const groups = useStore(participantGroups.$items);
  const teams = useStore(participants.$items);
  const slideState = useStore(slides.$state);

  useEffect(() => {
    slides.load();
    if (!groupValue) homepageEvents.load();
    else {
      participantGroups.load().catch(() => undefined);
      participants.load().catch(() => undefined);
    }
  }, [groupValue]);

  const group = groupValue && groups ? groupNamed(groups, groupValue) : undefined;
  const unknownGroup = Boolean(groupValue && groups && !group);
  const shown = useMemo(
    () => (slideState.status === 'ready' ? slidesFor(slideState.value, group, teams ?? []) : []),
    [slideState, group, teams],
  );
  const title = group?.name ?? settings?.name ?? t('site:titles.home');
  const school = group ? (group.alias ?? group.name) : undefined;
  const listsWanted = useListsAfterSlides(slideState.status, shown.length > 0);
  // While a school's catalogue loads, its lists wait (they would list every school's events first).
  const listsReady = !groupValue || Boolean(groups);

  return (
    <div className="home" part="home">
      <PageHeading title={title} className={group ? 'page-title' : 'page-title sr-only'} />
      {unknownGroup ? (
        <p className="notice" role="status" part="notice">
          {t('site:home.unknownGroup', { name: groupValue })}
        </p>
      ) : null}
      {slideState.status === 'error' ? (
        <p className="notice" part="notice">
          {t('site:home.slidesError')}
        </p>
      ) : (
        <Carousel slides={shown} label={t('site:home.slides', { name: title })} />
      )}
      {listsReady && listsWanted ? (
        // A failure to load them leaves the carousel: their own panel with Retry takes their place (without taking
        // focus: they are not what the visitor was on).
        <ErrorBoundary tag="channel-app" focusRetry={false}>
          <Suspense fallback={<LoadingPanel variant="line" text={t('schedule.loading')} />}>
            <HomeLists school={school} />
          </Suspense>
        </ErrorBoundary>
      ) : null}
    </div>
  );
}

/**
 * Whether the lists under the carousel may fetch their code: the first slide is what a visitor sees first, so the code
 * below it does not hold it back. True in the frame after the first slide's markup was painted (its picture may still
 * be loading), at once when there is no slide to show (none, or the slides call failed), and 1 s after the slides'
 * state last changed at most (a page in a background tab paints no frames).
 */
function useListsAfterSlides(status: Async<unknown, unknown>['status'], slideShown: boolean): boolean {
  const [wanted, setWanted] = useState(false);
  const settled = status !== 'idle' && status !== 'loading';
  useEffect(() => {
    if (wanted) return;
    if (settled && !slideShown) {
      setWanted(true);
      return;
    }
    const want = () => setWanted(true);
    // Painted: the frame after the one that drew it.
    let frame = slideShown ? requestAnimationFrame(() => (frame = requestAnimationFrame(want))) : 0;
    const timer = env().setTimeout(want, SLIDES_WAIT_MS);
    return () => {
      cancelAnimationFrame(frame);
      env().clearTimeout(timer);
    };
  }, [wanted, settled, slideShown]);
  return wanted;
}
