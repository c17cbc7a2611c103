/** Preroll choice and suppression (src/media/prerolls.ts): matching, weights, no_ads viewers, the stored expiry. */
import { expect } from '@open-wc/testing';
import { choosePreroll, isSuppressed, matchingPrerolls, pickByWeight, suppress } from '../../../src/media/prerolls.js';
import { preroll } from '../../fixtures/contract.js';
import { installWorld, teardown, type World } from '../helpers.js';

describe('prerolls', () => {
  let world: World;
  beforeEach(() => (world = installWorld()));
  afterEach(teardown);

  const all = [
    preroll({ id: 1, location_id: 10, for_vod: false }),
    preroll({ id: 2, event_categories: [5], for_live: false }),
    preroll({ id: 3 }),
    preroll({ id: 4, location_id: 99 }),
    preroll({ id: 5, event_categories: [6] }),
    preroll({ id: 6, weight: 0 }),
  ];

  it('match location, category and live or VOD; weight 0 never plays', () => {
    const live = matchingPrerolls(all, { eventId: 1, live: true, locationId: 10, categoryId: 5 }).map((p) => p.id);
    expect(live).to.deep.equal([1, 3]);
    const vod = matchingPrerolls(all, { eventId: 1, live: false, locationId: 10, categoryId: 5 }).map((p) => p.id);
    expect(vod).to.deep.equal([2, 3]);
    const elsewhere = matchingPrerolls(all, { eventId: 1, live: true, locationId: 11, categoryId: null }).map(
      (p) => p.id,
    );
    expect(elsewhere).to.deep.equal([3]);
  });

  it('are picked in proportion to their weight', () => {
    const a = { id: 'a', weight: 1 };
    const b = { id: 'b', weight: 3 };
    expect(pickByWeight([a, b], 0)?.id).to.equal('a');
    expect(pickByWeight([a, b], 0.24)?.id).to.equal('a');
    expect(pickByWeight([a, b], 0.26)?.id).to.equal('b');
    expect(pickByWeight([a, b], 0.99)?.id).to.equal('b');
    expect(pickByWeight([{ weight: 0 }], 0.5)).to.equal(undefined);
  });

  it('are skipped for no_ads viewers', () => {
    expect(choosePreroll(all, { eventId: 1, live: true }, { key: 'user-1', noAds: true }, 0)).to.equal(undefined);
  });

  it('once played, are suppressed per viewer, event and preroll until the stored expiry', async () => {
    const target = { eventId: 42, live: true };
    const viewer = { key: 'visitor-x', noAds: false };
    expect(choosePreroll(all, target, viewer, 0)?.id).to.equal(3);
    suppress('visitor-x', 42, 3, 60);
    expect(isSuppressed('visitor-x', 42, 3)).to.equal(true);
    expect(choosePreroll(all, target, viewer, 0)).to.equal(undefined);
    // Another viewer, or another event, still gets it.
    expect(choosePreroll(all, target, { key: 'user-9', noAds: false }, 0)?.id).to.equal(3);
    expect(choosePreroll(all, { eventId: 43, live: true }, viewer, 0)?.id).to.equal(3);
    await world.advance(60 * 60_000 + 1);
    expect(isSuppressed('visitor-x', 42, 3)).to.equal(false);
    expect(choosePreroll(all, target, viewer, 0)?.id).to.equal(3);
  });

  it('default to one hour of suppression', async () => {
    suppress('v', 1, 3);
    await world.advance(59 * 60_000);
    expect(isSuppressed('v', 1, 3)).to.equal(true);
    await world.advance(2 * 60_000);
    expect(isSuppressed('v', 1, 3)).to.equal(false);
  });
});
