/**
 * `<channel-schedule structured-data>`: schema.org JSON-LD for the events the schedule shows, written into the host
 * document's head so a partner's schedule page earns search engines' event results. Each event is a `SportsEvent`
 * (its teams, its start and end, where to watch it online, and for paid events the offer and its price) with the
 * `BroadcastEvent` that streams it. The objects are typed with schema-dts (schema.org's vocabulary as types), so a
 * type or property schema.org does not define fails the build. A chunk of its own, with the component that writes the
 * script: a schedule fetches it only when it has the attribute, at the first idle moment after it shows events
 * (ScheduleView.tsx), so a schedule without it never carries that code and one with it does not wait for it.
 */
import { useEffect, useMemo } from 'react';
import type { BroadcastEvent, Graph, Offer, SportsEvent, SportsTeam } from 'schema-dts';
import type { Event } from '../../api/channel-schemas.js';
import { env } from '../../lib/env.js';
import { toJson } from '../../lib/json.js';
import { currencyCode } from '../../lib/money.js';
import { setScriptText, textOf } from '../../lib/trusted-types.js';
import { fillTemplate } from '../../lib/url.js';

/** What the objects need beyond the events: where each is watched, its currency, and who runs the channel. */
export interface StructuredDataContext {
  watchUrl: string;
  base: string;
  currency: string;
  channelName?: string | undefined;
}

const SCHEMA = 'https://schema.org/';

/** The schema.org graph for a list of events: a SportsEvent and its BroadcastEvent each. */
export function eventsGraph(events: readonly Event[], context: StructuredDataContext): Graph {
  const graph: (SportsEvent | BroadcastEvent)[] = [];
  for (const event of events) {
    const relative = fillTemplate(context.watchUrl, { id: event.id }, context.base);
    if (!relative) continue;
    const url = new URL(relative, context.base).href;
    const start = new Date(event.event_utc_ts * 1000);
    if (Number.isNaN(start.getTime())) continue;
    const ends = event.duration && event.duration > 0 ? new Date(start.getTime() + event.duration * 1000) : undefined;
    // A duration past the dates' range has no end worth saying.
    const end = ends && !Number.isNaN(ends.getTime()) ? ends : undefined;
    const id = `${url}#event`;
    const free = event.type === 'free' || event.type === 'register';
    const home = event.participants.find((p) => p.id === event.home_team_id);
    const away = home ? event.participants.filter((p) => p !== home) : [];
    const team = (p: Event['participants'][number]): SportsTeam => ({
      '@type': 'SportsTeam',
      name: p.name,
      ...(p.images?.logo ? { logo: absolute(p.images.logo, context.base) } : {}),
    });
    const offer: Offer | undefined =
      !free && event.price !== null && event.price !== undefined
        ? {
            '@type': 'Offer',
            price: event.price,
            priceCurrency: currencyCode(context.currency),
            url,
            availability: `${SCHEMA}InStock`,
          }
        : undefined;
    graph.push({
      '@type': 'SportsEvent',
      '@id': id,
      name: event.name,
      url,
      startDate: start.toISOString(),
      ...(end ? { endDate: end.toISOString() } : {}),
      eventStatus: `${SCHEMA}EventScheduled`,
      eventAttendanceMode: `${SCHEMA}OnlineEventAttendanceMode`,
      location: { '@type': 'VirtualLocation', url },
      ...(event.image ? { image: absolute(event.image, context.base) } : {}),
      ...(event.description ? { description: textOf(event.description) } : {}),
      ...(event.category?.name ? { sport: event.category.name } : {}),
      ...(home ? { homeTeam: team(home), ...(away.length ? { awayTeam: away.map(team) } : {}) } : {}),
      ...(!home && event.participants.length ? { competitor: event.participants.map(team) } : {}),
      ...(context.channelName ? { organizer: { '@type': 'Organization', name: context.channelName } } : {}),
      isAccessibleForFree: free,
      ...(offer ? { offers: offer } : {}),
    });
    graph.push({
      '@type': 'BroadcastEvent',
      name: event.name,
      url,
      broadcastOfEvent: { '@id': id },
      isLiveBroadcast: event.stream_status !== 'finished',
      startDate: start.toISOString(),
      ...(end ? { endDate: end.toISOString() } : {}),
      isAccessibleForFree: free,
      ...(offer ? { offers: offer } : {}),
    });
  }
  return { '@context': 'https://schema.org', '@graph': graph };
}

/** A URL from the API made absolute (search engines need absolute URLs). */
function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/** JSON for a <script> element: `<` escaped so no text in it can close the script or open a comment. */
export function scriptJson(value: unknown): string {
  return toJson(value).replace(/</g, '\\u003c');
}

/**
 * Keeps one `<script type="application/ld+json">` in the host document's head with `events`, while it is rendered
 * (the schedule renders it while it has `structured-data` and shows events); removed when it goes.
 */
export function StructuredData(props: { events: readonly Event[]; context: StructuredDataContext }): null {
  const { events } = props;
  const { watchUrl, base, currency, channelName } = props.context;
  // Events the builder cannot read cost the JSON-LD only, never the schedule around it.
  const text = useMemo(() => {
    try {
      return scriptJson(eventsGraph(events, { watchUrl, base, currency, channelName }));
    } catch {
      return undefined;
    }
  }, [events, watchUrl, base, currency, channelName]);
  useEffect(() => {
    if (text === undefined || typeof document === 'undefined' || !document.head) return;
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.dataset.channelSchedule = '';
    if (!setScriptText(script, text, env().logger)) return;
    document.head.append(script);
    return () => script.remove();
  }, [text]);
  return null;
}
