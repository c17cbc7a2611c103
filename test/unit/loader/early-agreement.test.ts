/**
 * The loader's early video starts exactly what the player would. The early video decides over the raw start-up
 * answers (src/loader/early-video.ts `earlyDecision`: its readers `eventFromAnswer` and `prerollsFromAnswer`, then
 * src/lib/start-rules.ts `guestStart`); the player decides over the contract's reading of the same answers with its
 * own code: `decideAccess` (src/stores/commerce/access.ts, on `fromEvent`), `playsNatively` (src/media/engine.ts),
 * `resumePosition` (src/media/resume.ts), the tag's options (`parsePlayerProps`) and the preroll the player store
 * takes (`prerollOptionsOf`, `prerollsOf`, `choosePreroll`). For a guest, both must give the same stream and the same
 * preroll, or nothing, on every case of the player's access and preroll tests (test/unit/stores/commerce/access.test.ts and test/unit/media/prerolls.test.ts: every
 * value those use, in every combination) and of the tag, the engine and the resume position. Where they may differ,
 * it is stated: the loader's own conditions (http(s) URLs, a preroll list it can read) only ever start less.
 */
import { expect } from '@open-wc/testing';
import { Event, Geo, Settings } from '../../../src/api/contract.js';
import { PrerollList, prerollOptionsOf, prerollsOf } from '../../../src/api/preroll-schemas.js';
import { parsePlayerProps } from '../../../src/components/player/attributes.js';
import { resumeStorageKey, STORAGE_PREFIX } from '../../../src/lib/api-paths.js';
import type { EarlyChoice } from '../../../src/lib/early-video.js';
import { suppressionKey } from '../../../src/lib/preroll-rules.js';
import {
  earlyDecision,
  geoBlockedOf,
  prerollsFromAnswer,
  prerollsOfSettings,
  type Stored,
} from '../../../src/loader/early-video.js';
import { playsNatively } from '../../../src/media/engine.js';
import { choosePreroll, suppress, visitorId } from '../../../src/media/prerolls.js';
import { resumePosition } from '../../../src/media/resume.js';
import { decideAccess, fromEvent } from '../../../src/stores/commerce/access.js';

const url = (n: number) => `https://ads.example/${n}.m3u8`;
const LIVE = 'https://media.test/live.m3u8';
const VOD = 'https://media.test/vod.m3u8';

/** One case: the answers and the tag, as a guest's page would have them. */
interface Case {
  event: Record<string, unknown>;
  settings?: Record<string, unknown>;
  geo?: Record<string, unknown>;
  /** The tag's attributes (default: autoplay and muted). */
  tag?: Record<string, string>;
  /** The browser has Media Source Extensions (default: it has). */
  mse?: boolean;
  /** The guest's stored resume positions, as stored. */
  positions?: unknown;
  random?: number;
}

/** Runs `run` with this browser's Media Source Extensions present or hidden (the engine rule reads them). */
function withMse<T>(mse: boolean, run: () => T): T {
  const w = window as unknown as Record<string, unknown>;
  const saved = w.MediaSource;
  if (!mse) delete w.MediaSource;
  try {
    return run();
  } finally {
    if (!mse) w.MediaSource = saved;
  }
}

/** What the guest's player would start at once, by its own code over the contract's reading; undefined: else. */
function playerStart(c: Case): EarlyChoice | undefined {
  const parsed = Event.safeParse(c.event);
  // The player shows an error.
  if (!parsed.success) return undefined;
  const item = fromEvent(parsed.data, parsed.data.name);
  const settings = Settings.parse({ name: 'Demo', ...c.settings });
  // A geo answer it cannot read blocks nobody (the session's geo is best effort).
  const geo = Geo.safeParse(c.geo ?? { is_geo_blocked: false }).data;
  // A guest: no user.
  const access = decideAccess(item, undefined, geo?.is_geo_blocked ?? false);
  if (access.kind !== 'play') return undefined;
  const attributes = c.tag ?? { autoplay: '', muted: '' };
  const options = parsePlayerProps({
    eventId: String(item.id),
    autoplay: attributes.autoplay,
    muted: attributes.muted,
    preferPlayback: attributes['prefer-playback'],
  }).options;
  // The stage starts it at once only when it autoplays muted (else a Play button, or the browser's refusal).
  if (!options.autoplay || !options.muted) return undefined;
  const video = document.createElement('video');
  if (!withMse(c.mse ?? true, () => playsNatively(video, { prefer: options.prefer, live: access.live })))
    return undefined;
  if (c.positions !== undefined) store(resumeStorageKey('demo'), c.positions);
  const resumed = access.live ? undefined : resumePosition({ channel: 'demo' }, `${item.id}`);
  localStorage.removeItem(STORAGE_PREFIX + resumeStorageKey('demo'));
  if (resumed !== undefined) return undefined;
  // The preroll, as the player store takes it for a guest.
  const enabled = prerollOptionsOf(settings.preroll_options).enabled;
  const target = {
    eventId: `${item.id}`,
    live: access.live,
    locationId: item.locationId,
    categoryId: item.categoryId,
  };
  const preroll =
    enabled === false
      ? undefined
      : choosePreroll(
          prerollsOf(settings.prerolls).prerolls,
          target,
          { key: `visitor-${visitorId()}`, noAds: false },
          c.random ?? 0,
        );
  return { stream: access.url, live: access.live, preroll };
}

