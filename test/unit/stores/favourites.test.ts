/**
 * The favourites store (src/stores/favourites.ts): the rules (bad arguments and guests are refused locally, nothing
 * sent), loading only for a signed-in user, reloads after add and delete, one load at a time, and a new user
 * starting from nothing.
 */
import { expect } from '@open-wc/testing';
import type { User } from '../../../src/api/contract.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import {
  $favouriteIndex,
  $favourites,
  $favouritesStatus,
  $favouritesVersion,
  addFavourite,
  FavouriteRefusedError,
  followsEvent,
  isFavourite,
  loadFavourites,
  removeFavourite,
} from '../../../src/stores/favourites.js';
import { $token, $user, resetSession } from '../../../src/stores/session.js';
import { Deferred, installWorld, ok, settle, teardown, until, type World } from '../helpers.js';
import { event } from '../../fixtures/contract.js';

const API = 'http://api.test/api';
const KEYS = 'http://keys.test/keys';
const FAVORITES = `${API}/favorites`;

const user = (id: number): User => ({
  id,
  email: `fan${id}@example.test`,
  temporary_password: false,
  capabilities: [],
  trial_period_used: false,
  is_geo_blocked: false,
  email_verified: true,
  news: false,
  provider: 'email',
  has_password: true,
});

const TEAM = { id: 31, favoritable_id: 11, favoritable_type: 'participant', name: 'Northfield Huskies' };
const SCHOOL = { id: 32, favoritable_id: 4, favoritable_type: 'group', name: 'Northfield University' };
const SPORT = { id: 33, favoritable_id: 7, favoritable_type: 'category', name: "Men's Hockey" };
const LIST = {
  participant: [TEAM],
  participant_group: [SCHOOL],
  event_category: [SPORT],
  favorite_event: [],
  event_location: [],
};
const EMPTY = { participant: [], participant_group: [], event_category: [], favorite_event: [], event_location: [] };

function signIn(id: number): void {
  $token.set(`token-${id}`);
  $user.set(user(id));
}

/** Requests other than the key fetches. */
const wire = (w: World) => w.server.calls.filter((r) => !r.path.includes('/keys/') && !r.path.endsWith('/get_api_key'));
const trail = (w: World) => wire(w).map((r) => `${r.method} ${r.path.replace(API, '')}`);

/** Runs `call`, expecting a local refusal; returns its problems. */
async function refused(call: () => Promise<unknown>): Promise<readonly string[]> {
  const { error } = await settle(call());
  expect(error, 'a FavouriteRefusedError').to.be.instanceOf(FavouriteRefusedError);
  return (error as FavouriteRefusedError).problems;
}

