/**
 * The home page: the channel's slides as a carousel, the events live now, the featured events of
 * `events-for-homepage` and the upcoming ones. With `?group={alias or name}` (the menu's school entries), that
 * school's home: its slides and its teams' slides, and its events.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, type MouseEvent, type ReactNode } from 'react';
import type { Event } from '../../../api/channel-schemas.js';
import { participantGroups, participants } from '../../../stores/catalog.js';
import { $favouriteIndex, followsEvent } from '../../../stores/favourites-state.js';
import { createToasts } from '../../../stores/toasts.js';
import { groupNamed, homepageEvents, slides, slidesFor } from '../../../stores/site/home.js';
import { $settings, $user } from '../../../stores/session.js';
import { SCHEDULE_DEFAULTS, ScheduleView, type ScheduleOptions } from '../../schedule/index.js';
import { EAGER_PICTURES, EventItem } from '../../schedule/EventItem.js';
import { scheduleCss } from '../../schedule/styles.js';
import { useElement } from '../../ui/context.js';
import { ToastList } from '../../ui/shell.js';
import { NamespaceReady } from '../../ui/namespace.js';
import { useViewHost } from '../../ui/view.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';
import { Carousel } from './Carousel.js';
import { homeCss } from './home-styles.js';

/** How many events each list of the home shows. */
const HOME_LIMIT = 8;

/** The home page (once the site's texts are in: the site waits for them too, a page rendered alone may not). */
export default function HomePage(): ReactNode {
  return (
    <NamespaceReady ns="site">
      <HomeBody />
    </NamespaceReady>
  );
}

function HomeBody(): ReactNode {
  useSiteStyles(scheduleCss, homeCss);
  const { t } = useElement();
  const { route, href } = useSite();
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
  const watchUrl = href('/watch/{id}');
  const school = group ? (group.alias ?? group.name) : undefined;
  const list = (kind: ScheduleOptions['kind']): ScheduleOptions => ({
    ...SCHEDULE_DEFAULTS,
    kind,
    limit: HOME_LIMIT,
    watchUrl,
    school,
  });
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
      {listsReady ? (
        <>
          {/* The schedule views are labelled regions of their own (their titles). */}
          <div className="home-section">
            <ScheduleView options={list('live')} />
          </div>
          {group ? null : <Featured watchUrl={watchUrl} />}
          <div className="home-section">
            <ScheduleView options={list('upcoming')} />
            <p>
              <a
                className="see-all"
                href={href(school ? `/upcoming?school=${encodeURIComponent(school)}` : '/upcoming')}
              >
                {t('site:home.seeAll')}
              </a>
            </p>
          </div>
        </>
      ) : null}
    </div>
  );
}

/** The channel's featured events (`events-for-homepage`): live, then upcoming, then on demand. */
function Featured(props: { watchUrl: string }): ReactNode {
  const { t } = useElement();
  const view = useViewHost();
  const state = useStore(homepageEvents.$state);
  const user = useStore($user);
  const toasts = useMemo(createToasts, []);
  useEffect(() => () => toasts.destroy(), [toasts]);
  const toastList = useStore(toasts.$toasts);
  const favouriteIndex = useStore($favouriteIndex);
  const options = useMemo<ScheduleOptions>(
    () => ({ ...SCHEDULE_DEFAULTS, watchUrl: props.watchUrl }),
    [props.watchUrl],
  );
  if (state.status !== 'ready') return null;
  const seen = new Set<number>();
  const events = [...state.value.live, ...state.value.upcoming, ...state.value.finished].filter((e) => {
    if (seen.has(e.id)) return false;
    seen.add(e.id);
    return true;
  });
  if (events.length === 0) return null;
  const select = (event: Event, e: MouseEvent) => {
    if (!view.open({ to: 'event', id: event.id })) e.preventDefault();
  };
  // As in the schedule: a guest's star says why and asks to sign in.
  const star = (event: Event) => {
    toasts.show(t('schedule.favourite.login'), 'info');
    view.open({ to: 'sign-in', reason: 'favourite', eventId: event.id });
  };
  return (
    <section className="home-section featured" aria-labelledby="featured-title">
      <h2 id="featured-title" className="title">
        {t('site:home.featured')}
      </h2>
      <div className="grid">
        <div className="block" role="list">
          {events.slice(0, HOME_LIMIT).map((event, i) => (
            <EventItem
              key={event.id}
              eager={i < EAGER_PICTURES}
              event={event}
              options={options}
              onSelect={select}
              onStar={star}
              signedIn={Boolean(user)}
              following={followsEvent(event, favouriteIndex)}
            />
          ))}
        </div>
      </div>
      <ToastList toasts={toastList} onDismiss={toasts.dismiss} />
    </section>
  );
}