/** The loader's decision on the same case, as its module makes it (the answers read raw). */
function loaderStart(c: Case): EarlyChoice | undefined | 'no list' {
  const el = document.createElement('channel-player');
  for (const [name, value] of Object.entries(c.tag ?? { autoplay: '', muted: '' })) el.setAttribute(name, value);
  const list = prerollsOfSettings({ name: 'Demo', ...c.settings });
  if (list === null) return 'no list';
  const blocked = geoBlockedOf(c.geo ?? { is_geo_blocked: false });
  // The early video waits for a geo answer that says the guest is not blocked (early-video.ts `unless`).
  if (blocked === undefined) return undefined;
  const stored: Stored = { positions: c.positions, visitor: visitorId() };
  return earlyDecision(el, c.event, list, blocked, stored, c.mse ?? true, c.random ?? 0);
}

/** The player's start where the loader's own conditions hold (http(s) stream and advert), else none. */
const http = (s: string) => /^https?:\/\//.test(s);
function expected(c: Case): EarlyChoice | undefined | 'no list' {
  const settings = Settings.parse({ name: 'Demo', ...c.settings });
  const on = prerollOptionsOf(settings.preroll_options).enabled !== false;
  // A list the player cannot read plays none; the loader has nothing to agree with, and starts nothing.
  if (on && c.settings?.prerolls != null && !PrerollList.safeParse(c.settings.prerolls).success) return 'no list';
  // A geo answer the contract cannot read: the player takes nobody as blocked, the loader starts nothing.
  if (c.geo && !Geo.safeParse(c.geo).success) return undefined;
  const start = playerStart(c);
  return start && http(start.stream) && (!start.preroll || http(start.preroll.url)) ? start : undefined;
}

/** Stores a value as the session's storage does (`{v, e}` under the `rudy_` prefix). */
const store = (name: string, value: unknown) =>
  localStorage.setItem(STORAGE_PREFIX + name, JSON.stringify({ v: value, e: Date.now() + 60_000 }));

function clear(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(STORAGE_PREFIX)) localStorage.removeItem(key);
}

const event = (patch: Record<string, unknown>) => ({
  id: 7,
  name: 'Final',
  event_utc_ts: 1_705_000_000,
  stream_status: 'live',
  ...patch,
});

/** A free event with both its streams, live or finished. */
const freeEvent = (status: string) =>
  event({
    type: 'free',
    stream_status: status,
    media: [
      { type: 'live', url: LIVE },
      { type: 'vod', url: VOD },
    ],
  });

/** A guest's case of an event's fields (undefined: absent) and the geo answer's flag (`geo`). */
const guestCase = ({ geo, ...fields }: Record<string, unknown>): Case => ({
  event: event(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))),
  geo: { is_geo_blocked: geo },
});

/** Compares both sides on each case; returns how many started something. */
function agree(cases: Case[]): number {
  let started = 0;
  for (const c of cases) {
    const want = expected(c);
    expect(loaderStart(c), JSON.stringify(c)).to.deep.equal(want);
    if (want && want !== 'no list') started += 1;
  }
  return started;
}

function product<T extends Record<string, readonly unknown[]>>(axes: T): { [K in keyof T]: T[K][number] }[] {
  let all: Record<string, unknown>[] = [{}];
  for (const [name, values] of Object.entries(axes))
    all = all.flatMap((partial) => values.map((value) => ({ ...partial, [name]: value })));
  return all as { [K in keyof T]: T[K][number] }[];
}

