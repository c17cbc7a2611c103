/**
 * The schedule store's query building (src/stores/schedule.ts): a view's options with the viewer's filters
 * (`show` and `filter` themselves are tested with the store in stores.test.ts).
 */
import { expect } from '@open-wc/testing';
import {
  clearedFilters,
  effectiveFilters,
  eventsQuery,
  narrows,
  NO_FILTERS,
  scheduleQuery,
} from '../../src/stores/schedule.js';

describe('schedule query', () => {
  it('a chosen filter overrides the option, "All" (empty) drops it, the rest of the options pass through', () => {
    const base = { kind: 'live' as const, team: 'hawks', sport: 'hockey', city: 'Boston', location: '4', limit: 20 };
    expect(scheduleQuery(base, {})).to.deep.equal({
      kind: 'live',
      category: undefined,
      team: 'hawks',
      school: undefined,
      location: '4',
      limit: 20,
      sport: 'hockey',
      city: 'Boston',
    });
    const chosen = { sport: 'basketball', city: '' };
    expect(effectiveFilters(base, chosen)).to.deep.equal({
      gender: undefined,
      sport: 'basketball',
      city: '',
      state: undefined,
      day: undefined,
      properties: {},
    });
    expect(scheduleQuery(base, chosen)).to.deep.include({ sport: 'basketball' }).and.not.have.property('city');
    expect(narrows(effectiveFilters(base, chosen))).to.equal(true);
    expect(narrows(effectiveFilters(base, NO_FILTERS))).to.equal(false);
  });

  it("a calendar day: the chosen one over the option, '' for all days; Clear filters keeps it", () => {
    const base = { kind: 'all' as const, day: '2030-03-02' };
    expect(scheduleQuery(base, {})).to.include({ day: '2030-03-02' });
    expect(scheduleQuery(base, { day: '2030-03-05' })).to.include({ day: '2030-03-05' });
    expect(scheduleQuery(base, { day: '' })).to.not.have.property('day');
    expect(scheduleQuery(base, { ...NO_FILTERS })).to.include({ day: '2030-03-02' });
  });

  it("sends a day as start_date and end_date: the viewer's midnight and the spec's 86,400 s (the pinned zone is New York)", () => {
    const query = eventsQuery({ kind: 'upcoming', day: '2030-03-02' }, 0);
    const midnight = Date.UTC(2030, 2, 2, 5) / 1000;
    expect(query).to.include({
      stream_status: 'upcoming',
      start_date: String(midnight),
      end_date: String(midnight + 86_399),
    });
    expect(eventsQuery({ kind: 'upcoming' }, 0)).to.not.have.any.keys('start_date', 'end_date');
  });

  it('school properties: by their own query names, "All" drops one, the list\'s own names are never taken', () => {
    const base = { kind: 'all' as const, properties: { division: 'I' } };
    expect(scheduleQuery(base, {}).properties).to.deep.equal({ division: 'I' });
    const chosen = { properties: { conference: 'Atlantic', division: '' } };
    expect(scheduleQuery(base, chosen).properties).to.deep.equal({ conference: 'Atlantic' });
    expect(eventsQuery(scheduleQuery(base, chosen), 0))
      .to.include({ conference: 'Atlantic' })
      .and.not.have.property('division');
    expect(scheduleQuery(base, { properties: { sport: 'x', limit: '3' } }).properties).to.deep.equal({ division: 'I' });
    expect(narrows(effectiveFilters(base, clearedFilters(effectiveFilters(base, chosen))))).to.equal(false);
  });

  it('asks for favourites only when the options say so', () => {
    expect(scheduleQuery({ kind: 'all', favorites: true }, {})).to.have.property('favorites', true);
    expect(scheduleQuery({ kind: 'all', favorites: false }, {})).to.not.have.property('favorites');
  });
});
