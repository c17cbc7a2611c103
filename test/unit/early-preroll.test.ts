/**
 * The loader's early video and the player choose the same preroll. The early video reads the raw start-up answers
 * (src/loader/early-video.ts `prerollsFromAnswer`, `earlyPreroll`); the player reads them through the contract and
 * its stores (src/media/prerolls.ts `choosePreroll`, the target from `fromEvent`). Both go through the shared rules
 * (src/lib/preroll-rules.ts). For every list, event, suppression and draw below, they must agree: the same preroll,
 * or none, and the raw list refused exactly when the contract refuses it.
 */
import { expect } from '@open-wc/testing';
import { Event, Settings } from '../../src/api/contract.js';
import { PrerollList, prerollsOf } from '../../src/api/preroll-schemas.js';
import { STORAGE_PREFIX } from '../../src/lib/api-paths.js';
import { suppressionKey } from '../../src/lib/preroll-rules.js';
import { earlyPreroll, prerollsFromAnswer } from '../../src/loader/early-video.js';
import { choosePreroll, suppress } from '../../src/media/prerolls.js';
import { fromEvent } from '../../src/stores/commerce/access.js';

const url = (n: number) => `https://ads.example/${n}.m3u8`;

/** Raw preroll lists as an API may answer them (strings for ids, numbers and strings for flags, defaults left out). */
const LISTS: unknown[][] = [
  [],
  [{ id: 1, url: url(1) }],
  [{ id: 1, url: url(1), for_vod: true, for_live: true }],
  [
    { id: '1', url: url(1), for_vod: 1, weight: 3 },
    { id: '2', url: url(2), for_vod: '1', for_live: 'true', event_categories: ['3'] },
    { id: 3, url: url(3), for_live: true, location_id: '5' },
    { id: 4, url: url(4), for_vod: true, location_id: null, event_categories: [4, '3'], weight: 0.5 },
    { id: 5, url: url(5), for_vod: true, weight: 0 },
  ],
  [
    { id: 6, url: url(6), for_vod: true, location_id: 6, weight: 2 },
    { id: 7, url: url(7), for_vod: true, for_live: true, event_categories: [] },
  ],
];

/** Lists the contract refuses: the early video must refuse them too. */
const MALFORMED: unknown[] = [
  { id: 1, url: url(1) },
  [{ id: 'one', url: url(1) }],
  [{ id: 1 }],
  [{ id: 1, url: url(1), weight: '2' }],
  [{ id: 1, url: url(1), weight: null }],
  [{ id: 1, url: url(1), for_vod: null }],
  [{ id: 1, url: url(1), event_categories: '3' }],
  [{ id: 1, url: url(1), event_categories: ['x'] }],
  [{ id: 1, url: url(1), location_id: '5a' }],
  [null],
];

/** Raw events: on demand and live, with and without a category and a location, ids as strings too. */
const EVENTS: Record<string, unknown>[] = [
  { stream_status: 'finished' },
  { stream_status: 'live' },
  { stream_status: 'finished', event_category_id: '3' },
  { stream_status: 'live', event_category_id: 4, location_id: '5' },
  { stream_status: 'finished', location_id: 6, event_category_id: null },
  { stream_status: 'finished', event_category_id: 3, location_id: 5 },
].map((patch, i) => ({
  id: i % 2 ? String(20 + i) : 20 + i,
  name: 'Hawks vs Owls',
  type: 'free',
  event_utc_ts: 1_705_000_000,
  has_access: false,
  media: [],
  ...patch,
}));

const DRAWS = [0, 0.2, 0.5, 0.74, 0.99];

function clear(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(STORAGE_PREFIX)) localStorage.removeItem(key);
}

describe('the early video’s preroll and the player’s agree', () => {
  beforeEach(clear);
  afterEach(clear);

  it('read the same lists, and refuse the same malformed ones', () => {
    for (const raw of LISTS) {
      expect(prerollsFromAnswer(raw), JSON.stringify(raw)).to.deep.equal(PrerollList.parse(raw));
      // The player reads the list in the settings.
      expect(prerollsOf(Settings.parse({ prerolls: raw }).prerolls), JSON.stringify(raw)).to.deep.equal(
        PrerollList.parse(raw),
      );
    }
    // None given: absent or null (as PHP APIs send it) is no prerolls for both.
    for (const raw of [undefined, null]) expect(prerollsOf(raw)).to.deep.equal([]);
    for (const raw of MALFORMED) {
      expect(PrerollList.safeParse(raw).success, JSON.stringify(raw)).to.equal(false);
      expect(prerollsFromAnswer(raw), JSON.stringify(raw)).to.equal(null);
      // The player plays none of a list it cannot read, and the rest of the settings stand; the loader starts nothing.
      const settings = Settings.parse({ name: 'Demo', prerolls: raw });
      expect([prerollsOf(settings.prerolls), settings.name], JSON.stringify(raw)).to.deep.equal([[], 'Demo']);
    }
  });

  it('choose the same preroll for every list, event and draw, with and without suppressions', () => {
    const visitor = 'v-agree';
    let compared = 0;
    let chosen = 0;
    for (const suppressed of [false, true]) {
      clear();
      localStorage.setItem(`${STORAGE_PREFIX}visitor`, JSON.stringify({ v: visitor, e: Date.now() + 60_000 }));
      for (const raw of LISTS) {
        const list = PrerollList.parse(raw);
        for (const rawEvent of EVENTS) {
          const event = Event.parse(rawEvent);
          const item = fromEvent(event, event.name);
          const target = {
            eventId: `${item.id}`,
            live: event.stream_status === 'live',
            locationId: item.locationId,
            categoryId: item.categoryId,
          };
          // The player recorded its first choice for this event: that one is suppressed now.
          if (suppressed) {
            const first = choosePreroll(list, target, { key: `visitor-${visitor}`, noAds: false }, 0);
            if (first) suppress(`visitor-${visitor}`, target.eventId, first.id, 60);
            if (first) {
              expect(
                localStorage.getItem(
                  `${STORAGE_PREFIX}${suppressionKey(`visitor-${visitor}`, target.eventId, first.id)}`,
                ),
              ).to.not.equal(null);
            }
          }
          for (const draw of DRAWS) {
            const player = choosePreroll(list, target, { key: `visitor-${visitor}`, noAds: false }, draw);
            const early = earlyPreroll(prerollsFromAnswer(raw)!, rawEvent, visitor, draw);
            expect(early, `${JSON.stringify(raw)} ${JSON.stringify(rawEvent)} ${draw}`).to.deep.equal(player);
            compared += 1;
            if (player) chosen += 1;
          }
        }
      }
    }
    // The cases cover choices and refusals both.
    expect(compared).to.equal(2 * LISTS.length * EVENTS.length * DRAWS.length);
    expect(chosen).to.be.above(20);
    expect(compared - chosen).to.be.above(20);
  });

  it('a guest with no visitor id yet has nothing suppressed', () => {
    const list = prerollsFromAnswer([{ id: 1, url: url(1), for_vod: true }])!;
    expect(earlyPreroll(list, EVENTS[0]!, undefined, 0)?.id).to.equal(1);
  });
});