describe('the early video’s decision and the player’s agree', () => {
  beforeEach(clear);
  afterEach(clear);

  it('on access: every value of the player’s access tests, in every combination, for a guest', () => {
    const stream = { type: 'live', url: LIVE };
    const recording = { type: 'vod', url: VOD };
    const page = { type: 'embedded', url: 'https://embed.test/e/1' };
    const cases = product({
      type: [undefined, 'free', 'register', 'paid', 'ppv', 'other', null],
      has_access: [undefined, false, true, 1, '0', 'TRUE'],
      stream_status: ['live', 'upcoming', 'finished', 'soon'],
      has_recording: [undefined, false, true, 'False'],
      is_geo_blocked: [undefined, true, '0'],
      geo: [false, true, '1', 'True'],
      media: [
        [stream],
        [recording],
        [stream, recording],
        [],
        [page],
        [page, stream],
        [{ type: 'embedded', url: 'javascript:alert(1)' }],
        [{ type: 'embedded', url: '/e/1' }],
        [{ type: 'live', url: 'javascript:alert(1)' }],
        [{ type: 'vod', url: 'http://media.test/v.m3u8' }],
        [{ type: 'live' }],
        undefined,
      ],
    }).map(guestCase);
    const started = agree(cases);
    // Both starts and refusals are covered.
    expect(started).to.be.above(100);
    expect(cases.length - started).to.be.above(1000);
  });

  it('on money and access it cannot read, in every combination with readable ones: neither guesses', () => {
    // A type, an access or geo flag it cannot read refuses the event (schema-kit.ts `optStrict`), a geo answer's
    // leaves the loader waiting; beside the values that play, so that a guess would show as a start.
    const stream = { type: 'live', url: LIVE };
    const recording = { type: 'vod', url: VOD };
    const cases = product({
      type: [undefined, 'free', 'paid', 1, {}],
      has_access: [undefined, true, 'yes', 2],
      is_geo_blocked: [undefined, false, 'no'],
      price: [undefined, '0.50', '0,50'],
      geo: [false, 'yes', null, true],
      stream_status: ['live', 'finished'],
      media: [[stream], [recording, stream]],
    }).map(guestCase);
    const started = agree(cases);
    expect(started).to.be.above(20);
    expect(cases.length - started).to.be.above(1000);
  });

  it('on events the contract refuses: the player shows an error, nothing starts early', () => {
    // What is required stays required.
    const malformed = [
      { id: 'x' },
      { id: null },
      { name: 3 },
      { name: null },
      { event_utc_ts: 'soon' },
      { event_utc_ts: null },
      { stream_status: undefined },
      { stream_status: 'LIVE' },
      // Money and access are never guessed (schema-kit.ts `optStrict`): a type, an access or geo flag, a price it
      // cannot read make no event, where a default would have made a paid event free and playable.
      { type: 1 },
      { type: {} },
      { type: false },
      { has_access: 'yes' },
      { has_access: {} },
      { is_geo_blocked: [] },
      { is_geo_blocked: 'yes' },
      { price: '0,50' },
      { price: {} },
      { single_event_package_id: 'x' },
      { single_event_package_id: {} },
    ];
    for (const patch of malformed) {
      const c: Case = { event: event({ type: 'free', media: [{ type: 'live', url: LIVE }], ...patch }), mse: false };
      expect(Event.safeParse(c.event).success, JSON.stringify(patch)).to.equal(false);
      expect(loaderStart(c), JSON.stringify(patch)).to.equal(undefined);
    }
  });

  it('on optional fields another back end writes its own way: both read them by the same rule', () => {
    // Null, a numeric string, a value that cannot be read (but of money or access): the field takes its default, in
    // both readers.
    const tolerated = [
      { event_utc_ts: '1705000000' },
      { type: null },
      { has_access: null },
      { has_access: '1' },
      { has_recording: null },
      { has_recording: 2 },
      { is_geo_blocked: null },
      { is_geo_blocked: 1 },
      { price: null },
      { price: '0.50' },
      { single_event_package_id: null },
      { single_event_package_id: '12' },
      { media: 'https://media.test/live.m3u8' },
      { media: [null, { type: 'live', url: LIVE }] },
      { media: null },
      { event_category_id: 'five' },
      { location_id: 'x' },
    ];
    const cases = tolerated.map((patch): Case => {
      const c: Case = { event: event({ type: 'free', media: [{ type: 'live', url: LIVE }], ...patch }), mse: false };
      expect(Event.safeParse(c.event).success, JSON.stringify(patch)).to.equal(true);
      return c;
    });
    expect(agree(cases), 'cases that started early').to.be.above(5);
  });

  it('on the tag and the engine: autoplay, muted, the engine asked for, with and without Media Source Extensions', () => {
    const tags: Record<string, string>[] = [
      { autoplay: '', muted: '' },
      { autoplay: 'false', muted: '' },
      { autoplay: '', muted: 'FALSE ' },
      { muted: '' },
      { autoplay: '' },
      { autoplay: '', muted: '', 'prefer-playback': 'native' },
      { autoplay: '', muted: '', 'prefer-playback': ' MSE' },
      { autoplay: '', muted: '', 'prefer-playback': 'hlsjs' },
      { autoplay: '', muted: '', 'prefer-playback': '' },
    ];
    const cases = product({
      tag: tags,
      mse: [true, false],
      status: ['live', 'finished'],
    }).map(({ tag, mse, status }): Case => ({
      event: freeEvent(status),
      tag,
      mse,
    }));
    expect(agree(cases)).to.be.above(5);
  });

  it('on resume positions: an on-demand video the guest left starts there, not early', () => {
    const positions = [
      undefined,
      { '7': [120, 1] },
      { '8': [120, 1] },
      { '7': [120] },
      { '7': 'x' },
      'x',
      { '7': [0, 1] },
    ];
    const cases = product({ positions, status: ['live', 'finished'] }).map(({ positions, status }): Case => ({
      event: freeEvent(status),
      positions,
      mse: false,
    }));
    expect(agree(cases)).to.be.above(5);
  });
});

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
  // The player's preroll tests' list: location, category, live or VOD, weight 0.
  [
    { id: 1, url: url(1), weight: 1, for_live: true, location_id: 10, for_vod: false },
    { id: 2, url: url(2), weight: 1, for_vod: true, event_categories: [5], for_live: false },
    { id: 3, url: url(3), weight: 1, for_live: true, for_vod: true },
    { id: 4, url: url(4), weight: 1, for_live: true, for_vod: true, location_id: 99 },
    { id: 5, url: url(5), weight: 1, for_live: true, for_vod: true, event_categories: [6] },
    { id: 6, url: url(6), weight: 0, for_live: true, for_vod: true },
  ],
  // An advert the browser could not be given as it is: the loader starts nothing, the player decides.
  [{ id: 9, url: 'javascript:alert(1)', for_vod: true, for_live: true }],
];

