/**
 * The player store (src/stores/player.ts) follows the shared stores, not DOM events: each change of access
 * reloads the item exactly once, counted on the wire.
 */
import { expect } from '@open-wc/testing';
import { User } from '../../../src/api/contract.js';
import { setEnv } from '../../../src/lib/env.js';
import { ChannelLoginEvent, own } from '../../../src/events/index.js';
import { entitlementsChanged } from '../../../src/stores/commerce/entitlements.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import { createPlayer, type PlayerStore } from '../../../src/stores/player.js';
import { resetSession } from '../../../src/stores/session.js';
import { signIn } from '../../../src/stores/sign-in.js';
import { flush, installWorld, ok, teardown, until, type World } from '../helpers.js';

const API = 'http://api.test/api';
const EVENT = `${API}/events/501`;

describe('player store: reloads on access changes', () => {
  let w: World;
  let player: PlayerStore;
  const eventCalls = () => w.server.to('GET', EVENT).length;

  beforeEach(async () => {
    w = installWorld();
    // Host pages fire their public events on window; the entitlements store listens there.
    setEnv({ eventTarget: window });
    w.storage.set('channel_key.demo', 'ck-1');
    w.storage.set('api_key.ck-1', 'ak-1');
    w.server
      .on('GET', `${API}/settings`, ok({ preroll_options: { enabled: false } }))
      .on('GET', `${API}/color-settings/web`, ok({}))
      .on('GET', `${API}/geo`, ok({}))
      .on(
        'GET',
        EVENT,
        ok({ id: 501, name: 'Final', type: 'free', event_utc_ts: 1_705_000_000, stream_status: 'live' }),
      );
    setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: 'http://keys.test/keys' }, 'http://cdn.test/x.js');
    player = createPlayer();
    player.setTarget({ kind: 'event', id: '501' });
    await until(() => player.$state.get().status === 'ready', 'the event shown');
    expect(eventCalls()).to.equal(1);
  });
  afterEach(() => {
    player.destroy();
    $config.set(undefined);
    resetSession();
    teardown();
  });

  /** Settles every reload the change started, then the number of event requests since the first load. */
  async function reloads(): Promise<number> {
    await flush();
    await w.advance(0);
    return eventCalls() - 1;
  }

  it('a sign-in reloads once, also when our profile then announces it with channel-login', async () => {
    signIn({ token: 'tok-1', user: User.parse({ id: 3, email: 'viewer@example.test' }) });
    window.dispatchEvent(own(new ChannelLoginEvent({ method: 'password' })));
    expect(await reloads()).to.equal(1);
  });

  it('our own channel-login event (the profile announcing that sign-in to the host page) adds no reload', async () => {
    window.dispatchEvent(own(new ChannelLoginEvent({ method: 'password' })));
    expect(await reloads()).to.equal(0);
  });

  it('a channel-purchase-complete the host page fires reloads once', async () => {
    window.dispatchEvent(new CustomEvent('channel-purchase-complete'));
    expect(await reloads()).to.equal(1);
  });

  it('entitlementsChanged() (a purchase in our checkout) reloads once', async () => {
    entitlementsChanged();
    expect(await reloads()).to.equal(1);
  });

  it('a destroyed player follows nothing', async () => {
    player.destroy();
    entitlementsChanged();
    window.dispatchEvent(new CustomEvent('channel-logout'));
    expect(await reloads()).to.equal(0);
  });
});

describe('player store: the settings’ prerolls', () => {
  let w: World;
  let player: PlayerStore;

  afterEach(() => {
    player.destroy();
    $config.set(undefined);
    resetSession();
    teardown();
  });

  it('reports a preroll left out of the list like any record left out: once, with its id and field', async () => {
    w = installWorld();
    w.storage.set('channel_key.demo', 'ck-1');
    w.storage.set('api_key.ck-1', 'ak-1');
    const prerolls = [
      { id: 4, url: 'https://ads.test/4.m3u8', for_live: 1 },
      { id: 5, url: null, for_live: 1 },
    ];
    w.server
      .on('GET', `${API}/settings`, ok({ prerolls }))
      .on('GET', `${API}/color-settings/web`, ok({}))
      .on('GET', `${API}/geo`, ok({}))
      .on(
        'GET',
        EVENT,
        ok({
          id: 501,
          name: 'Final',
          type: 'free',
          event_utc_ts: 1_705_000_000,
          stream_status: 'live',
          media: [{ type: 'live', url: 'https://media.test/live.m3u8' }],
        }),
      );
    setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: 'http://keys.test/keys' }, 'http://cdn.test/x.js');
    player = createPlayer();
    player.setTarget({ kind: 'event', id: '501' });
    await until(() => player.$state.get().status === 'ready', 'the event shown');
    expect((await player.takePreroll())?.id, 'the readable one plays').to.equal(4);
    // The next start (a replay, a reload of the stream) reads the list again: nothing more is reported.
    await player.takePreroll();
    await w.advance(0);
    const logs = w.server.logs.map((r) => r.body as Record<string, unknown>);
    expect(logs.map((entry) => entry.message)).to.deep.equal([
      'settings: left out a record it cannot read (id 5, field data.prerolls.1.url)',
    ]);
    expect(logs[0]).to.deep.include({ status: 0, service: 'settings', url: `${API}/settings` });
  });
});
