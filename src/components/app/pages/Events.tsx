/**
 * /upcoming, /vod, /live and /schedule: the events list, its kind from the path, filters from the query; all but
 * /live (today's only) with the calendar, `?day=YYYY-MM-DD` its first choice.
 */
import { useMemo, type ReactNode } from 'react';
import { SCHEDULE_DEFAULTS, ScheduleView, type ScheduleOptions } from '../../schedule/index.js';
import { scheduleCss } from '../../schedule/styles.js';
import { isDay } from '../../../lib/time.js';
import { useElement } from '../../ui/context.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';

const KINDS: Record<string, ScheduleOptions['kind']> = {
  upcoming: 'upcoming',
  vod: 'vod',
  live: 'live',
  schedule: 'all',
};

/** The events list page. */
export default function EventsPage(): ReactNode {
  useSiteStyles(scheduleCss);
  const { t } = useElement();
  const { route, href } = useSite();
  const q = route.query;
  const kind = KINDS[route.name] ?? 'upcoming';
  const watchUrl = href('/watch/{id}');
  const key = JSON.stringify([kind, q, watchUrl]);
  const options = useMemo<ScheduleOptions>(
    () => ({
      ...SCHEDULE_DEFAULTS,
      kind,
      showFilters: true,
      showCalendar: kind !== 'live',
      day: q.day && isDay(q.day) ? q.day : undefined,
      watchUrl,
      // The contract's query names: a menu or slide link may narrow the list.
      category: q.event_category_id || q.category_id || q.category || q.sport_category || undefined,
      team: q.participant_id || q.team || undefined,
      school: q.school || q.group || undefined,
      location: q.location || undefined,
      sport: q.sport || undefined,
      gender: q.gender === 'male' || q.gender === 'female' ? q.gender : undefined,
      city: q.city || undefined,
      state: q.state || undefined,
      // `division` (a query name of the contract) is a school property.
      properties: q.division ? { division: q.division } : undefined,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is kind, query and watchUrl by value: a new query object with the same values is the same list
    [key],
  );
  return (
    <>
      <PageHeading title={t(`site:titles.${route.name}`)} />
      <ScheduleView options={options} />
    </>
  );
}
