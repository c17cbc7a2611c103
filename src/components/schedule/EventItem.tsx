/** One event of a schedule: a card, or a table row, with its badges, its link and its favourites star. */
import { env } from '../../lib/env.js';
import { memo, type MouseEvent, type ReactNode } from 'react';
import type { Event } from '../../api/contract.js';
import { formatEventTime } from '../../lib/time.js';
import { fillTemplate } from '../../lib/url.js';
import { useElement } from '../ui/context.js';
import { eventTitle } from '../ui/event.js';
import { usePrice } from '../ui/price.js';
import { FollowStar } from './FollowStar.js';
import type { ScheduleOptions } from './options.js';

/** The access badge of an event: free, register, paid/ppv, or purchased when a paid event is accessible. */
export function accessBadge(event: Event): 'free' | 'register' | 'paid' | 'ppv' | 'purchased' {
  if (event.type === 'free') return 'free';
  if (event.type === 'register') return 'register';
  if (event.has_access) return 'purchased';
  return event.type === 'ppv' ? 'ppv' : 'paid';
}

/** What a card gets: its event, the view's options and the list's shared callbacks. */
export interface ItemProps {
  event: Event;
  options: ScheduleOptions;
  /** The viewer activated the event's link (the handler may prevent following it). */
  onSelect(event: Event, e: MouseEvent): void;
  /** A guest pressed the star. */
  onStar(event: Event): void;
  signedIn: boolean;
  /** A team, school or sport of this event is a favourite. */
  following: boolean;
}

/** The card (or row) of one event; memoised, so appending a page re-renders only the new cards. */
export const EventItem = memo(function EventItem(props: ItemProps): ReactNode {
  const { t, lang } = useElement();
  const price = usePrice();
  const { event, options } = props;
  const title = eventTitle(event, t as never);
  const when = formatEventTime(event.event_utc_ts, event.time_zone ?? event.location?.time_zone, lang);
  // A relative template resolves against the page's base, as a link the page wrote itself would (reading the
  // document's base is a view's business, not a store's).
  const href =
    fillTemplate(options.watchUrl, { id: event.id }, env().baseUrl() ?? 'http://localhost/') ?? `#event-${event.id}`;
  const access = accessBadge(event);
  const meta = [
    event.category?.name,
    event.location && [event.location.city, event.location.state].filter(Boolean).join(', '),
  ]
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
        {(access === 'paid' || access === 'ppv') && event.price ? ` · ${price(event.price)}` : ''}
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
