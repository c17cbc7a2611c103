// The site's events lists (/schedule, /upcoming, /vod, /live) in the site harness against a fake channel API: the
// contract's query names narrow the list as their names say, and the site's own names keep working.
import { expect, waitUntil } from '@open-wc/testing';
import EventsPage from '../../src/components/app/pages/Events.js';
import { ok, type FakeServer } from '../unit/helpers.js';
import { API, renderSitePage, type RenderedPage } from './site-harness.js';

declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

const EVENT = { id: 7, name: 'Hawks vs Owls', type: 'free', event_utc_ts: 1_900_000_000, stream_status: 'upcoming' };

function api(server: FakeServer): void {
  server
    .on('GET', `${API}/events`, { body: { data: [EVENT], meta: { total: 1, offset: 0, limit: 50 } } })
    .on('GET', `${API}/event-categories`, ok([]))
    .on('GET', `${API}/participants`, ok([]))
    .on('GET', `${API}/participant-groups`, ok([]))
    .on('GET', `${API}/events-locations`, ok([]))
    .on('GET', `${API}/participant-group-properties`, ok([]));
}

let page: RenderedPage | undefined;
afterEach(() => {
  page?.unmount();
  page = undefined;
});

/** The query of the first events request the page made at `path`. */
async function eventsQueryAt(path: string): Promise<Record<string, string>> {
  page = renderSitePage(EventsPage, { path, setup: api });
  await waitUntil(() => page!.server.to('GET', `${API}/events`).length > 0, 'the events request', { timeout: 4000 });
  await waitUntil(() => page!.text().includes('Hawks vs Owls'), 'the list');
  return page.server.to('GET', `${API}/events`)[0]!.query;
}

describe('site events lists', () => {
  it('event_category_id, participant_id and location narrow the list (category, team, location)', async () => {
    const query = await eventsQueryAt('/schedule?event_category_id=3&participant_id=9&location=4');
    expect(query).to.include({ category: '3', team: '9', location: '4' });
  });

  it('category_id names the category too; the site’s own names still work', async () => {
    expect(await eventsQueryAt('/upcoming?category_id=5')).to.include({ category: '5' });
    page!.unmount();
    expect(await eventsQueryAt('/vod?category=hockey&team=huskies&school=northfield')).to.include({
      category: 'hockey',
      team: 'huskies',
      school: 'northfield',
    });
  });

  it('filters from the address show in the filter bar as chosen, and Clear filters clears them', async () => {
    const withCatalogues = (server: FakeServer) => {
      api(server);
      server
        .on('GET', `${API}/events-categories`, ok([{ id: 3, name: 'Hockey', children: [{ id: 7, name: 'U18' }] }]))
        .on('GET', `${API}/participants`, ok([{ id: 9, name: 'Hawks' }]))
        .on('GET', `${API}/events-locations`, ok([{ id: 4, name: 'Harbor Arena', city: 'Boston' }]))
        .on('GET', `${API}/participant-groups`, ok([{ id: 2, name: 'Northfield', alias: 'northfield' }]));
    };
    page = renderSitePage(EventsPage, {
      path: '/schedule?event_category_id=7&participant_id=9&location=4&school=northfield&division=II&sport=hockey',
      setup: withCatalogues,
    });
    const select = (label: string) =>
      [...page!.root.querySelectorAll('[part~="filters"] label')]
        .find((l) => l.firstChild?.textContent === label)
        ?.querySelector('select');
    const shown = (label: string) => {
      const s = select(label);
      return s ? s.selectedOptions[0]?.textContent : undefined;
    };
    await waitUntil(() => shown('Category') === 'U18' && shown('Team') === 'Hawks', 'the chosen filters', {
      timeout: 4000,
    });
    expect([shown('Venue'), shown('School'), shown('Division'), shown('Sport')]).to.deep.equal([
      'Harbor Arena',
      'Northfield',
      'II',
      'hockey',
    ]);
    const clear = [...page.root.querySelectorAll('[part~="filters"] button')].find(
      (b) => b.textContent === 'Clear filters',
    );
    (clear as HTMLButtonElement).click();
    await waitUntil(() => page!.server.to('GET', `${API}/events`).length === 2, 'the list asked again');
    const query = page.server.to('GET', `${API}/events`)[1]!.query;
    for (const name of ['category', 'team', 'location', 'school', 'division', 'sport'])
      expect(query, name).to.not.have.property(name);
    await waitUntil(() => ['Category', 'Team', 'Venue', 'School'].every((l) => shown(l) === 'All'), 'every filter All');
  });
});
