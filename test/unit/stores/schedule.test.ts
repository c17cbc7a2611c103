/**
 * One schedule's event list (src/stores/schedule.ts): the query of a view's options with the viewer's filters, and
 * the store against the fake world (pages, cancellation, the viewer's changes).
 */
import { expect } from '@open-wc/testing';
import { HttpError } from '../../../src/api/errors.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import {
  clearedFilters,
  createSchedule,
  effectiveFilters,
  eventsQuery,
  narrows,
  NO_FILTERS,
  PAGE_SIZE,
  scheduleQuery,
  type Schedule,
} from '../../../src/stores/schedule.js';
import { resetSession } from '../../../src/stores/session.js';
import { wireEvent } from '../../fixtures/contract.js';
import { Deferred, installWorld, ok, teardown, until, type Recorded, type Reply, type World } from '../helpers.js';

const API = 'http://api.test/api';
const EVENTS = `${API}/events`;

function makeEvents(count: number, from = 1, label = 'Game') {
  return Array.from({ length: count }, (_, i) =>
    wireEvent({
      id: from + i,
      name: `${label} ${from + i}`,
      event_utc_ts: 1_705_000_000 + (from + i) * 3600,
      stream_status: 'upcoming',
    }),
  );
}

/** A paginated /events over `total` events. */
function pages(total: number): Reply {
  return (req: Recorded) => {
    const offset = Number(req.query.offset);
    const limit = Number(req.query.limit);
    const count = Math.max(0, Math.min(limit, total - offset));
    return { body: { data: makeEvents(count, offset + 1), meta: { total, offset, limit } } };
  };
}

const eventRequests = (w: World) => w.server.calls.filter((r) => r.path === EVENTS);

