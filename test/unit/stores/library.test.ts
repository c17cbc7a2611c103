/**
 * The library store (src/stores/library.ts) on a fake clock: the search waits SEARCH_DEBOUNCE_MS after the last
 * keystroke and sends one request, a search typed past is cancelled and its answer never shown, an emptied field
 * ends the search, and what the viewer may watch changing (not any change of the user) fetches again, fresh.
 */
import { expect } from '@open-wc/testing';
import { User, VOD_SEARCH_LIMIT } from '../../../src/api/contract.js';
import { entitlementsChanged } from '../../../src/stores/commerce/entitlements.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import { createLibrary, SEARCH_DEBOUNCE_MS, unlockedBy, type Library } from '../../../src/stores/library.js';
import { $user, resetSession } from '../../../src/stores/session.js';
import { signIn } from '../../../src/stores/sign-in.js';
import { Deferred, flush, installWorld, ok, teardown, until, type Recorded, type World } from '../helpers.js';

const API = 'http://api.test/api';
const SEARCH = `${API}/vod-media/search`;
const RAILS = `${API}/vod-media-rails`;

const vod = (id: number, title: string, extra: Record<string, unknown> = {}) => ({
  id,
  title,
  type: 'free',
  has_access: true,
  ...extra,
});
const page = (items: unknown[], total = items.length) => ({
  status: 200,
  body: { data: items, meta: { total, offset: 0, limit: VOD_SEARCH_LIMIT } },
});

