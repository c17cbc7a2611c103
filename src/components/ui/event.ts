/** Event texts shared by the elements. */
import type { Event } from '../../api/channel-schemas.js';

/** The title of an event: "Away @ Home" with short names for two participants, else its name. */
export function eventTitle(event: Event, t: (key: string, o?: Record<string, unknown>) => string): string {
  const [a, b] = event.participants;
  if (event.participants.length === 2 && a && b) {
    const home = event.participants.find((p) => p.id === event.home_team_id) ?? b;
    const away = home === a ? b : a;
    return t('schedule.versus', { away: away.short_name || away.name, home: home.short_name || home.name });
  }
  return event.name;
}
