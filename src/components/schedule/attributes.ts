/**
 * `<channel-schedule>` attributes: their names (listed once), and their parsing. A bad value is ignored with
 * a notice (shown translated in the element, and as an English console warning), never a crash.
 */
import { MAX_EVENTS_PAGE } from '../../api/contract.js';
import { fillTemplate } from '../../lib/url.js';
import { boolAttr, type AttributeNotice } from '../ui/attributes.js';
import { SCHEDULE_KINDS, type ScheduleKind } from '../../stores/schedule.js';

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
  'favorites',
  'lang',
] as const;

/** Raw attribute values as r2wc hands them over (strings, or undefined when absent). */
export type ScheduleProps = Partial<Record<(typeof SCHEDULE_PROPS)[number], string>>;


/** The parsed, safe attribute values. */
export interface ScheduleOptions {
  kind: ScheduleKind;
  category?: string | undefined;
  team?: string | undefined;
  school?: string | undefined;
  sport?: string | undefined;
  gender?: 'male' | 'female' | undefined;
  city?: string | undefined;
  state?: string | undefined;
  layout: 'grid' | 'list';
  view: 'card' | 'table';
  limit?: number | undefined;
  watchUrl: string;
  showFilters: boolean;
  /** Only the events of the signed-in user's favourites. */
  favorites: boolean;
}

/** Default link template of events. */
export const DEFAULT_WATCH_URL = '/watch/{id}';


/** Parses the schedule's attributes. */
export function parseScheduleProps(props: ScheduleProps): { options: ScheduleOptions; notices: AttributeNotice[] } {
  const notices: AttributeNotice[] = [];
  const pick = <T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T => {
    if (value === undefined || value === '') return fallback;
    const v = value.trim().toLowerCase() as T;
    if (allowed.includes(v)) return v;
    notices.push({ name, value, expected: allowed.join(', ') });
    return fallback;
  };
  const text = (value: string | undefined) => value?.trim() || undefined;

  const kind = pick('kind', props.kind, Object.keys(SCHEDULE_KINDS) as ScheduleKind[], 'upcoming');
  const layout = pick('layout', props.layout, ['grid', 'list'] as const, 'grid');
  const view = pick('view', props.view, ['card', 'table'] as const, 'card');
  let gender: ScheduleOptions['gender'];
  if (props.gender) {
    const g = props.gender.trim().toLowerCase();
    gender = g === 'm' || g === 'male' || g === 'men' ? 'male' : g === 'w' || g === 'f' || g === 'female' || g === 'women' ? 'female' : undefined;
    if (!gender) notices.push({ name: 'gender', value: props.gender, expected: 'male, female' });
  }
  let limit: number | undefined;
  if (props.limit !== undefined && props.limit !== '') {
    const n = Number(props.limit);
    if (Number.isInteger(n) && n >= 1 && n <= MAX_EVENTS_PAGE) limit = n;
    else notices.push({ name: 'limit', value: props.limit, expected: `1 to ${MAX_EVENTS_PAGE}` });
  }
  let watchUrl = DEFAULT_WATCH_URL;
  if (props.watchUrl) {
    const v = props.watchUrl.trim();
    // Any relative or http(s) template is fine (watch.html?id={id}, ?event={id}); fillTemplate refuses the rest.
    const base = typeof document === 'undefined' ? 'http://localhost/' : document.baseURI;
    if (v && fillTemplate(v, { id: 1 }, base)) watchUrl = v;
    else notices.push({ name: 'watch-url', value: props.watchUrl, expected: 'a URL template such as /watch/{id}' });
  }
  return {
    options: {
      kind,
      category: text(props.category),
      team: text(props.team),
      school: text(props.school),
      sport: text(props.sport),
      gender,
      city: text(props.city),
      state: text(props.state),
      layout,
      view,
      limit,
      watchUrl,
      showFilters: boolAttr(props.showFilters),
      favorites: boolAttr(props.favorites),
    },
    notices,
  };
}
