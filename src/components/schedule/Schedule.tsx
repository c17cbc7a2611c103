/**
 * `<channel-schedule>`: the channel's events as cards or a table, with filters, badges, favourites star and
 * links to the watch page, or (attribute `favorites`) only the events of the user's favourites. Logic lives
 * in stores (schedule, favourites, catalog, toasts); this renders and forwards.
 */
import { useStore } from '@nanostores/react';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type MouseEvent, type ReactNode, type RefObject } from 'react';
import type { Event, EventCategory } from '../../api/contract.js';
import { ChannelEventSelectEvent, ChannelLoginRequestEvent } from '../../events/index.js';
import { env } from '../../env.js';
import { formatPrice } from '../../lib/money.js';
import { formatEventTime } from '../../lib/time.js';
import { fillTemplate } from '../../lib/url.js';
import { categories, locations } from '../../stores/catalog.js';
import {
  $favourites,
  $favouriteIndex,
  $favouritesVersion,
  CHOSEN_KINDS,
  followsEvent,
  type ChosenKind,
} from '../../stores/favourites.js';
import { createSchedule, type ScheduleQuery } from '../../stores/schedule.js';

/** Cards per layout block: a multiple of 1, 2, 3, 4 and 6, so grid rows stay whole across blocks. */
const BLOCK_SIZE = 12;
/** Space after each block of cards, in pixels (matches the grid gap inside a block). */
const BLOCK_GAP = 12;
import { $token, $user } from '../../stores/session.js';
import { createToasts } from '../../stores/toasts.js';
import { errorText } from '../ui/messages.js';
import { ElementShell, ToastList, useElement, type ShellProps } from '../ui/shell.js';
import { parseScheduleProps, SCHEDULE_PROPS, type ScheduleOptions, type ScheduleProps } from './attributes.js';
import { scheduleCss } from './styles.js';
import { eventTitle } from '../ui/event.js';
import { useBlockWindow } from './window.js';
import { FollowStar } from './FollowStar.js';

/** The element's root component. */
export function Schedule(props: ScheduleProps & ShellProps): ReactNode {
  return (
    <ElementShell container={props.container} lang={props.lang} css={scheduleCss}>
      {() => <ScheduleBody {...props} />}
    </ElementShell>
  );
}

/** Filter values chosen in the UI; '' means "All" (overriding an attribute), undefined means "as the attribute says". */
type Filters = { gender?: string | undefined; sport?: string | undefined; city?: string | undefined; state?: string | undefined };

