/** One event of a schedule: a card, or a table row, with its badges, its link and its favourites star. */
import { env } from '../../lib/env.js';
import { Fragment, memo, useState, type CSSProperties, type MouseEvent, type ReactNode } from 'react';
import type { Event } from '../../api/channel-schemas.js';
import { formatEventTime } from '../../lib/time.js';
import { prefersReducedMotion } from '../../lib/motion.js';
import { fillTemplate, safeUrl } from '../../lib/url.js';
import { useElement } from '../ui/context.js';
import { lazyPart } from './shared.js';
import { eventTitle } from '../ui/event.js';
import { usePrice } from '../ui/price.js';
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
  /** Among the first cards, likely on screen at once: its picture loads at once rather than when scrolled to. */
  eager?: boolean | undefined;
}

/** The preview loop, fetched the first time a card with a preview is pointed at or focused (a nicety: the picture stays). */
const usePreview = lazyPart('the preview', () => import('../ui/preview.js').then((m) => m.Preview));
/** A signed-in viewer's star with its Follow popover: a guest's page never fetches it. */
const useFollowStar = lazyPart('the favourites', () => import('./FollowStar.js').then((m) => m.FollowStar));

/** How many of a list's first cards load their pictures at once (the rest when scrolled near). */
export const EAGER_PICTURES = 4;

/** The teams of a match, away then home: two teams, one of them at home. */
function matchTeams(event: Event): Event['participants'] | undefined {
  const [a, b] = event.participants;
  if (!a || !b || event.participants.length !== 2) return undefined;
  if (event.home_team_id === a.id) return [b, a];
  return event.home_team_id === b.id ? [a, b] : undefined;
}

/** A team's colour from the API, if it is a plain hex colour (anything else could say more to CSS than a colour). */
const teamColor = (color: string | null | undefined) =>
  color && /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(color)
    ? ({ '--_team': color } as CSSProperties)
    : undefined;

/**
 * A card's picture, in a box of fixed shape whatever comes (so nothing moves when it loads): the event's picture,
 * else for a match both teams' logos in their colours (away @ home, a team without a logo by its short name), else
 * the box alone. Its pictures have an empty alt: the card's title, right under them, says what they show. The live badge sits over it; while the card is pointed at or focused, its preview plays over it.
 */
function CardPicture(props: { event: Event; eager: boolean; active: boolean; live: ReactNode }): ReactNode {
  const { event } = props;
  const media = (type: string) => safeUrl(event.media.find((m) => m.type === type)?.url);
  const image = media('image') ?? safeUrl(event.image);
  const teams = image ? undefined : matchTeams(event);
  const loading = props.eager ? 'eager' : 'lazy';
  // None for a viewer who prefers less motion: the picture stays (and the preview's code is not fetched).
  const preview = props.active && !prefersReducedMotion() ? media('preview') : undefined;
  const Preview = usePreview(Boolean(preview));
  return (
    <span className={`pic${teams ? ' teams' : ''}`} part="event-picture">
      {image ? <img src={image} alt="" loading={loading} decoding="async" /> : null}
      {teams?.map((team, i) => {
        const logo = safeUrl(team.images?.logo);
        return (
          <Fragment key={team.id}>
            {i ? (
              <span className="at" aria-hidden="true">
                @
              </span>
            ) : null}
            <span className="team" style={teamColor(team.color)} part="event-team-logo">
              {logo ? (
                <img src={logo} alt="" loading={loading} decoding="async" />
              ) : (
                <span className="abbr" aria-hidden="true">
                  {team.short_name ?? team.name}
                </span>
              )}
            </span>
          </Fragment>
        );
      })}
      {preview && Preview ? <Preview src={preview} alt={media('preview_alt')} part="event-preview" /> : null}
      {props.live}
    </span>
  );
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
  const [active, setActive] = useState(false);
  const live =
    event.stream_status === 'live' ? (
      <span className="badge live" part="badge badge-live">
        {t('schedule.badges.live')}
      </span>
    ) : null;
  const meta = [
    event.category?.name,
    event.location && [event.location.city, event.location.state].filter(Boolean).join(', '),
  ]
    .filter(Boolean)
    .join(' · ');
  const badges = (
    <span className="badges">
      {options.view === 'table' ? live : null}
      <span className={`badge ${access}`} part={`badge badge-${access}`}>
        {t(`schedule.badges.${access}`)}
        {(access === 'paid' || access === 'ppv') && event.price ? ` · ${price(event.price)}` : ''}
      </span>
    </span>
  );
  // Until its code is in (a moment after the sign-in is known), a signed-in viewer's card has no star: it sits over
  // the card's corner, so nothing moves when it comes.
  const FollowStar = useFollowStar(props.signedIn);
  const star = props.signedIn ? (
    FollowStar ? (
      <FollowStar event={event} title={title} following={props.following} />
    ) : null
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
      <a
        className="card"
        href={href}
        onClick={(e) => props.onSelect(event, e)}
        part="event-link card"
        onMouseEnter={() => setActive(true)}
        onMouseLeave={() => setActive(false)}
        onFocus={() => setActive(true)}
        onBlur={() => setActive(false)}
      >
        <CardPicture event={event} eager={Boolean(props.eager)} active={active} live={live} />
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
