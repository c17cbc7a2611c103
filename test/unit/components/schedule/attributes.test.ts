/**
 * `<channel-schedule>` attribute parsing (src/components/schedule/attributes.ts): bad values become notices,
 * never crashes, and r2wc's empty boolean attribute counts as true.
 */
import { expect } from '@open-wc/testing';
import { DEFAULT_WATCH_URL, parseScheduleProps } from '../../../../src/components/schedule/attributes.js';
import { boolAttr } from '../../../../src/components/ui/attributes.js';

describe('parseScheduleProps', () => {
  it('gives the defaults for no attributes', () => {
    expect(parseScheduleProps({})).to.deep.equal({
      options: {
        kind: 'upcoming',
        category: undefined,
        team: undefined,
        school: undefined,
        sport: undefined,
        gender: undefined,
        city: undefined,
        state: undefined,
        day: undefined,
        layout: 'grid',
        view: 'card',
        limit: undefined,
        watchUrl: DEFAULT_WATCH_URL,
        showFilters: false,
        showCalendar: false,
        favourites: false,
        structuredData: false,
      },
      notices: [],
    });
  });

  it('reads show-calendar and a real YYYY-MM-DD day; anything else is ignored with a notice', () => {
    const good = parseScheduleProps({ showCalendar: '', day: ' 2028-02-29 ' });
    expect([good.options.showCalendar, good.options.day, good.notices]).to.deep.equal([true, '2028-02-29', []]);
    for (const day of ['2030-02-29', '29/02/2028', 'tomorrow']) {
      const { options, notices } = parseScheduleProps({ day });
      expect(options.day, day).to.equal(undefined);
      expect(notices.map((n) => n.name)).to.deep.equal(['day']);
    }
  });

  it('accepts good values, trimmed and case-insensitive', () => {
    const { options, notices } = parseScheduleProps({
      kind: ' VOD ',
      layout: 'List',
      view: 'table',
      limit: '12',
      team: '  hawks ',
      gender: 'W',
      watchUrl: 'https://tv.test/watch/{id}',
    });
    expect(notices).to.deep.equal([]);
    expect(options).to.deep.include({
      kind: 'vod',
      layout: 'list',
      view: 'table',
      limit: 12,
      team: 'hawks',
      gender: 'female',
      watchUrl: 'https://tv.test/watch/{id}',
    });
  });

  it('notices a bad kind and falls back to upcoming', () => {
    const { options, notices } = parseScheduleProps({ kind: 'replays' });
    expect(options.kind).to.equal('upcoming');
    expect(notices).to.deep.equal([{ name: 'kind', value: 'replays', expected: 'live, upcoming, vod, all, library' }]);
  });

  for (const bad of ['0', '-1', '2.5', 'ten', '5001']) {
    it(`notices limit="${bad}" and ignores it`, () => {
      const { options, notices } = parseScheduleProps({ limit: bad });
      expect(options.limit).to.equal(undefined);
      expect(notices).to.deep.equal([{ name: 'limit', value: bad, expected: '1 to 5000' }]);
    });
  }

  it('accepts the limit bounds 1 and 5000', () => {
    expect(parseScheduleProps({ limit: '1' }).options.limit).to.equal(1);
    expect(parseScheduleProps({ limit: '5000' }).options.limit).to.equal(5000);
  });

  for (const bad of [
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,x',
    'vbscript:x',
    'mailto:a@b.test',
  ]) {
    it(`notices watch-url="${bad}" and keeps the default`, () => {
      const { options, notices } = parseScheduleProps({ watchUrl: bad });
      expect(options.watchUrl).to.equal(DEFAULT_WATCH_URL);
      expect(notices).to.deep.equal([
        { name: 'watch-url', value: bad, expected: 'a URL template such as /watch/{id}' },
      ]);
    });
  }

  it('accepts relative and http(s) watch-url templates', () => {
    for (const good of ['/watch/{id}', './e/{id}', '../e/{id}', 'watch.html?id={id}', '?event={id}', 'event/{id}']) {
      expect(parseScheduleProps({ watchUrl: good }).options.watchUrl, good).to.equal(good);
    }
  });

  it('notices an unknown gender', () => {
    const { options, notices } = parseScheduleProps({ gender: 'mixed' });
    expect(options.gender).to.equal(undefined);
    expect(notices).to.deep.equal([{ name: 'gender', value: 'mixed', expected: 'male, female' }]);
  });

  it("treats show-filters='' (present, empty) as true and 'false' as false", () => {
    expect(parseScheduleProps({ showFilters: '' }).options.showFilters).to.equal(true);
    expect(parseScheduleProps({ showFilters: 'true' }).options.showFilters).to.equal(true);
    expect(parseScheduleProps({ showFilters: 'FALSE' }).options.showFilters).to.equal(false);
    expect(parseScheduleProps({}).options.showFilters).to.equal(false);
    expect(boolAttr('')).to.equal(true);
    expect(boolAttr(undefined)).to.equal(false);
  });

  it('reads favourites, and favorites (the spelling of earlier versions) alike; favourites wins on a tag with both', () => {
    expect(parseScheduleProps({ favourites: '' }).options.favourites).to.equal(true);
    expect(parseScheduleProps({ favorites: '' }).options.favourites).to.equal(true);
    expect(parseScheduleProps({ favorites: 'false' }).options.favourites).to.equal(false);
    expect(parseScheduleProps({ favourites: 'false', favorites: '' }).options.favourites).to.equal(false);
    expect(parseScheduleProps({}).options.favourites).to.equal(false);
  });

  it('collects several notices at once', () => {
    const { notices } = parseScheduleProps({ kind: 'x', layout: 'masonry', view: 'tiles', limit: 'all' });
    expect(notices.map((n) => n.name)).to.deep.equal(['kind', 'layout', 'view', 'limit']);
  });
});