/**
 * Lists with records another back end wrote its own way: read one by one by both, a record without what is
 * required left out (the preroll with id 8 always stays).
 */
const TOLERATED: unknown[] = [
  [
    { id: 'one', url: url(1) },
    { id: 8, url: url(8), for_vod: true, for_live: true },
  ],
  [{ id: 1 }, { id: 8, url: url(8), for_vod: true, for_live: true }],
  [{ id: 1, url: url(1), weight: '2', for_vod: 1 }],
  [{ id: 1, url: url(1), weight: null, for_vod: '1', for_live: null }],
  [{ id: 1, url: url(1), for_vod: null, for_live: 1 }],
  [{ id: 1, url: url(1), for_vod: 'TRUE', for_live: 'yes' }],
  [{ id: 1, url: url(1), for_vod: 'False', for_live: 'True' }],
  [{ id: 1, url: url(1), event_categories: '3', for_vod: true }],
  [{ id: 1, url: url(1), event_categories: ['x', 3], for_vod: true }],
  [{ id: 1, url: url(1), location_id: '5a', for_vod: true }],
  [null, [], 'x', { id: 8, url: url(8), for_vod: true, for_live: true }],
];

/** What is not a list: the early video refuses it (the player plays none). */
const MALFORMED: unknown[] = [{ id: 1, url: url(1) }, 'x', 3];

/** Raw events: on demand and live, with and without a category and a location, ids as strings too. */
const EVENTS: Record<string, unknown>[] = [
  { stream_status: 'finished' },
  { stream_status: 'live' },
  { stream_status: 'finished', event_category_id: '3' },
  { stream_status: 'live', event_category_id: 4, location_id: '5' },
  { stream_status: 'finished', location_id: 6, event_category_id: null },
  { stream_status: 'finished', event_category_id: 3, location_id: 5 },
  { stream_status: 'live', event_category_id: 5, location_id: 10 },
  { stream_status: 'finished', event_category_id: 5, location_id: 11 },
].map((patch, i) => ({
  id: i % 2 ? String(20 + i) : 20 + i,
  name: 'Hawks vs Owls',
  type: 'free',
  event_utc_ts: 1_705_000_000,
  has_access: false,
  media: [
    { type: 'live', url: LIVE },
    { type: 'vod', url: VOD },
  ],
  ...patch,
}));

