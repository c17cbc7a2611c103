/**
 * The schedule view: the channel's events as cards or a table, with filters, badges, favourites star and links
 * to the watch page, or (option `favourites`) only the events of the user's favourites. It takes typed options,
 * never attribute strings; the list, its query and its reactions live in the schedule store, and navigation
 * goes through the view host (the tag fires public events, the site routes).
 */
import { useStore } from '../ui/use-store.js';
import { useCallback, useEffect, useId, useMemo, type MouseEvent, type ReactNode } from 'react';
import type { Event } from '../../api/channel-schemas.js';
import {
  $favourites,
  $favouriteIndex,
  CHOSEN_KINDS,
  followsEvent,
  type ChosenKind,
} from '../../stores/favourites-state.js';
import { clearedFilters, createSchedule, effectiveFilters, narrows } from '../../stores/schedule.js';
import { $settings, $user } from '../../stores/session.js';
import { env } from '../../lib/env.js';
import { createToasts } from '../../stores/toasts.js';
import type { TFunction } from '../../i18n/index.js';
import { AttributeNotices } from '../ui/panels.js';
import { errorText } from '../ui/messages.js';
import type { AttributeNotice } from '../ui/attributes.js';
import { useElement } from '../ui/context.js';
import { ToastList } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';
import { EventList } from './EventList.js';
import { useListViewed } from '../ui/list-viewed.js';
import { lazyPart, useDayText } from './shared.js';
import type { ScheduleOptions } from './options.js';

/** A schedule of events. `notices` are the tag's ignored attribute values, shown under the title. */
export function ScheduleView(props: {
  options: ScheduleOptions;
  notices?: readonly AttributeNotice[] | undefined;
}): ReactNode {
  const { options } = props;
  const { t, currency } = useElement();
  const view = useViewHost();
  const schedule = useMemo(createSchedule, []);
  const toasts = useMemo(createToasts, []);
  useEffect(
    () => () => {
      schedule.destroy();
      toasts.destroy();
    },
    [schedule, toasts],
  );
  useEffect(() => schedule.show(options), [schedule, options]);

  const chosen = useStore(schedule.$chosen);
  const filters = effectiveFilters(options, chosen);
  const state = useStore(schedule.$state);
  const toastList = useStore(toasts.$toasts);
  const user = useStore($user);
  const dayText = useDayText();
  // The calendar and the filters come with their own code, wanted only by the views that show them.
  const DayPicker = useDayPicker(options.showCalendar);
  const FilterBar = useFilterBar(options.showFilters);
  // (Or could not come: the list shows without them rather than wait for ever.)
  const controlsIn =
    (!options.showCalendar || DayPicker !== undefined) && (!options.showFilters || FilterBar !== undefined);
  const titleId = useId();
  // Stable callbacks, so that appending a page re-renders only the new rows.
  const onSelect = useCallback(
    (event: Event, e: MouseEvent) => {
      if (!view.open({ to: 'event', id: event.id })) e.preventDefault();
    },
    [view],
  );
  // A guest's star asks to sign in (a signed-in user's star opens its own popover, see FollowStar).
  const onStar = useCallback(
    (event: Event) => {
      toasts.show(t('schedule.favourite.login'), 'info');
      view.open({ to: 'sign-in', reason: 'favourite', eventId: event.id });
    },
    [toasts, t, view],
  );
  const onLoadMore = useCallback(() => schedule.loadMore(), [schedule]);
  // One index of the user's favourites for the whole list; each card gets only its own yes or no.
  const favouriteIndex = useStore($favouriteIndex);
  const following = useCallback((event: Event) => followsEvent(event, favouriteIndex), [favouriteIndex]);
  const favourites = useStore($favourites);
  // A signed-in viewer's list comes with the code that loads it (watched from here on); a guest never fetches it.
  const signedIn = Boolean(user);
  useEffect(() => {
    if (signedIn) import('../../stores/favourites.js').catch(() => undefined);
  }, [signedIn]);
  const noFavourites =
    Boolean(favourites) && (Object.keys(CHOSEN_KINDS) as ChosenKind[]).every((k) => favourites![k].length === 0);
  const title = scheduleTitle(options, t);
  // The list as the tag manager names it: its kind and the filters that narrow it.
  const { properties, ...plain } = filters;
  const narrowedBy = {
    category: options.category,
    team: options.team,
    school: options.school,
    location: options.location,
    ...plain,
    ...properties,
  };
  const listId = `schedule-${options.favourites ? 'favorites-' : ''}${options.kind}${Object.entries(narrowedBy)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `-${name}:${String(value)}`)
    .join('')}`;
  useListViewed(
    listId,
    title,
    state.status === 'ready'
      ? state.items.map((event) => ({ id: String(event.id), name: event.name, category: event.category?.name }))
      : undefined,
  );

  const settings = useStore($settings);
  const structured = Boolean(options.structuredData) && state.status === 'ready' && state.items.length > 0;
  const StructuredData = useStructuredData(structured);

  let body: ReactNode;
  // The list waits for the calendar and filters above it, so they never push it down once it shows.
  if (state.status === 'loading' || !controlsIn) {
    body = <Skeleton />;
  } else if (state.status === 'signed-out') {
    body = (
      <div className="panel" part="sign-in">
        <p>{t('schedule.favourites.signIn')}</p>
        <button
          type="button"
          className="btn"
          part="button sign-in-button"
          onClick={() => view.open({ to: 'sign-in', reason: 'favourite' })}
        >
          {t('schedule.favourites.signInButton')}
        </button>
      </div>
    );
  } else if (state.status === 'locked') {
    body = (
      <div className="panel" role="status" part="message temporary-password">
        <p>{t('errors.temporaryPassword')}</p>
      </div>
    );
  } else if (state.status === 'error') {
    body = (
      <div className="panel error" role="alert" part="error">
        <p>{t('schedule.loadError')}</p>
        <p className="detail">{errorText(state.error, t)}</p>
        <button type="button" className="btn" part="button" onClick={() => schedule.retry()}>
          {t('common.retry')}
        </button>
      </div>
    );
  } else if (state.items.length === 0) {
    const empty = filters.day
      ? 'schedule.empty.day'
      : narrows(filters)
        ? 'schedule.empty.filtered'
        : !options.favourites
          ? `schedule.empty.${options.kind}`
          : noFavourites
            ? 'schedule.favourites.none'
            : 'schedule.favourites.empty';
    body = (
      <div className="panel" part="empty">
        <p>{t(empty, { date: filters.day ? dayText(filters.day).full : '' })}</p>
      </div>
    );
  } else {
    body = (
      <EventList
        events={state.items}
        total={state.total}
        title={title}
        options={options}
        loadingMore={state.loadingMore}
        moreError={state.error}
        onLoadMore={onLoadMore}
        onSelect={onSelect}
        onStar={onStar}
        signedIn={Boolean(user)}
        following={following}
      />
    );
  }

  return (
    <section
      className={options.layout}
      aria-labelledby={titleId}
      aria-busy={state.status === 'loading'}
      part="schedule"
    >
      <div className="head">
        <h2 className="title" id={titleId} part="title">
          {title}
        </h2>
        {state.status === 'ready' && state.total > 0 ? (
          <span className="count" part="count">
            {t('schedule.count', { count: state.total })}
          </span>
        ) : null}
      </div>
      <AttributeNotices notices={props.notices ?? []} />
      {options.showCalendar ? (
        DayPicker && <DayPicker value={filters.day} kind={options.kind} onChange={(day) => schedule.filter({ day })} />
      ) : filters.day ? (
        // A fixed day (the `day` attribute) says which.
        <p className="day" part="day">
          {dayText(filters.day).full}
        </p>
      ) : null}
      {options.showFilters && FilterBar ? (
        <FilterBar
          scoped={SCOPES.filter((scope) => options[scope])}
          value={filters}
          onChange={(next) => schedule.filter(next)}
          onClear={() => schedule.filter(clearedFilters(filters))}
        />
      ) : null}
      {body}
      <ToastList toasts={toastList} onDismiss={toasts.dismiss} />
      {structured && StructuredData && state.status === 'ready' ? (
        <StructuredData
          events={state.items}
          context={{
            watchUrl: options.watchUrl,
            base: env().baseUrl() ?? 'http://localhost/',
            currency,
            channelName: settings?.name ?? undefined,
          }}
        />
      ) : null}
    </section>
  );
}

