/**
 * `<channel-schedule>` attributes: their names (listed once), and their parsing into the view's options. A bad
 * value is ignored with a notice (see `useAttributes`), never a crash.
 */
import { env } from '../../lib/env.js';
import { MAX_EVENTS_PAGE } from '../../api/channel-schemas.js';
import { dayOf, isDay } from '../../lib/time.js';
import { fillTemplate } from '../../lib/url.js';
import { AttributeReader, boolAttr, type Parsed } from '../ui/attributes.js';
import { SCHEDULE_KINDS, type ScheduleKind } from '../../stores/schedule.js';
import type { LibraryOptions } from '../library/options.js';
import { DEFAULT_LIBRARY_URL, DEFAULT_WATCH_URL, SCHEDULE_DEFAULTS, type ScheduleOptions } from './options.js';

export { DEFAULT_WATCH_URL } from './options.js';

/** Attribute names of `<channel-schedule>` as r2wc props (camelCase; r2wc maps them to kebab-case). */
export const SCHEDULE_PROPS = [
  'kind',
  'category',
  'team',
  'school',
  'sport',
  'gender',
  'city',
  'state',
  'layout',
  'view',
  'limit',
  'watchUrl',
  'showFilters',
  'showCalendar',
  'day',
  'favourites',
  'favorites',
  'structuredData',
  'lang',
] as const;

/** Raw attribute values as r2wc hands them over (strings, or undefined when absent). */
export type ScheduleProps = Partial<Record<(typeof SCHEDULE_PROPS)[number], string>>;

const MALE = ['m', 'male', 'men'];
const FEMALE = ['w', 'f', 'female', 'women'];

/** `gender`: the spellings people use for either, else a notice. */
function gender(read: AttributeReader, value: string | undefined): ScheduleOptions['gender'] {
  if (!value) return undefined;
  const g = value.trim().toLowerCase();
  if (MALE.includes(g)) return 'male';
  if (FEMALE.includes(g)) return 'female';
  return read.ignore('gender', value, 'male, female');
}

/** `limit`: a whole number of events the API serves in one list. */
function limit(read: AttributeReader, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1 && n <= MAX_EVENTS_PAGE) return n;
  return read.ignore('limit', value, `1 to ${MAX_EVENTS_PAGE}`);
}

/** `day`: a real `YYYY-MM-DD` day, or `today` (the viewer's, in their time zone), else a notice. */
function day(read: AttributeReader, value: string | undefined): string | undefined {
  const v = value?.trim().toLowerCase();
  if (!v) return undefined;
  if (v === 'today') return dayOf(env().now() / 1000);
  if (isDay(v)) return v;
  return read.ignore('day', value!, 'a day written YYYY-MM-DD, or today');
}

/** `watch-url`: any relative or http(s) template (watch.html?id={id}, ?event={id}); fillTemplate refuses the rest. */
function watchUrl(read: AttributeReader, value: string | undefined, fallback = DEFAULT_WATCH_URL): string {
  if (!value) return fallback;
  const v = value.trim();
  const base = env().baseUrl() ?? 'http://localhost/';
  if (v && fillTemplate(v, { id: 1 }, base)) return v;
  read.ignore('watch-url', value, `a URL template such as ${fallback}`);
  return fallback;
}

/** What the tag renders: today's events schedule, or (`kind="library"`) the video-on-demand library. */
export type ScheduleTagOptions =
  { view: 'events'; options: ScheduleOptions } | { view: 'library'; options: LibraryOptions };

/** The `kind` that renders the library instead of events. */
export const LIBRARY_KIND = 'library';

/**
 * Parses the tag's attributes: `kind="library"` reads the library's (`watch-url`, default /watch_library/{id},
 * and `category`, a library category to open first); any other kind the events schedule's.
 */
export function parseScheduleTag(props: ScheduleProps): Parsed<ScheduleTagOptions> {
  if (props.kind?.trim().toLowerCase() !== LIBRARY_KIND) {
    const { options, notices } = parseScheduleProps(props);
    return { options: { view: 'events', options }, notices };
  }
  const read = new AttributeReader();
  return read.done<ScheduleTagOptions>({
    view: 'library',
    options: {
      watchUrl: watchUrl(read, props.watchUrl, DEFAULT_LIBRARY_URL),
      category: props.category?.trim() || undefined,
    },
  });
}

/** Parses the schedule's attributes into the view's options. */
export function parseScheduleProps(props: ScheduleProps): Parsed<ScheduleOptions> {
  const read = new AttributeReader();
  const text = (value: string | undefined) => value?.trim() || undefined;
  const d = SCHEDULE_DEFAULTS;
  // Read in this order so that the notices keep it (kind, layout, view, gender, day, limit, watch-url).
  // The library is a kind too (its notice lists it), though parseScheduleTag reads its attributes.
  const kinds = [...(Object.keys(SCHEDULE_KINDS) as ScheduleKind[]), LIBRARY_KIND] as const;
  const picked = read.pick('kind', props.kind, kinds, d.kind);
  const kind = picked === LIBRARY_KIND ? d.kind : picked;
  const layout = read.pick('layout', props.layout, ['grid', 'list'] as const, d.layout);
  const view = read.pick('view', props.view, ['card', 'table'] as const, d.view);
  return read.done<ScheduleOptions>({
    kind,
    category: text(props.category),
    team: text(props.team),
    school: text(props.school),
    sport: text(props.sport),
    gender: gender(read, props.gender),
    city: text(props.city),
    state: text(props.state),
    day: day(read, props.day),
    layout,
    view,
    limit: limit(read, props.limit),
    watchUrl: watchUrl(read, props.watchUrl),
    showFilters: boolAttr(props.showFilters),
    showCalendar: boolAttr(props.showCalendar),
    // `favorites`, the spelling of earlier versions, still works; `favourites` wins where a tag has both.
    favourites: boolAttr(props.favourites ?? props.favorites),
    structuredData: boolAttr(props.structuredData),
  });
}