describe('schedule query', () => {
  it('a chosen filter overrides the option, "All" (empty) drops it, the rest of the options pass through', () => {
    const base = { kind: 'live' as const, team: 'hawks', sport: 'hockey', city: 'Boston', location: '4', limit: 20 };
    expect(scheduleQuery(base, {})).to.deep.equal({
      kind: 'live',
      team: 'hawks',
      location: '4',
      limit: 20,
      sport: 'hockey',
      city: 'Boston',
    });
    const chosen = { sport: 'basketball', city: '' };
    expect(effectiveFilters(base, chosen)).to.deep.equal({
      category: undefined,
      team: 'hawks',
      school: undefined,
      location: '4',
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
    // The options' team and venue (the site's address) are filters of the bar too: Clear filters clears them.
    expect(scheduleQuery(base, NO_FILTERS)).to.deep.equal({ kind: 'live', limit: 20 });
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
    expect(scheduleQuery({ kind: 'all', favourites: true }, {})).to.have.property('favourites', true);
    expect(scheduleQuery({ kind: 'all', favourites: false }, {})).to.not.have.property('favourites');
  });
});

describe('schedule store', () => {
  let w: World;
  let schedule: Schedule;

  beforeEach(() => {
    w = installWorld();
    // Keys already stored: start-up is settings + colours (+ geo), nothing else in the way.
    w.storage.set('channel_key.demo', 'ck-1');
    w.storage.set('api_key.ck-1', 'ak-1');
    w.server
      .on('GET', `${API}/settings`, ok({}))
      .on('GET', `${API}/color-settings/web`, ok({}))
      .on('GET', `${API}/geo`, ok({}));
    setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: 'http://keys.test/keys' }, 'http://cdn.test/x.js');
    schedule = createSchedule();
  });
  afterEach(() => {
    schedule.destroy();
    $config.set(undefined);
    resetSession();
    teardown();
  });

  it('maps kinds to stream_status and drops empty filters', () => {
    expect(eventsQuery({ kind: 'vod' }, 0).stream_status).to.equal('finished');
    expect(eventsQuery({ kind: 'live' }, 0).stream_status).to.equal('live');
    expect(eventsQuery({ kind: 'upcoming' }, 0).stream_status).to.equal('upcoming');
    expect(eventsQuery({ kind: 'all' }, 0).stream_status).to.equal(undefined);
  });

  it('asks for pages of at most 50, never past the limit', () => {
    expect(eventsQuery({ kind: 'all' }, 0).limit).to.equal(PAGE_SIZE);
    expect(eventsQuery({ kind: 'all', limit: 3 }, 0).limit).to.equal(3);
    expect(eventsQuery({ kind: 'all', limit: 120 }, 50).limit).to.equal(50);
    expect(eventsQuery({ kind: 'all', limit: 120 }, 100).limit).to.equal(20);
    expect(eventsQuery({ kind: 'all' }, 4_980).limit, 'the largest list is 5000').to.equal(20);
  });

  it('show and filter fetch once per distinct query: options only the view uses fetch nothing', async () => {
    w.server.on('GET', EVENTS, pages(0));
    schedule.show({ kind: 'upcoming', sport: 'hockey' });
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    schedule.show({ kind: 'upcoming', sport: 'hockey', layout: 'list' } as never);
    expect(schedule.$state.get().status, 'not loading again').to.equal('ready');
    schedule.filter({ sport: '' });
    expect(schedule.$chosen.get()).to.deep.equal({ sport: '' });
    await until(() => schedule.$state.get().status === 'ready' && eventRequests(w).length === 2, 'the unfiltered list');
    expect(eventRequests(w).map((r) => r.query.sport)).to.deep.equal(['hockey', undefined]);
  });

  it('asks for finished events for kind vod', async () => {
    w.server.on('GET', EVENTS, pages(3));
    schedule.setQuery({ kind: 'vod' });
    expect(schedule.$state.get().status).to.equal('loading');
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    expect(eventRequests(w).map((r) => r.query)).to.deep.equal([
      { stream_status: 'finished', offset: '0', limit: String(PAGE_SIZE), api_key: 'ak-1' },
    ]);
    expect(schedule.$state.get()).to.deep.include({ status: 'ready', total: 3, loadingMore: false });
    expect(schedule.$state.get().items.map((e) => e.id)).to.deep.equal([1, 2, 3]);
  });

  it('sends no stream_status for kind all, and passes the filters', async () => {
    w.server.on('GET', EVENTS, pages(0));
    schedule.setQuery({ kind: 'all', team: 'hawks', sport: '', gender: 'female', city: undefined });
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    expect(eventRequests(w).map((r) => r.query)).to.deep.equal([
      { team: 'hawks', gender: 'female', offset: '0', limit: '50', api_key: 'ak-1' },
    ]);
  });

  it('pages with loadMore (offset) until every event is loaded', async () => {
    w.server.on('GET', EVENTS, pages(120));
    schedule.setQuery({ kind: 'upcoming' });
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    expect(schedule.$state.get()).to.deep.include({ total: 120 });
    expect(schedule.$state.get().items).to.have.length(50);

    schedule.loadMore();
    expect(schedule.$state.get().loadingMore).to.equal(true);
    schedule.loadMore(); // ignored while loading more
    await until(() => !schedule.$state.get().loadingMore, 'page 2');
    expect(schedule.$state.get().items).to.have.length(100);

    schedule.loadMore();
    await until(() => !schedule.$state.get().loadingMore, 'page 3');
    const ids = schedule.$state.get().items.map((e) => e.id);
    expect(ids).to.have.length(120);
    expect(ids[0]).to.equal(1);
    expect(ids[119]).to.equal(120);

    schedule.loadMore(); // nothing left
    await w.advance(0);
    expect(eventRequests(w).map((r) => [r.query.offset, r.query.limit])).to.deep.equal([
      ['0', '50'],
      ['50', '50'],
      ['100', '50'],
    ]);
    expect(schedule.$state.get().loadingMore).to.equal(false);
  });

  it('with a limit fetches once, that many, and has no more pages', async () => {
    w.server.on('GET', EVENTS, pages(40));
    schedule.setQuery({ kind: 'upcoming', limit: 3 });
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    expect(schedule.$state.get().total).to.equal(3);
    expect(schedule.$state.get().items.map((e) => e.id)).to.deep.equal([1, 2, 3]);
    schedule.loadMore();
    await w.advance(0);
    expect(schedule.$state.get().loadingMore).to.equal(false);
    expect(eventRequests(w).map((r) => r.query.limit)).to.deep.equal(['3']);
  });

  it('with a limit above a page, pages up to the limit and stops there', async () => {
    w.server.on('GET', EVENTS, pages(500));
    schedule.setQuery({ kind: 'upcoming', limit: 120 });
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    expect(schedule.$state.get().total).to.equal(120);
    for (const page of [2, 3]) {
      schedule.loadMore();
      await until(() => !schedule.$state.get().loadingMore, `page ${page}`);
    }
    schedule.loadMore();
    await w.advance(0);
    expect(schedule.$state.get().items).to.have.length(120);
    expect(eventRequests(w).map((r) => [r.query.offset, r.query.limit])).to.deep.equal([
      ['0', '50'],
      ['50', '50'],
      ['100', '20'],
    ]);
  });

  it('cancels the previous request on a new query and ignores its late answer', async () => {
    const late = new Deferred(true); // a server that answers even after the client gave up
    w.server.on('GET', EVENTS, (req) =>
      req.query.team === 'hawks'
        ? late
        : { body: { data: makeEvents(2, 100, 'Owls'), meta: { total: 2, offset: 0, limit: 50 } } },
    );
    schedule.setQuery({ kind: 'upcoming', team: 'hawks' });
    await until(() => eventRequests(w).length === 1, 'hawks request');
    schedule.setQuery({ kind: 'upcoming', team: 'owls' });
    expect(eventRequests(w)[0]!.signal!.aborted, 'previous request aborted').to.equal(true);
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    expect(schedule.$state.get().items.map((e) => e.name)).to.deep.equal(['Owls 100', 'Owls 101']);

    late.resolve({ body: { data: makeEvents(5, 1, 'Hawks'), meta: { total: 5, offset: 0, limit: 50 } } });
    await w.advance(0);
    expect(schedule.$state.get().items.map((e) => e.name)).to.deep.equal(['Owls 100', 'Owls 101']);
    expect(schedule.$state.get().total).to.equal(2);
  });

  it('shows the error state, and retry() runs the query again', async () => {
    w.server.on('GET', EVENTS, { status: 422, body: { message: 'The given data was invalid.' } }, pages(2));
    schedule.setQuery({ kind: 'live', team: 'hawks' });
    await until(() => schedule.$state.get().status === 'error', 'error');
    const failed = schedule.$state.get();
    expect(failed.items).to.deep.equal([]);
    expect(failed.error).to.be.instanceOf(HttpError);
    expect(failed.error!.status).to.equal(422);

    schedule.retry();
    expect(schedule.$state.get().status).to.equal('loading');
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    expect(schedule.$state.get().items).to.have.length(2);
    expect(eventRequests(w).map((r) => r.query)).to.deep.equal([
      { stream_status: 'live', team: 'hawks', offset: '0', limit: '50', api_key: 'ak-1' },
      { stream_status: 'live', team: 'hawks', offset: '0', limit: '50', api_key: 'ak-1' },
    ]);
  });

  it('keeps the loaded events when a further page fails', async () => {
    w.server.on('GET', EVENTS, pages(60), { status: 404 });
    schedule.setQuery({ kind: 'upcoming' });
    await until(() => schedule.$state.get().status === 'ready', 'ready');
    schedule.loadMore();
    await until(() => schedule.$state.get().error !== undefined, 'page error');
    expect(schedule.$state.get()).to.deep.include({ status: 'ready', loadingMore: false, total: 60 });
    expect(schedule.$state.get().items).to.have.length(50);
  });

  it('destroy() aborts the request in flight and leaves the state alone', async () => {
    w.server.on('GET', EVENTS, new Deferred());
    schedule.setQuery({ kind: 'upcoming' });
    await until(() => eventRequests(w).length === 1, 'request');
    schedule.destroy();
    expect(eventRequests(w)[0]!.signal!.aborted).to.equal(true);
    await w.advance(5_000);
    expect(schedule.$state.get().status).to.equal('loading');
    expect(w.server.logs).to.have.length(0);
  });

  // Regression: setting the same query again while it loads once left the schedule 'loading' forever.
  it('shows the events when the same query is set again while loading', async () => {
    w.server.on('GET', EVENTS, new Deferred(), pages(2));
    schedule.setQuery({ kind: 'upcoming' });
    await until(() => eventRequests(w).length === 1, 'first request');
    schedule.setQuery({ kind: 'upcoming' });
    await until(() => schedule.$state.get().status !== 'loading', 'settled state');
    expect(schedule.$state.get().status).to.equal('ready');
    expect(schedule.$state.get().items).to.have.length(2);
  });
});
