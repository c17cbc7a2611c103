/**
 * The schedule store's query building (src/stores/schedule.ts): a view's options with the viewer's filters
 * (`show` and `filter` themselves are tested with the store in stores.test.ts).
 */
import { expect } from '@open-wc/testing';
import { effectiveFilters, narrows, NO_FILTERS, scheduleQuery } from '../../src/stores/schedule.js';

describe('schedule query', () => {
  it('a chosen filter overrides the option, "All" (empty) drops it, the rest of the options pass through', () => {
    const base = { kind: 'live' as const, team: 'hawks', sport: 'hockey', city: 'Boston', limit: 20 };
    expect(scheduleQuery(base, {})).to.deep.equal({
      kind: 'live',
      category: undefined,
      team: 'hawks',
      school: undefined,
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
    });
    expect(scheduleQuery(base, chosen)).to.deep.include({ sport: 'basketball' }).and.not.have.property('city');
    expect(narrows(effectiveFilters(base, chosen))).to.equal(true);
    expect(narrows(effectiveFilters(base, NO_FILTERS))).to.equal(false);
  });

  it('asks for favourites only when the options say so', () => {
    expect(scheduleQuery({ kind: 'all', favorites: true }, {})).to.have.property('favorites', true);
    expect(scheduleQuery({ kind: 'all', favorites: false }, {})).to.not.have.property('favorites');
  });
});