describe('favourites store', () => {
  let w: World;
  let unwatch: () => void;

  beforeEach(() => {
    w = installWorld();
    w.server
      .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-1' } })
      .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }))
      .on('GET', FAVORITES, ok(LIST));
    setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://cdn.test/channel-elements.js');
    // A component watching the list, as the schedule and the profile do.
    unwatch = $favourites.listen(() => undefined);
  });
  afterEach(() => {
    unwatch();
    $user.set(undefined);
    $config.set(undefined);
    resetSession();
    teardown();
  });

  describe('validation: refused locally, nothing sent', () => {
    beforeEach(() => signIn(1));

    it('a favoritable_type that is not a string lists both problems', async () => {
      await until(() => $favouritesStatus.get().status === 'ready', 'the first load');
      const before = wire(w).length;
      expect(await refused(() => addFavourite(42 as never, 11))).to.deep.equal([
        'favoritable_type must be a string',
        'favoritable_type must be one of participant, group, category',
      ]);
      expect(await refused(() => addFavourite(undefined as never, 11))).to.have.length(2);
      expect(wire(w).length, 'nothing went over the wire').to.equal(before);
    });

    it('an unknown favoritable_type, and every problem at once', async () => {
      await until(() => $favouritesStatus.get().status === 'ready', 'the first load');
      const before = wire(w).length;
      expect(await refused(() => addFavourite('team' as never, 11))).to.deep.equal([
        'favoritable_type must be one of participant, group, category',
      ]);
      expect(await refused(() => addFavourite({} as never, -2))).to.deep.equal([
        'favoritable_type must be a string',
        'favoritable_type must be one of participant, group, category',
        'favoritable_id must be a positive integer',
      ]);
      const error = (await settle(addFavourite('school' as never, 0))).error as Error;
      expect(error.message).to.equal(
        'favoritable_type must be one of participant, group, category; favoritable_id must be a positive integer',
      );
      expect(wire(w).length).to.equal(before);
    });

    it('ids must be positive integers, for add and delete', async () => {
      await until(() => $favouritesStatus.get().status === 'ready', 'the first load');
      const before = wire(w).length;
      for (const bad of [0, -1, 1.5, Number.NaN, '11' as never]) {
        expect(await refused(() => addFavourite('participant', bad))).to.deep.equal([
          'favoritable_id must be a positive integer',
        ]);
        expect(await refused(() => removeFavourite('participant', bad))).to.deep.equal([
          'id must be a positive integer',
        ]);
      }
      expect(await refused(() => removeFavourite('sport' as never, 31))).to.deep.equal([
        'favoritable_type must be one of participant, group, category',
      ]);
      expect(wire(w).length).to.equal(before);
    });
  });

  describe('signed in or not', () => {
    it('a guest: loading rejects with "user must be logged in" and sends nothing; so do add and delete', async () => {
      const { error } = await settle(loadFavourites());
      expect(error).to.be.instanceOf(FavouriteRefusedError);
      expect((error as Error).message).to.equal('user must be logged in');
      expect(await refused(() => addFavourite('participant', 11))).to.deep.equal(['user must be logged in']);
      expect(await refused(() => removeFavourite('participant', 31))).to.deep.equal(['user must be logged in']);
      expect(w.server.calls, 'not even the keys were fetched').to.deep.equal([]);
      expect($favourites.get()).to.equal(undefined);
    });

    it('an account with a temporary password: refused locally, nothing sent; replacing the password loads the list', async () => {
      $token.set('token-1');
      $user.set({ ...user(1), temporary_password: true });
      expect(await refused(() => loadFavourites())).to.deep.equal(['a temporary password must be replaced first']);
      expect(await refused(() => addFavourite('participant', 11))).to.deep.equal([
        'a temporary password must be replaced first',
      ]);
      expect(w.server.calls, 'nothing was sent').to.deep.equal([]);
      // The list is watched (beforeEach): the same user, unlocked, loads it.
      $user.set(user(1));
      await until(() => $favouritesStatus.get().status === 'ready', 'the list after the new password');
      expect(trail(w)).to.deep.equal(['GET /favorites']);
    });

    it('signing in loads the list (once, however many ask); signing out clears it', async () => {
      signIn(1);
      const [a, b] = await Promise.all([loadFavourites(), loadFavourites()]);
      expect(a).to.equal(b);
      expect(trail(w)).to.deep.equal(['GET /favorites']);
      expect(wire(w)[0]!.headers.authorization).to.equal('Bearer token-1');
      expect(wire(w)[0]!.query.api_key).to.equal('ak-1');
      expect($favourites.get()).to.deep.equal(LIST);
      expect($favouritesStatus.get()).to.deep.equal({ status: 'ready', value: undefined });

      // A profile update of the same user is no new user: nothing is reloaded.
      $user.set({ ...user(1), first_name: 'Sam' });
      await settle(Promise.resolve());
      expect(trail(w)).to.have.length(1);

      $user.set(undefined);
      expect($favourites.get()).to.equal(undefined);
      expect($favouriteIndex.get().size).to.equal(0);
      expect($favouritesStatus.get()).to.deep.equal({ status: 'idle' });
      expect(trail(w)).to.have.length(1);
    });

    it('a new user starts from nothing, and an answer for the previous user is dropped', async () => {
      const slow = new Deferred();
      w.server.on('GET', FAVORITES, slow, ok(EMPTY));
      signIn(1);
      await until(() => slow.request !== undefined, 'the first load');
      signIn(2);
      await until(() => trail(w).length === 2, 'the load for the new user');
      slow.resolve(ok(LIST));
      await until(() => $favouritesStatus.get().status === 'ready', 'the new user list');
      await settle(Promise.resolve());
      expect($favourites.get()).to.deep.equal(EMPTY);
      expect(wire(w)[1]!.headers.authorization).to.equal('Bearer token-2');
    });

    it('is loaded only while something watches it', async () => {
      unwatch();
      // nanostores unmounts a store 1 s after its last listener; until then it still counts as watched.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      signIn(1);
      await settle(Promise.resolve());
      expect(trail(w)).to.deep.equal([]);
      unwatch = $favourites.listen(() => undefined);
      await until(() => $favourites.get() !== undefined, 'loaded once watched');
      expect(trail(w)).to.deep.equal(['GET /favorites']);
    });
  });

  describe('add and delete (reload after each)', () => {
    beforeEach(async () => {
      w.server.on('GET', FAVORITES, ok(EMPTY));
      signIn(1);
      await until(() => $favouritesStatus.get().status === 'ready', 'the first load');
    });

    it('add posts { favoritable_id, favoritable_type }, then reloads', async () => {
      w.server.on('POST', `${API}/favorite`, ok(TEAM)).on('GET', FAVORITES, ok({ ...EMPTY, participant: [TEAM] }));
      const version = $favouritesVersion.get();
      const added = await addFavourite('participant', 11);
      expect(added).to.deep.equal(TEAM);
      expect(trail(w)).to.deep.equal(['GET /favorites', 'POST /favorite', 'GET /favorites']);
      const post = w.server.to('POST', `${API}/favorite`)[0]!;
      expect(post.body).to.deep.equal({ favoritable_id: 11, favoritable_type: 'participant', api_key: 'ak-1' });
      expect(post.headers.authorization).to.equal('Bearer token-1');
      expect($favourites.get()!.participant).to.deep.equal([TEAM]);
      expect($favouritesVersion.get()).to.equal(version + 1);
      expect(isFavourite('participant', 11)).to.equal(true);
      expect(isFavourite('group', 11)).to.equal(false);
    });

    it('delete sends DELETE favorite/{id}, then reloads', async () => {
      w.server
        .on('POST', `${API}/favorite`, ok(SPORT))
        .on('GET', FAVORITES, ok({ ...EMPTY, event_category: [SPORT] }), ok(EMPTY))
        .on('DELETE', `${API}/favorite/33`, ok({ message: 'Removed' }));
      await addFavourite('category', 7);
      expect(isFavourite('category', 7)).to.equal(true);
      await removeFavourite('category', 33);
      expect(trail(w)).to.deep.equal([
        'GET /favorites',
        'POST /favorite',
        'GET /favorites',
        'DELETE /favorite/33',
        'GET /favorites',
      ]);
      expect(w.server.to('DELETE', `${API}/favorite/33`)[0]!.query.api_key).to.equal('ak-1');
      expect(isFavourite('category', 7)).to.equal(false);
    });

    it('a change made while a load runs reloads after it (the running answer may predate the change)', async () => {
      const slow = new Deferred();
      w.server
        .on('GET', FAVORITES, slow, ok({ ...EMPTY, participant: [TEAM] }))
        .on('POST', `${API}/favorite`, ok(TEAM));
      const running = loadFavourites().catch(() => undefined);
      // loadFavourites joins nothing here: the first load finished, so this is a new one.
      await until(() => slow.request !== undefined, 'a load in flight');
      const adding = addFavourite('participant', 11);
      await until(() => trail(w).includes('POST /favorite'), 'the post');
      slow.resolve(ok(EMPTY));
      await adding;
      await running;
      expect(trail(w)).to.deep.equal(['GET /favorites', 'GET /favorites', 'POST /favorite', 'GET /favorites']);
      expect($favourites.get()!.participant).to.deep.equal([TEAM]);
    });

    it('a failed add rejects with the HTTP error and changes nothing', async () => {
      w.server.on('POST', `${API}/favorite`, { status: 422, body: { message: 'The given data was invalid.' } });
      const version = $favouritesVersion.get();
      const { error } = await settle(addFavourite('group', 4));
      expect((error as { status?: number }).status).to.equal(422);
      expect(trail(w)).to.deep.equal(['GET /favorites', 'POST /favorite']);
      expect($favouritesVersion.get()).to.equal(version);
    });
  });

  describe('followsEvent', () => {
    const participant = (id: number, group: number | null) => ({ id, name: `Team ${id}`, participant_group_id: group });
    const game = (participants: ReturnType<typeof participant>[], category?: number) =>
      event({ id: 1, name: 'Game', participants, event_category_id: category });

    it('an event is followed through a team, a team of a favourite school, or its sport', async () => {
      signIn(1);
      await until(() => $favouritesStatus.get().status === 'ready', 'the list');
      const index = $favouriteIndex.get();
      expect(followsEvent(game([participant(11, null)]), index), 'team').to.equal(true);
      expect(followsEvent(game([participant(50, 4)]), index), 'school').to.equal(true);
      expect(followsEvent(game([participant(50, 5)], 7), index), 'sport').to.equal(true);
      expect(followsEvent(game([participant(50, 5)], 8), index), 'none').to.equal(false);
    });
  });
});
