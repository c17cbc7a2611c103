/**
 * How views reach each other through stores: the request stores an answering view follows (our views' requests, and
 * the same requests a host page fires as public events), and the reason of an entitlements change.
 */
import { expect } from '@open-wc/testing';
import {
  ChannelLoginEvent,
  ChannelLoginRequestEvent,
  ChannelPurchaseRequestEvent,
  own,
} from '../../../src/events/index.js';
import { resetEnv, setEnv } from '../../../src/lib/env.js';
import {
  $entitlementsVersion,
  entitlementsChanged,
  lastEntitlementsChange,
} from '../../../src/stores/commerce/entitlements.js';
import { $purchaseRequest, $signInRequest } from '../../../src/stores/host-requests.js';
import { requestSignIn } from '../../../src/stores/requests.js';

const fire = (type: string, detail: unknown) =>
  window.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));

describe('request stores', () => {
  beforeEach(() => setEnv({ eventTarget: window }));
  afterEach(() => resetEnv());

  it('an answering view hears our requests and the host page’s, each once; ours fired as events are not heard twice', () => {
    const heard: unknown[] = [];
    const stop = $signInRequest.listen((value) => heard.push(value?.request));
    requestSignIn({ reason: 'favourite', eventId: 7 });
    window.dispatchEvent(own(new ChannelLoginRequestEvent({ reason: 'favourite', eventId: 7 })));
    fire('channel-login-request', { reason: 'purchase', eventId: '12' });
    fire('channel-login-request', { reason: 'nonsense' });
    stop();
    expect(heard).to.deep.equal([
      { reason: 'favourite', eventId: 7 },
      { reason: 'purchase', eventId: 12 },
      { reason: 'watch', eventId: undefined },
    ]);
  });

  it('a host page’s purchase request is read safely: digit strings become ids, anything else is dropped', () => {
    const heard: unknown[] = [];
    const stop = $purchaseRequest.listen((value) => heard.push(value?.request));
    fire('channel-purchase-request', { eventId: '31', offer: { type: 'event', id: '31', packageId: 4 } });
    fire('channel-purchase-request', { offer: { type: 'package', id: 'one' } });
    fire('channel-purchase-request', { offer: { type: 'coupon', id: 3 } });
    fire('channel-purchase-request', null);
    window.dispatchEvent(own(new ChannelPurchaseRequestEvent({ offer: { type: 'subscription', id: 2 } })));
    stop();
    expect(heard).to.deep.equal([{ eventId: 31, offer: { type: 'event', id: 31, packageId: 4 } }]);
  });

  it('says why entitlements changed: our purchase, a host-reported purchase, or a host-reported sign-in', () => {
    const seen: string[] = [];
    const stop = $entitlementsVersion.listen(() => seen.push(lastEntitlementsChange()));
    entitlementsChanged();
    fire('channel-purchase-complete', { orderId: 1, product: { type: 'event', id: 2 } });
    fire('channel-login', { method: 'password' });
    fire('channel-logout', {});
    window.dispatchEvent(own(new ChannelLoginEvent({ method: 'password' })));
    stop();
    expect(seen).to.deep.equal(['purchase', 'purchase', 'session', 'session']);
  });
});
