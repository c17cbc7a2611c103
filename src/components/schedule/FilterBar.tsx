/**
 * The gender, sport, city and state filters of a schedule (option `showFilters`), and one per school property
 * the channel lists (`participant-group-properties`: conference, division...), offered from the catalogues.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useMemo, type ReactNode } from 'react';
import type { EventCategory } from '../../api/channel-schemas.js';
import { categories, groupProperties, locations, participantGroups, participants } from '../../stores/catalog.js';
import { RESERVED_QUERY_NAMES, type ScheduleFilters } from '../../stores/schedule.js';
import { useElement, useStyles } from '../ui/context.js';
import { addBundledTexts } from '../../i18n/index.js';
import { filtersEn } from '../../i18n/filters-en.js';

// The filters' English texts travel with them, not in the shared chunk: added as this module is evaluated.
addBundledTexts('en', { schedule: { filters: filtersEn } });

/** A filter the view's options narrow to (the site's address: `event_category_id`, `participant_id`...). */
type Scope = 'category' | 'team' | 'school' | 'location';

/**
 * The filter form: the values in effect, and the viewer's choices back to the schedule. `scoped` are the filters the
 * view's options gave (a category, a team, a school, a venue): shown as chosen, each with its "All".
 */
export function FilterBar(props: {
  scoped?: readonly Scope[];
  value: ScheduleFilters;
  onChange(next: ScheduleFilters): void;
  onClear(): void;
}): ReactNode {
  useStyles(filtersCss);
  const { t } = useElement();
  const cats = useStore(categories.$items);
  const locs = useStore(locations.$items);
  const schoolProperties = useStore(groupProperties.$items);
  const teams = useStore(participants.$items);
  const schools = useStore(participantGroups.$items);
  const scoped = props.scoped ?? [];
  const scopedKey = scoped.join();
  useEffect(() => {
    // Filters are best effort: without the catalogues they offer only "All" (and no school property).
    categories.load().catch(() => undefined);
    locations.load().catch(() => undefined);
    groupProperties.load().catch(() => undefined);
    if (scopedKey.includes('team')) participants.load().catch(() => undefined);
    if (scopedKey.includes('school')) participantGroups.load().catch(() => undefined);
  }, [scopedKey]);

  const sports = useMemo(() => sportOptions(cats ?? []), [cats]);
  const cities = useMemo(() => unique((locs ?? []).map((l) => l.city)), [locs]);
  const states = useMemo(() => unique((locs ?? []).map((l) => l.state)), [locs]);
  const v = props.value;
  const set = (key: 'gender' | 'sport' | 'city' | 'state') => (e: { target: { value: string } }) =>
    props.onChange({ ...v, [key]: e.target.value || '' });
  const setProperty = (name: string) => (e: { target: { value: string } }) =>
    props.onChange({ ...v, properties: { ...v.properties, [name]: e.target.value || '' } });
  const properties = (schoolProperties ?? []).filter((p) => !RESERVED_QUERY_NAMES.has(p.name) && p.values.length);
  // A property the address chose that the channel does not list still shows, as chosen.
  for (const [name, value] of Object.entries(v.properties ?? {}))
    if (value && !RESERVED_QUERY_NAMES.has(name) && !properties.some((p) => p.name === name))
      properties.push({ name, values: [value] });
  const scopeOptions: Record<Scope, [string, string][]> = {
    category: flatten(cats ?? []).map((c) => [String(c.id), c.name]),
    team: (teams ?? []).map((p) => [String(p.id), p.name]),
    school: (schools ?? []).map((g) => [g.alias ?? g.name, g.name]),
    location: (locs ?? []).map((l) => [String(l.id), l.name]),
  };

  return (
    <form
      className="filters"
      role="search"
      aria-label={t('schedule.filters.label')}
      part="filters"
      onSubmit={(e) => e.preventDefault()}
    >
      {scoped.map((scope) => (
        <Select
          key={scope}
          label={t(`schedule.filters.${scope}`)}
          value={v[scope]}
          onChange={(e) => props.onChange({ ...v, [scope]: e.target.value || '' })}
        >
          {choices(scopeOptions[scope], v[scope])}
        </Select>
      ))}
      <Select label={t('schedule.filters.gender')} value={v.gender} onChange={set('gender')}>
        <option value="male">{t('schedule.filters.male')}</option>
        <option value="female">{t('schedule.filters.female')}</option>
      </Select>
      <Select label={t('schedule.filters.sport')} value={v.sport} onChange={set('sport')}>
        {choices(sports, v.sport)}
      </Select>
      <Select label={t('schedule.filters.city')} value={v.city} onChange={set('city')}>
        {choices(
          cities.map((c) => [c, c] as const),
          v.city,
        )}
      </Select>
      <Select label={t('schedule.filters.state')} value={v.state} onChange={set('state')}>
        {choices(
          states.map((s) => [s, s] as const),
          v.state,
        )}
      </Select>
      {properties.map((property) => (
        <Select
          key={property.name}
          label={t(`schedule.filters.properties.${property.name}`, { defaultValue: propertyLabel(property.name) })}
          value={v.properties?.[property.name]}
          onChange={setProperty(property.name)}
        >
          {choices(
            property.values.map((value) => [value, value] as const),
            v.properties?.[property.name],
          )}
        </Select>
      ))}
      <button type="button" className="btn secondary" onClick={props.onClear}>
        {t('schedule.filters.clear')}
      </button>
    </form>
  );
}

/** Every category of the tree, children after their parent. */
function flatten(tree: EventCategory[]): EventCategory[] {
  return tree.flatMap((c) => [c, ...flatten(c.children ?? [])]);
}

/** A labelled select whose first choice is "All" (''). */
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

/**
 * The options of a select, keeping a value chosen by attribute selectable even before (or without) the
 * catalogue listing it.
 */
function choices(options: readonly (readonly [string, string])[], current: string | undefined): ReactNode[] {
  // A value given by its name rather than its id (`?team=Hawks`) shows as that option's name.
  const named = current && options.find(([, label]) => label.toLowerCase() === current.toLowerCase());
  const all =
    !current || options.some(([v]) => v.toLowerCase() === current.toLowerCase())
      ? options
      : [...options, [current, named ? named[1] : current] as const];
  return all.map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}

/** A property's name as a label when there is no translation for it: `home_state` reads "Home state". */
function propertyLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The distinct non-empty values, sorted. */
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

/** The filters' styles, adopted while they are shown: they travel in this chunk, not in the schedule's first one. */
const filtersCss = /* css */ `
.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: end; margin-bottom: 14px; }
.filters label { display: grid; gap: 2px; font-size: .8em; color: var(--_muted); }
.filters select {
  min-width: 130px; min-height: 34px; padding: 4px 8px; border: 1px solid var(--_line); border-radius: 8px;
  background: var(--channel-input-background, #fff); color: var(--channel-input-text, #16181d); font-size: 1.05em;
}
`;
