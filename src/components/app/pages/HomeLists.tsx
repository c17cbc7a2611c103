/**
 * The home page's lists under its carousel: the events live now, the featured events of `events-for-homepage` (the
 * plain home only) and the upcoming ones, with a link to all of them. Code of its own, which the home fetches once its
 * first slide is painted (Home.tsx): the slides are what a visitor sees first.
 */
import { useStore } from '../../ui/use-store.js';
import { useEffect, useMemo, type MouseEvent, type ReactNode } from 'react';
import type { Event } from '../../../api/channel-schemas.js';
import { $favouriteIndex, followsEvent } from '../../../stores/favourites-state.js';
import { createToasts } from '../../../stores/toasts.js';
import { homepageEvents } from '../../../stores/site/home.js';
import { $user } from '../../../stores/session.js';
import { SCHEDULE_DEFAULTS, ScheduleView, type ScheduleOptions } from '../../schedule/index.js';
import { EAGER_PICTURES, EventItem } from '../../schedule/EventItem.js';
import { scheduleCss } from '../../schedule/styles.js';
import { useElement } from '../../ui/context.js';
import { ToastList } from '../../ui/shell.js';
import { useViewHost } from '../../ui/view.js';
import { useSite, useSiteStyles } from '../site.js';

/** How many events each list of the home shows. */
export const HOME_LIMIT = 8;

/** The lists; `school` (an alias or a name) narrows them to a school's events and leaves the featured ones out. */
export default function HomeLists(props: { school: string | undefined }): ReactNode {
  useSiteStyles(scheduleCss);
  const { t } = useElement();
  const { href } = useSite();
  const { school } = props;
  const watchUrl = href('/watch/{id}');
  const [live, upcoming] = useMemo(
    () =>
      (['live', 'upcoming'] as const).map((kind): ScheduleOptions => ({
        ...SCHEDULE_DEFAULTS,
        kind,
        limit: HOME_LIMIT,
        watchUrl,
        school,
      })),
    [watchUrl, school],
  );
  return (
    <>
      {/* The schedule views are labelled regions of their own (their titles). */}
      <div className="home-section">
        <ScheduleView options={live!} />
      </div>
      {school ? null : <Featured watchUrl={watchUrl} />}
      <div className="home-section">
        <ScheduleView options={upcoming!} />
        <p>
          <a className="see-all" href={href(school ? `/upcoming?school=${encodeURIComponent(school)}` : '/upcoming')}>
            {t('site:home.seeAll')}
          </a>
        </p>
      </div>
    </>
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