describe('library store', () => {
  let w: World;
  let library: Library;
  const searches = () => w.server.to('GET', SEARCH);

  beforeEach(() => {
    w = installWorld();
    w.storage.set('channel_key.demo', 'ck-1');
    w.storage.set('api_key.ck-1', 'ak-1');
    w.server
      .on('GET', `${API}/settings`, ok({}))
      .on('GET', `${API}/color-settings/web`, ok({}))
      .on('GET', `${API}/geo`, ok({}))
      .on('GET', RAILS, ok([{ id: 1, title: 'Featured', vod_media_items: [vod(1, 'One')] }]))
      .on('GET', `${API}/vod-media-categories`, ok([{ id: 1, name: 'Basketball' }]))
      .on('GET', SEARCH, (req: Recorded) => page([vod(9, `Found ${req.query.title}`)]));
    setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: 'http://keys.test/keys' }, 'http://cdn.test/x.js');
    library = createLibrary();
  });
  afterEach(() => {
    library.destroy();
    $config.set(undefined);
    resetSession();
    teardown();
  });

  it('waits SEARCH_DEBOUNCE_MS after the last keystroke, then sends one request', async () => {
    library.search('h');
    await w.advance(200);
    library.search('ho');
    await w.advance(200);
    library.search('hoc ');
    await w.advance(SEARCH_DEBOUNCE_MS - 1);
    expect(searches()).to.have.length(0);
    expect(library.results.$state.get().status).to.equal('loading');
    await w.advance(1);
    await until(() => library.results.$state.get().status === 'ready', 'results');
    expect(searches().map((r) => r.query)).to.deep.equal([
      { title: 'hoc', limit: '10', offset: '0', sort_field: 'date', api_key: 'ak-1' },
    ]);
    expect(library.results.$state.get().items.map((i) => i.title)).to.deep.equal(['Found hoc']);
  });

  it('cancels a search typed past; its late answer is never shown', async () => {
    const late = new Deferred(true);
    w.server.on('GET', SEARCH, late, (req: Recorded) => page([vod(2, `Found ${req.query.title}`)]));
    library.search('cla');
    await w.advance(SEARCH_DEBOUNCE_MS);
    await until(() => late.request !== undefined, 'the first search sent');
    library.search('classic');
    expect(late.request!.signal!.aborted).to.equal(true);
    await w.advance(SEARCH_DEBOUNCE_MS);
    await until(() => library.results.$state.get().status === 'ready', 'the second answer');
    late.resolve(page([vod(1, 'Stale')]));
    await flush();
    expect(library.results.$state.get().items.map((i) => i.title)).to.deep.equal(['Found classic']);
  });

  it('an emptied field ends the search: nothing is sent, the results are idle', async () => {
    library.search('abc');
    await w.advance(100);
    library.search('  ');
    await w.advance(SEARCH_DEBOUNCE_MS * 2);
    expect(searches()).to.have.length(0);
    expect(library.$query.get()).to.equal('');
    expect(library.results.$state.get().status).to.equal('idle');
  });

  it('"more" asks the next page; a refresh asks as many as are shown, fresh', async () => {
    const all = Array.from({ length: 13 }, (_, i) => vod(100 + i, `Game ${i}`));
    w.server.on('GET', SEARCH, (req: Recorded) => {
      const offset = Number(req.query.offset);
      const limit = Number(req.query.limit);
      return { status: 200, body: { data: all.slice(offset, offset + limit), meta: { total: 13, offset, limit } } };
    });
    library.start();
    library.search('game');
    await w.advance(SEARCH_DEBOUNCE_MS);
    await until(() => library.results.$state.get().items.length === 10, 'the first page');
    library.results.more();
    await until(() => library.results.$state.get().items.length === 13, 'the second page');
    expect(searches()[1]!.query.offset).to.equal('10');
    entitlementsChanged();
    await until(() => searches().length === 3, 'refreshed');
    expect(searches()[2]!.query).to.include({ offset: '0', limit: '13' });
    expect(library.results.$state.get().items).to.have.length(13);
  });

  it('a refresh after more than one request may hold asks for the most it may (50), never a refused limit', async () => {
    const all = Array.from({ length: 70 }, (_, i) => vod(200 + i, `Game ${i}`));
    w.server.on('GET', SEARCH, (req: Recorded) => {
      const offset = Number(req.query.offset);
      const limit = Number(req.query.limit);
      if (limit > 50) return { status: 422, body: { message: 'The given data was invalid.' } };
      return { status: 200, body: { data: all.slice(offset, offset + limit), meta: { total: 70, offset, limit } } };
    });
    library.start();
    library.search('game');
    await w.advance(SEARCH_DEBOUNCE_MS);
    await until(() => library.results.$state.get().items.length === 10, 'the first page');
    for (let shown = 20; shown <= 60; shown += 10) {
      library.results.more();
      await until(() => library.results.$state.get().items.length === shown, `${shown} shown`);
    }
    const before = searches().length;
    entitlementsChanged();
    await until(() => searches().length === before + 1, 'refreshed');
    expect(searches()[before]!.query).to.include({ offset: '0', limit: '50' });
    await until(() => library.results.$state.get().items.length === 50, 'the refreshed list');
    expect(library.results.$state.get().error).to.equal(undefined);
  });

  it('follows what the viewer may watch: another user or capabilities fetch the rails again, feature counts do not', async () => {
    library.start();
    await until(() => library.$rails.get().status === 'ready', 'rails');
    const rails = () => w.server.to('GET', RAILS).length;
    signIn({ token: 'tok-1', user: User.parse({ id: 3, email: 'fan@example.test', capabilities: ['watch'] }) });
    await until(() => rails() === 2, 'rails after the sign-in');
    $user.set({ ...$user.get()!, featureCount: { clips: 1, downloads: 0 } });
    await w.advance(0);
    expect(rails()).to.equal(2);
    $user.set({ ...$user.get()!, capabilities: ['watch', 'vod_media_access'] });
    await until(() => rails() === 3, 'rails after a new capability');
    // Within the client's 60 s cache, yet asked again: the answer depends on the viewer.
    expect(library.$rails.get().status).to.equal('ready');
  });

  it('what unlocks a locked item', () => {
    expect(unlockedBy(vod(1, 'a', { type: 'register', has_access: false }) as never)).to.equal('sign-in');
    expect(unlockedBy(vod(1, 'a', { type: 'paid', has_access: false }) as never)).to.equal('membership');
    expect(unlockedBy(vod(1, 'a', { type: 'paid', has_access: true }) as never)).to.equal(undefined);
    expect(unlockedBy(vod(1, 'a', { type: 'free', has_access: false }) as never)).to.equal(undefined);
    // A signed-in account without the `watch` right: only the channel unlocks what is not free.
    const withheld = { id: 1, email: 'a@b.test', capabilities: [] } as never;
    expect(unlockedBy(vod(1, 'a', { type: 'register', has_access: false }) as never, withheld)).to.equal('account');
    expect(unlockedBy(vod(1, 'a', { type: 'paid', has_access: true }) as never, withheld)).to.equal('account');
    expect(unlockedBy(vod(1, 'a', { type: 'free', has_access: true }) as never, withheld)).to.equal(undefined);
    const entitled = { id: 1, email: 'a@b.test', capabilities: ['watch'] } as never;
    expect(unlockedBy(vod(1, 'a', { type: 'register', has_access: true }) as never, entitled)).to.equal(undefined);
  });
});