/** The filters a view's options may narrow to beyond the bar's own (the site's address): the bar shows them too. */
const SCOPES = ['category', 'team', 'school', 'location'] as const;

const useDayPicker = lazyPart('the calendar', () => import('./DayPicker.js').then((m) => m.DayPicker));
const useFilterBar = lazyPart('the filters', () => import('./FilterBar.js').then((m) => m.FilterBar));
// `<channel-schedule structured-data>`'s JSON-LD, fetched at the first idle moment after the events show: search
// engines wait for it, viewers should not (./structured-data.ts).
const useStructuredData = lazyPart('the structured data', () =>
  new Promise<void>((resolve) => env().whenIdle(resolve, 1_000)).then(() =>
    import('./structured-data.js').then((m) => m.StructuredData),
  ),
);

/** The heading of a schedule: its kind, and whose favourites when it lists only those. */
function scheduleTitle(options: ScheduleOptions, t: TFunction): string {
  const kind = t(`schedule.titles.${options.kind}`);
  return options.favourites ? t('schedule.favourites.title', { title: kind }) : kind;
}

/**
 * The loading state: placeholder cards, with the text for screen readers. Not the shared `LoadingPanel`: a
 * schedule shows the shape of the list to come rather than a sentence.
 */
function Skeleton(): ReactNode {
  const { t } = useElement();
  return (
    <div role="status" part="loading">
      <span className="sr-only">{t('schedule.loading')}</span>
      <ul className="skeleton" aria-hidden="true">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i} />
        ))}
      </ul>
    </div>
  );
}
