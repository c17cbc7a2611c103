/**
 * The schedule's schema.org JSON-LD (src/components/schedule/structured-data.ts): hostile text in the API's events
 * stays text inside the script, descriptions lose their HTML, a link template that is not http(s) gives no event,
 * and teams go where schema.org puts them. The end-to-end test checks the page's head on a partner page.
 */
import { expect } from '@open-wc/testing';
import type { Event } from '../../../../src/api/contract.js';
import { event } from '../../../fixtures/contract.js';
import {
  eventsGraph,
  scriptJson,
  type StructuredDataContext,
} from '../../../../src/components/schedule/structured-data.js';

const GAME = { name: 'Gulls @ Otters', event_utc_ts: 1_800_000_000, stream_status: 'upcoming' };
const context: StructuredDataContext = {
  watchUrl: '/watch/{id}',
  base: 'https://partner.example/sports/',
  currency: 'CAD',
};

/** The graph's nodes as plain objects. */
function nodes(events: Event[], options: StructuredDataContext = context): Record<string, unknown>[] {
  return eventsGraph(events, options)['@graph'] as unknown as Record<string, unknown>[];
}

describe('schedule structured data', () => {
  it('keeps a name that closes the script as text, and a description as its words only', () => {
    const graph = eventsGraph(
      [
        event({
          ...GAME,
          name: '</script><script>alert(1)</script>',
          description: '<p>Game <b>one</b><img src=x onerror=alert(1)></p>',
        }),
      ],
      context,
    );
    const json = scriptJson(graph);
    expect(json).not.to.include('<');
    const [sports] = (JSON.parse(json) as { '@graph': Record<string, unknown>[] })['@graph'];
    expect(sports!.name).to.equal('</script><script>alert(1)</script>');
    expect(sports!.description).to.equal('Game one');
  });

  it('gives home and away teams where the event names a home team, competitors otherwise', () => {
    const participants = [
      { id: 1, name: 'Gulls' },
      { id: 2, name: 'Otters' },
    ];
    const [withHome] = nodes([event({ ...GAME, participants, home_team_id: 2 })]);
    expect(withHome!.homeTeam).to.deep.equal({ '@type': 'SportsTeam', name: 'Otters' });
    expect(withHome!.awayTeam).to.deep.equal([{ '@type': 'SportsTeam', name: 'Gulls' }]);
    const [noHome] = nodes([event({ ...GAME, participants })]);
    expect(noHome!.competitor).to.have.length(2);
    expect(noHome!.homeTeam).to.equal(undefined);
  });

  it('prices paid events in the channel currency, with absolute links; free events are free', () => {
    const [paid, paidBroadcast, free] = nodes([
      event({ ...GAME, type: 'ppv', price: 19.99, duration: 7200 }),
      event({ ...GAME, id: 8, type: 'register', price: 5 }),
    ]);
    expect(paid!.url).to.equal('https://partner.example/watch/7');
    expect(paid!.offers).to.deep.include({
      price: 19.99,
      priceCurrency: 'CAD',
      url: 'https://partner.example/watch/7',
    });
    expect(paid!.endDate).to.equal(new Date((1_800_000_000 + 7200) * 1000).toISOString());
    expect(paidBroadcast).to.deep.include({ '@type': 'BroadcastEvent', isLiveBroadcast: true });
    expect(free!.isAccessibleForFree).to.equal(true);
    expect(free!.offers).to.equal(undefined);
  });

  it('says no end for a duration past the dates’ range, rather than failing the schedule', () => {
    const [sports, broadcast] = nodes([event({ ...GAME, duration: 1e13 })]);
    expect(sports!.startDate).to.equal(new Date(GAME.event_utc_ts * 1000).toISOString());
    expect(sports).not.to.have.property('endDate');
    expect(broadcast).not.to.have.property('endDate');
  });

  it('leaves out an event whose link template is not http(s)', () => {
    expect(nodes([event({ ...GAME })], { ...context, watchUrl: 'javascript:alert({id})' })).to.deep.equal([]);
  });
});
