/**
 * English texts of the schedule's filters (`schedule.filters.*`), whose code comes apart from the schedule's: FilterBar.tsx adds
 * them to the texts as it is evaluated, before it renders, rather than the shared chunk every page loads first
 * carrying them. French keeps them in fr.ts, fetched whole.
 */
export const filtersEn = {
  label: 'Filter events',
  gender: 'Gender',
  sport: 'Sport',
  city: 'City',
  state: 'State',
  any: 'All',
  male: 'Men',
  female: 'Women',
  clear: 'Clear filters',
  category: 'Category',
  team: 'Team',
  school: 'School',
  location: 'Venue',
  properties: { conference: 'Conference', division: 'Division', league: 'League' },
} as const;
