/** The access rules (src/stores/commerce/access.ts): what a viewer is shown of an event, a clip or a library item. */
import { expect } from '@open-wc/testing';
import { VodItem } from '../../../../src/api/contract.js';
import { decideAccess, fromClip, fromEvent, fromVod } from '../../../../src/stores/commerce/access.js';
import { clip, event, user } from '../../../fixtures/contract.js';

describe('access rules', () => {
  const stream = [{ type: 'live', url: 'https://media.test/live.m3u8' }];
  const decide = (e: Record<string, unknown>, u?: ReturnType<typeof user>, geo = false) =>
    decideAccess(fromEvent(event({ media: stream, ...e }), 'Final'), u, geo).kind;

  it('free plays for everyone', () => {
    expect(decide({ type: 'free' })).to.equal('play');
    expect(decide({ type: 'free' }, user())).to.equal('play');
  });

  it('register asks a guest to sign in and plays for a signed-in user', () => {
    expect(decide({ type: 'register' })).to.equal('sign-in');
    expect(decide({ type: 'register', has_access: true }, user())).to.equal('play');
  });

  it('an embeddable page (media type embedded) plays where no stream of the right kind does, by the same rules', () => {
    const page = { type: 'embedded', url: 'https://embed.test/e/1' };
    const access = decideAccess(fromEvent(event({ media: [page] }), 'Final'), undefined, false);
    expect(access).to.deep.equal({ kind: 'embed', url: 'https://embed.test/e/1' });
    expect(decide({ media: [page, ...stream] }), 'the stream first').to.equal('play');
    expect(decide({ type: 'paid', media: [page] })).to.equal('paywall');
    expect(decide({ media: [page] }, undefined, true)).to.equal('geo-blocked');
    expect(decide({ media: [{ type: 'embedded', url: 'javascript:alert(1)' }] })).to.equal('unavailable');
    expect(decide({ media: [{ type: 'embedded', url: '/e/1' }] }), 'absolute only').to.equal('unavailable');
    expect(decide({ media: [{ type: 'embedded', url: 'http://embed.test/e/1' }] }), 'https only').to.equal(
      'unavailable',
    );
  });

  it('paid and ppv need access', () => {
    expect(decide({ type: 'paid', media: [] })).to.equal('paywall');
    expect(decide({ type: 'ppv', media: [] }, user())).to.equal('paywall');
    expect(decide({ type: 'paid', has_access: true }, user())).to.equal('play');
  });

  it('without the watch right an account watches what a guest may: free items and clips, no paywall', () => {
    const withheld = user({ capabilities: ['download', 'vod_media_access'] });
    expect(decide({ type: 'free' }, withheld)).to.equal('play');
    expect(decide({ type: 'register', has_access: true }, withheld)).to.equal('no-watch');
    expect(decide({ type: 'paid', has_access: true }, withheld)).to.equal('no-watch');
    expect(decide({ type: 'ppv', media: [] }, withheld), 'buying would not help: no paywall').to.equal('no-watch');
    // A guest is asked to sign in as before; the right is the account's.
    expect(decide({ type: 'register' })).to.equal('sign-in');
    const done = fromClip(clip({ event_id: 1, status: 'done', media: [{ type: 'vod', url: 'c.m3u8' }] }));
    expect(decideAccess(done, withheld, false).kind).to.equal('play');
    const vod = fromVod(
      VodItem.parse({ id: 2, title: 'Final', type: 'paid', has_access: true, media: [{ type: 'vod', url: 'v.m3u8' }] }),
    );
    expect(decideAccess(vod, withheld, false).kind).to.equal('no-watch');
    expect(decideAccess(vod, user({ capabilities: ['watch', 'vod_media'] }), false).kind).to.equal('play');
  });

  it('region comes first, from the geo answer, the user or the event', () => {
    expect(decide({ type: 'free' }, undefined, true)).to.equal('geo-blocked');
    expect(decide({ type: 'free' }, user({ is_geo_blocked: true }))).to.equal('geo-blocked');
    expect(decide({ type: 'free', is_geo_blocked: true })).to.equal('geo-blocked');
  });

  it('upcoming waits, finished without a recording says so', () => {
    expect(decide({ type: 'free', stream_status: 'upcoming', media: [] })).to.equal('upcoming');
    expect(decide({ type: 'free', stream_status: 'finished', has_recording: false, media: [] })).to.equal(
      'no-recording',
    );
    expect(
      decideAccess(
        fromEvent(event({ stream_status: 'finished', media: [{ type: 'vod', url: 'v.m3u8' }] }), 'x'),
        undefined,
        false,
      ),
    ).to.deep.equal({ kind: 'play', url: 'v.m3u8', live: false });
  });
});