const DRAWS = [0, 0.2, 0.5, 0.74, 0.99];

describe('the early video’s preroll and the player’s agree', () => {
  beforeEach(clear);
  afterEach(clear);

  it('read the same lists, and refuse the same malformed ones', () => {
    for (const raw of [...LISTS, ...TOLERATED]) {
      expect(prerollsFromAnswer(raw), JSON.stringify(raw)).to.deep.equal(PrerollList.parse(raw));
      // The player reads the list in the settings.
      expect(prerollsOf(Settings.parse({ prerolls: raw }).prerolls).prerolls, JSON.stringify(raw)).to.deep.equal(
        PrerollList.parse(raw),
      );
    }
    // None given: absent or null (as PHP APIs send it) is no prerolls for both.
    for (const raw of [undefined, null]) {
      expect(prerollsOf(raw)).to.deep.equal({ prerolls: [], dropped: [] });
      expect(prerollsOfSettings({ prerolls: raw })).to.deep.equal([]);
    }
    // One record left out, the rest read.
    expect(PrerollList.parse(TOLERATED[0]).map((p) => p.id)).to.deep.equal([8]);
    expect(PrerollList.parse(TOLERATED[3])).to.deep.equal([
      { id: 1, url: url(1), weight: 1, event_categories: [], for_vod: true, for_live: false },
    ]);
    for (const raw of MALFORMED) {
      expect(PrerollList.safeParse(raw).success, JSON.stringify(raw)).to.equal(false);
      expect(prerollsFromAnswer(raw), JSON.stringify(raw)).to.equal(null);
      // The player plays none of a list it cannot read, and the rest of the settings stand; the loader starts nothing.
      const settings = Settings.parse({ name: 'Demo', prerolls: raw });
      expect([prerollsOf(settings.prerolls).prerolls, settings.name], JSON.stringify(raw)).to.deep.equal([[], 'Demo']);
    }
  });

  it('choose the same preroll for every list, event, switch and draw, with and without suppressions', () => {
    let compared = 0;
    let chosen = 0;
    for (const suppressed of [false, true]) {
      clear();
      store('visitor', 'v-agree');
      for (const raw of [...LISTS, ...TOLERATED, ...MALFORMED]) {
        const list = prerollsOf(raw).prerolls;
        for (const rawEvent of EVENTS) {
          const item = fromEvent(Event.parse(rawEvent), 'x');
          const target = {
            eventId: `${item.id}`,
            live: rawEvent.stream_status === 'live',
            locationId: item.locationId,
            categoryId: item.categoryId,
          };
          // The player recorded its first choice for this event: that one is suppressed now.
          if (suppressed) {
            const first = choosePreroll(list, target, { key: 'visitor-v-agree', noAds: false }, 0);
            if (first) suppress('visitor-v-agree', target.eventId, first.id, 60);
            if (first)
              expect(
                localStorage.getItem(`${STORAGE_PREFIX}${suppressionKey('visitor-v-agree', target.eventId, first.id)}`),
              ).to.not.equal(null);
          }
          for (const preroll_options of [
            undefined,
            { enabled: 0 },
            { enabled: '1' },
            { enabled: null },
            [],
            { enabled: 'FALSE' },
            { enabled: 'no' },
          ]) {
            for (const random of DRAWS) {
              const c: Case = { event: rawEvent, settings: { prerolls: raw, preroll_options }, mse: false, random };
              const want = expected(c);
              expect(loaderStart(c), JSON.stringify(c)).to.deep.equal(want);
              compared += 1;
              if (want && want !== 'no list' && want.preroll) chosen += 1;
            }
          }
        }
      }
    }
    // The cases cover choices and refusals both.
    expect(chosen).to.be.above(100);
    expect(compared - chosen).to.be.above(100);
  });

  it('a guest with no visitor id yet has nothing suppressed', () => {
    const list = [{ id: 1, url: url(1), for_vod: true }];
    const el = document.createElement('channel-player');
    el.setAttribute('autoplay', '');
    el.setAttribute('muted', '');
    const choice = earlyDecision(
      el,
      EVENTS[0],
      prerollsFromAnswer(list)!,
      false,
      { positions: undefined, visitor: undefined },
      false,
      0,
    );
    expect(choice?.preroll?.id).to.equal(1);
  });
});