function ScheduleBody(props: ScheduleProps): ReactNode {
  const { t, host } = useElement();
  // Keyed by the attribute values, not the props object: the shell re-renders its body whenever a session store
  // changes, and new options would re-render every loaded card.
  const propsKey = JSON.stringify(SCHEDULE_PROPS.map((name) => props[name]));
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const { options, notices } = useMemo(() => parseScheduleProps(props), [propsKey]);
  const [filters, setFilters] = useState<Filters>({});
  const schedule = useMemo(createSchedule, []);
  const toasts = useMemo(createToasts, []);
  useEffect(
    () => () => {
      schedule.destroy();
      toasts.destroy();
    },
    [schedule, toasts],
  );

  const noticeKey = notices.map((n) => `${n.name}=${n.value}`).join('|');
  useEffect(() => {
    for (const n of notices) {
      env().logger.warn(`<channel-schedule>: ignored ${n.name}="${n.value}"; expected ${n.expected}.`);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [noticeKey]);

  // UI filters start from the attributes and override them once chosen.
  const effective: Filters = {
    gender: filters.gender ?? options.gender,
    sport: filters.sport ?? options.sport,
    city: filters.city ?? options.city,
    state: filters.state ?? options.state,
  };
  const query: ScheduleQuery = {
    kind: options.kind,
    category: options.category,
    team: options.team,
    school: options.school,
    limit: options.limit,
    ...clean(effective),
    ...(options.favorites ? { favorites: true } : {}),
  };
  const queryKey = JSON.stringify(query);
  const user = useStore($user);
  const token = useStore($token);
  const favouritesVersion = useStore($favouritesVersion);
  // A purchase anywhere on the page changes the purchased badges.
  const [purchases, setPurchases] = useState(0);
  useEffect(() => {
    const target = env().eventTarget;
    const onPurchase = () => setPurchases((n) => n + 1);
    target?.addEventListener('channel-purchase-complete', onPurchase);
    return () => target?.removeEventListener('channel-purchase-complete', onPurchase);
  }, []);
  // Signing in or out changes every answer (access badges); a favourites list also follows its user and
  // every change to their favourites.
  const viewer = `${token ? 'user' : 'guest'}|${purchases}|${options.favorites ? `${user?.id ?? ''}:${user?.temporary_password ? 'locked' : ''}:${favouritesVersion}` : ''}`;
  useEffect(() => {
    schedule.setQuery(JSON.parse(queryKey) as ScheduleQuery);
  }, [schedule, queryKey, viewer]);

  const state = useStore(schedule.$state);
  const toastList = useStore(toasts.$toasts);
  const filtered = Object.values(clean(effective)).length > 0;
  const titleId = useId();
  // Stable callbacks, so that appending a page re-renders only the new rows.
  const onSelect = useCallback(
    (event: Event, e: MouseEvent) => {
      if (!host.dispatchEvent(new ChannelEventSelectEvent({ id: event.id }))) e.preventDefault();
    },
    [host],
  );
  // A guest's star asks to sign in (a signed-in user's star opens its own popover, see FollowStar).
  const onStar = useCallback(
    (event: Event) => {
      toasts.show(t('schedule.favourite.login'), 'info');
      host.dispatchEvent(new ChannelLoginRequestEvent({ reason: 'favourite', eventId: event.id }));
    },
    [toasts, t, host],
  );
  const onLoadMore = useCallback(() => schedule.loadMore(), [schedule]);
  // One index of the user's favourites for the whole list; each card gets only its own yes or no.
  const favouriteIndex = useStore($favouriteIndex);
  const following = useCallback((event: Event) => followsEvent(event, favouriteIndex), [favouriteIndex]);
  const favourites = useStore($favourites);
  const noFavourites = Boolean(favourites) && (Object.keys(CHOSEN_KINDS) as ChosenKind[]).every((k) => favourites![k].length === 0);
  const title = scheduleTitle(options, t);

  return (
    <section className={options.layout} aria-labelledby={titleId} aria-busy={state.status === 'loading'} part="schedule">
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
      {notices.map((n) => (
        <p className="notice" key={n.name} part="notice">
          {t('errors.badAttribute', { name: n.name, value: n.value, expected: n.expected })}
        </p>
      ))}
      {options.showFilters ? (
        <FilterBar
          value={effective}
          onChange={(next) => setFilters(next)}
          onClear={() => setFilters({ gender: '', sport: '', city: '', state: '' })}
        />
      ) : null}
      {state.status === 'loading' ? (
        <Skeleton />
      ) : state.status === 'signed-out' ? (
        <div className="panel" part="sign-in">
          <p>{t('schedule.favourites.signIn')}</p>
          <button
            type="button"
            className="btn"
            part="button sign-in-button"
            onClick={() => host.dispatchEvent(new ChannelLoginRequestEvent({ reason: 'favourite' }))}
          >
            {t('schedule.favourites.signInButton')}
          </button>
        </div>
      ) : state.status === 'locked' ? (
        <div className="panel" role="status" part="message temporary-password">
          <p>{t('errors.temporaryPassword')}</p>
        </div>
      ) : state.status === 'error' ? (
        <div className="panel error" role="alert" part="error">
          <p>{t('schedule.loadError')}</p>
          <p className="detail">{errorText(state.error, t)}</p>
          <button type="button" className="btn" part="button" onClick={() => schedule.retry()}>
            {t('common.retry')}
          </button>
        </div>
      ) : state.events.length === 0 ? (
        <div className="panel" part="empty">
          <p>
            {filtered
              ? t('schedule.empty.filtered')
              : !options.favorites
                ? t(`schedule.empty.${options.kind}`)
                : noFavourites
                  ? t('schedule.favourites.none')
                  : t('schedule.favourites.empty')}
          </p>
        </div>
      ) : (
        <EventList
          events={state.events}
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
      )}
      <ToastList toasts={toastList} onDismiss={toasts.dismiss} />
    </section>
  );
}

/** The heading of a schedule: its kind, and whose favourites when it lists only those. */
function scheduleTitle(options: ScheduleOptions, t: ReturnType<typeof useElement>['t']): string {
  const kind = t(`schedule.titles.${options.kind}`);
  return options.favorites ? t('schedule.favourites.title', { title: kind }) : kind;
}

function clean(filters: Filters): Partial<Filters> {
  const out: Partial<Filters> = {};
  for (const [k, v] of Object.entries(filters)) if (v) (out as Record<string, string>)[k] = v;
  return out;
}

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

/** Whether the viewer can favourite, and which events touch one of their favourites. */
interface StarProps {
  signedIn: boolean;
  following(event: Event): boolean;
}

interface ListProps extends StarProps {
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
function EventList(props: ListProps): ReactNode {
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
    const rows = props.events.map((event) => (
      <EventItem
        key={event.id}
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

/** The access badge of an event: free, register, paid/ppv, or purchased when a paid event is accessible. */
export function accessBadge(event: Event): 'free' | 'register' | 'paid' | 'ppv' | 'purchased' {
  if (event.type === 'free') return 'free';
  if (event.type === 'register') return 'register';
  if (event.has_access) return 'purchased';
  return event.type === 'ppv' ? 'ppv' : 'paid';
}

interface ItemProps {
  event: Event;
  options: ScheduleOptions;
  onSelect(event: Event, e: MouseEvent): void;
  onStar(event: Event): void;
  signedIn: boolean;
  /** A team, school or sport of this event is a favourite. */
  following: boolean;
}

const EventItem = memo(function EventItem(props: ItemProps): ReactNode {
  const { t, lang, currency } = useElement();
  const { event, options } = props;
  const title = eventTitle(event, t as never);
  const when = formatEventTime(event.event_utc_ts, event.time_zone ?? event.location?.time_zone, lang);
  const href = fillTemplate(options.watchUrl, { id: event.id }, document.baseURI) ?? `#event-${event.id}`;
  const access = accessBadge(event);
  const meta = [event.category?.name, event.location && [event.location.city, event.location.state].filter(Boolean).join(', ')]
    .filter(Boolean)
    .join(' · ');
  const badges = (
    <span className="badges">
      {event.stream_status === 'live' ? (
        <span className="badge live" part="badge badge-live">
          {t('schedule.badges.live')}
        </span>
      ) : null}
      <span className={`badge ${access}`} part={`badge badge-${access}`}>
        {t(`schedule.badges.${access}`)}
        {(access === 'paid' || access === 'ppv') && event.price ? ` · ${formatPrice(event.price, currency, lang)}` : ''}
      </span>
    </span>
  );
  const star = props.signedIn ? (
    <FollowStar event={event} title={title} following={props.following} />
  ) : (
    <button
      type="button"
      className="star"
      part="favourite"
      aria-pressed="false"
      aria-label={t('schedule.favourite.add', { name: title })}
      onClick={() => props.onStar(event)}
    >
      ☆
    </button>
  );
  const time = (
    <time className="when" dateTime={when.iso}>
      <span>
        {when.date} · {when.time}
      </span>
      {when.venueTime ? <span className="venue">{t('schedule.venueTime', { time: when.venueTime })}</span> : null}
    </time>
  );

  if (options.view === 'table') {
    return (
      <tr part="row">
        <td>
          <a href={href} onClick={(e) => props.onSelect(event, e)} part="event-link">
            {title}
          </a>
          {meta ? <div className="meta">{meta}</div> : null}
        </td>
        <td>{when.date}</td>
        <td>
          {when.time}
          {when.venueTime ? <div className="meta">{t('schedule.venueTime', { time: when.venueTime })}</div> : null}
        </td>
        <td>{badges}</td>
        <td className="actions">{star}</td>
      </tr>
    );
  }
  return (
    <div className="item" role="listitem" part="event">
      <a className="card" href={href} onClick={(e) => props.onSelect(event, e)} part="event-link card">
        {meta ? <span className="meta">{meta}</span> : null}
        <span className="name" part="event-name">
          {title}
        </span>
        {time}
        {badges}
      </a>
      {star}
    </div>
  );
});

/** The gender, sport, city and state filters (attribute `show-filters`). */
function FilterBar(props: { value: Filters; onChange(next: Filters): void; onClear(): void }): ReactNode {
  const { t } = useElement();
  const cats = useStore(categories.$items);
  const locs = useStore(locations.$items);
  useEffect(() => {
    // Filters are best effort: without the catalogues they offer only "All".
    categories.load().catch(() => undefined);
    locations.load().catch(() => undefined);
  }, []);

  const sports = useMemo(() => sportOptions(cats ?? []), [cats]);
  const cities = useMemo(() => unique((locs ?? []).map((l) => l.city)), [locs]);
  const states = useMemo(() => unique((locs ?? []).map((l) => l.state)), [locs]);
  const v = props.value;
  const set = (key: keyof Filters) => (e: { target: { value: string } }) =>
    props.onChange({ ...v, [key]: e.target.value || '' });

  return (
    <form className="filters" role="search" aria-label={t('schedule.filters.label')} part="filters" onSubmit={(e) => e.preventDefault()}>
      <Select label={t('schedule.filters.gender')} value={v.gender} onChange={set('gender')}>
        <option value="male">{t('schedule.filters.male')}</option>
        <option value="female">{t('schedule.filters.female')}</option>
      </Select>
      <Select label={t('schedule.filters.sport')} value={v.sport} onChange={set('sport')}>
        {withCurrent(sports, v.sport).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Select>
      <Select label={t('schedule.filters.city')} value={v.city} onChange={set('city')}>
        {withCurrent(cities.map((c) => [c, c] as const), v.city).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Select>
      <Select label={t('schedule.filters.state')} value={v.state} onChange={set('state')}>
        {withCurrent(states.map((s) => [s, s] as const), v.state).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Select>
      <button type="button" className="btn secondary" onClick={props.onClear}>
        {t('schedule.filters.clear')}
      </button>
    </form>
  );
}

function Select(props: {
  label: string;
  value: string | undefined;
  onChange(e: { target: { value: string } }): void;
  children: ReactNode;
}): ReactNode {
  const { t } = useElement();
  return (
    <label>
      {props.label}
      <select value={props.value ?? ''} onChange={props.onChange}>
        <option value="">{t('schedule.filters.any')}</option>
        {props.children}
      </select>
    </label>
  );
}

/** Keeps a value chosen by attribute selectable even before (or without) the catalogue listing it. */
function withCurrent(options: readonly (readonly [string, string])[], current: string | undefined): (readonly [string, string])[] {
  if (!current || options.some(([v]) => v.toLowerCase() === current.toLowerCase())) return [...options];
  return [...options, [current, current] as const];
}

function unique(values: (string | null | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => Boolean(v)))].sort((a, b) => a.localeCompare(b));
}

/** Sports from the category tree: each distinct `sport`, labelled by its top-level category's name. */
function sportOptions(tree: EventCategory[]): [string, string][] {
  const out = new Map<string, string>();
  const walk = (cats: EventCategory[], top?: EventCategory) => {
    for (const c of cats) {
      const root = top ?? c;
      if (c.sport && !out.has(c.sport)) out.set(c.sport, root.sport === c.sport ? root.name : c.sport);
      if (c.children) walk(c.children, root);
    }
  };
  walk(tree);
  return [...out].sort((a, b) => a[1].localeCompare(b[1]));
}
