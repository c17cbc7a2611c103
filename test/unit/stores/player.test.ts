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
