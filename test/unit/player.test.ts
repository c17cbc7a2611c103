/**
 * The player's logic without React: preroll choice and suppression (src/media/prerolls.ts), access rules and
 * offers (src/media/access.ts), and the playback lifecycle with a fake hls.js and the renewal of refused stream
 * URLs on a fake clock (src/media/playback.ts).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { Clip, Event as ChannelEvent, Package, Subscription, User, VodItem } from '../../src/api/contract.js';
import { Preroll, type Preroll as PrerollType } from '../../src/api/preroll-schemas.js';
import { decideAccess, fromClip, fromEvent, fromVod } from '../../src/stores/commerce/access.js';
import { offersFor } from '../../src/stores/commerce/offers.js';
import { monitorVideo, VIEWING_EVERY_MS } from '../../src/media/analytics.js';
import { analyticsAllowed } from '../../src/stores/analytics/datalake.js';
import { videoReporting } from '../../src/stores/analytics/video.js';
import {
  HLS_BUFFER,
  HLS_LOAD_POLICIES,
  hasNativeHls,
  needsFullHls,
  playsNatively,
  type HlsClass,
  type HlsErrorData,
  type Quality,
} from '../../src/media/engine.js';
import {
  FIRST_FRAME_MS,
  GIVE_UP_MS,
  RELOAD_EVERY_MS,
  STALL_MS,
  startPlayback,
  type PlaybackOptions,
  type PlaybackState,
} from '../../src/media/playback.js';
import { RENEW_AGAIN_MS, URL_FRESH_MS, renewalPolicy, type Refusal } from '../../src/media/renewal.js';
import { exclusiveSound } from '../../src/media/sound.js';
import { choosePreroll, isSuppressed, matchingPrerolls, pickByWeight, suppress } from '../../src/media/prerolls.js';
import { flush, HANG, installWorld, teardown, type World } from './helpers.js';

const preroll = (p: Partial<PrerollType> & { id: number }): PrerollType =>
  Preroll.parse({ url: `https://cdn.test/ad-${p.id}.m3u8`, weight: 1, for_live: true, for_vod: true, ...p });

const event = (e: Record<string, unknown>) =>
  ChannelEvent.parse({ id: 7, name: 'Final', event_utc_ts: 1_705_000_000, stream_status: 'live', ...e });
/** A signed-in account, with the `watch` right every account is given. */
const user = (u: Record<string, unknown> = {}) =>
  User.parse({ id: 3, email: 'viewer@example.test', capabilities: ['watch'], ...u });

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
    const clip = fromClip(
      Clip.parse({
        id: 5,
        event_id: 1,
        name: 'Goal',
        start_time: 0,
        duration: 10,
        status: 'done',
        media: [{ type: 'vod', url: 'c.m3u8' }],
      }),
    );
    expect(decideAccess(clip, withheld, false).kind).to.equal('play');
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

  it('a paywall lists the single pass, the packages that cover the event and the subscriptions', () => {
    const item = fromEvent(
      event({
        type: 'paid',
        price: 9.99,
        single_event_package_id: 100,
        event_category_id: 5,
        participants: [
          { id: 21, name: 'A' },
          { id: 22, name: 'B' },
        ],
      }),
      'Final',
    );
    const packages = [
      Package.parse({ id: 100, name: 'Single event', price: 4, type: 'single' }),
      Package.parse({ id: 101, name: 'Basketball pass', price: 49, event_categories: [5], weight: 2 }),
      Package.parse({ id: 102, name: 'Hockey pass', price: 39, event_categories: [6] }),
      Package.parse({
        id: 103,
        name: 'Team pass',
        price: 29,
        is_team_pass: 1,
        participants: [22, 30],
        event_categories: [5],
      }),
      Package.parse({ id: 104, name: 'Other team', price: 29, is_team_pass: true, participants: [30] }),
    ];
    const subscriptions = [
      Subscription.parse({ id: 1, name: 'Annual', price: 99, offer: 'annual', weight: 2 }),
      Subscription.parse({ id: 2, name: 'Monthly', price: 9, offer: 'monthly', trial_period: 7, weight: 1 }),
    ];
    const offers = offersFor(item, packages, subscriptions);
    expect(offers.map((o) => `${o.type}:${o.id}`)).to.deep.equal([
      'event:7',
      'package:103',
      'package:101',
      'subscription:2',
      'subscription:1',
    ]);
    expect(offers[0]).to.include({ price: 9.99, packageId: 100 });
    expect(offers[1]).to.deep.include({ teamPass: true, participantIds: [22] });
    expect(offers[3]).to.include({ period: 'monthly', trialDays: 7 });
    expect(offers[4]).to.include({ period: 'annual', trialDays: 0 });
  });
});

describe('playback lifecycle (fake hls.js)', () => {
  let world: World;
  beforeEach(() => {
    world = installWorld();
    world.server.on('GET', 'https://media.test/live.m3u8', { status: 200, raw: '#EXTM3U\n' });
    world.server.on('GET', 'https://media.test/cc.m3u8', {
      status: 200,
      raw: '#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="subs.m3u8"\n',
    });
    world.server.on('GET', 'https://media.test/denied.m3u8', { status: 403, raw: 'forbidden' });
  });
  afterEach(teardown);

  /** A fake hls.js that records calls and lets the test fire its events. */
  function fakeHls() {
    const log: string[] = [];
    const configs: Record<string, unknown>[] = [];
    const instances: { fire(event: string, data: HlsErrorData): void }[] = [];
    let loadedFull: boolean | undefined;
    const Hls = class {
      static isSupported = () => true;
      static Events = {
        ERROR: 'hlsError',
        MANIFEST_PARSED: 'hlsManifestParsed',
        FRAG_LOADED: 'hlsFragLoaded',
        LEVEL_SWITCHED: 'hlsLevelSwitched',
      };
      levels = [
        { height: 180, bitrate: 200_000 },
        { height: 360, bitrate: 700_000 },
      ];
      level = 0;
      get currentLevel() {
        return this.level;
      }
      set currentLevel(index: number) {
        log.push(`currentLevel ${index}`);
        this.level = index;
      }
      readonly listeners = new Map<string, ((e: string, d: HlsErrorData) => void)[]>();
      constructor(config: Record<string, unknown> = {}) {
        configs.push(config);
        instances.push({ fire: (event, data) => this.listeners.get(event)?.forEach((fn) => fn(event, data)) });
        log.push('new');
      }
      loadSource(url: string) {
        log.push(`loadSource ${url}`);
      }
      attachMedia() {
        log.push('attachMedia');
      }
      startLoad() {
        log.push('startLoad');
      }
      stopLoad() {
        log.push('stopLoad');
      }
      recoverMediaError() {
        log.push('recoverMediaError');
      }
      destroy() {
        log.push('destroy');
      }
      on(event: string, fn: (e: string, d: HlsErrorData) => void) {
        this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
      }
    } as unknown as HlsClass;
    const load = async (full: boolean) => {
      loadedFull = full;
      return Hls;
    };
    return { log, configs, instances, load, full: () => loadedFull };
  }

  function run(url: string, live = true, more: Partial<PlaybackOptions> = {}) {
    const video = document.createElement('video');
    const states: PlaybackState['kind'][] = [];
    const hls = fakeHls();
    const playback = startPlayback({
      video,
      url,
      live,
      prefer: 'mse',
      loadHls: hls.load,
      onState: (s) => states.push(s.kind),
      ...more,
    });
    return { video, states, hls, playback };
  }

  /** An owner that records refusals and renews each one; the test settles whether the new URL came. */
  function renewingOwner() {
    const refusals: Refusal[] = [];
    let settle: ((replaced: boolean) => void) | undefined;
    const onRefused = (refusal: Refusal) => {
      refusals.push(refusal);
      return new Promise<boolean>((resolve) => (settle = resolve));
    };
    return { refusals, onRefused, settle: (replaced: boolean) => settle!(replaced) };
  }
  const refusal403 = (details: string, fatal = true): HlsErrorData => ({
    fatal,
    type: 'networkError',
    details,
    response: { code: 403 },
  });
  const loads = (log: string[]) => log.filter((l) => l === 'startLoad').length;

  it('uses the light build unless the stream has subtitles', async () => {
    const plain = run('https://media.test/live.m3u8');
    await world.advance(0);
    expect(plain.hls.full()).to.equal(false);
    expect(plain.playback.engine).to.equal('hls.js-light');
    const cc = run('https://media.test/cc.m3u8');
    await world.advance(0);
    expect(cc.hls.full()).to.equal(true);
    expect(needsFullHls('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nx.m3u8')).to.equal(false);
  });

  it('the quality menu: the renditions once the manifest is parsed, a chosen one, and automatic again', async () => {
    const qualities: Quality[] = [];
    const { hls, playback } = run('https://media.test/live.m3u8', false, { onQuality: (q) => qualities.push(q) });
    await world.advance(0);
    hls.instances[0]!.fire('hlsManifestParsed', {});
    expect(qualities.at(-1)).to.deep.equal({
      renditions: [
        { height: 180, bitrate: 200_000 },
        { height: 360, bitrate: 700_000 },
      ],
      selected: -1,
      playing: 0,
    });
    playback.setQuality(1);
    expect(hls.log).to.include('currentLevel 1');
    expect(qualities.at(-1)).to.include({ selected: 1, playing: 1 });
    playback.setQuality(-1);
    expect(hls.log).to.include('currentLevel -1');
    expect(qualities.at(-1)).to.include({ selected: -1 });
    // hls.js switching by itself is reported too.
    hls.instances[0]!.fire('hlsLevelSwitched', {});
    expect(qualities.length).to.equal(4);
    playback.destroy();
    playback.setQuality(0);
    expect(hls.log.filter((l) => l.startsWith('currentLevel'))).to.have.length(2);
  });

  it('the engine: native for on-demand where the browser plays HLS, hls.js for live (its DVR window), prefer-playback wins', () => {
    const video = document.createElement('video');
    if (!hasNativeHls(video)) {
      expect(playsNatively(video, { live: false })).to.equal(false);
      return;
    }
    expect(playsNatively(video, { live: false })).to.equal(true);
    expect(playsNatively(video, { live: true })).to.equal(false);
    expect(playsNatively(video, { live: true, prefer: 'native' })).to.equal(true);
    expect(playsNatively(video, { live: false, prefer: 'mse' })).to.equal(false);
  });

  it('a refused manifest is reported once, without loading hls.js or retrying', async () => {
    const { states, hls } = run('https://media.test/denied.m3u8');
    await world.advance(60_000);
    expect(states).to.deep.equal(['loading', 'denied']);
    expect(hls.log).to.deep.equal([]);
    expect(world.server.to('GET', 'https://media.test/denied.m3u8')).to.have.length(1);
  });

  it('a 403 from hls.js itself stops loading and is reported', async () => {
    const { states, hls } = run('https://media.test/live.m3u8');
    await world.advance(0);
    hls.instances[0]!.fire('hlsError', {
      fatal: true,
      type: 'networkError',
      details: 'manifestLoadError',
      response: { code: 403 },
    });
    await world.advance(60_000);
    expect(states).to.deep.equal(['loading', 'denied']);
    expect(hls.log.filter((l) => l === 'startLoad')).to.deep.equal([]);
  });

  it('non-fatal errors (a failed segment hls.js retries) change nothing', async () => {
    const { states, hls } = run('https://media.test/live.m3u8');
    await world.advance(0);
    hls.instances[0]!.fire('hlsError', { fatal: false, type: 'networkError', details: 'fragLoadError' });
    await world.advance(10_000);
    expect(states).to.deep.equal(['loading']);
  });

  it('a media error gets one recoverMediaError, the second is reported', async () => {
    const { states, hls } = run('https://media.test/live.m3u8', false);
    await world.advance(0);
    hls.instances[0]!.fire('hlsError', { fatal: true, type: 'mediaError', details: 'bufferStalledError' });
    expect(hls.log).to.include('recoverMediaError');
    expect(states).to.deep.equal(['loading']);
    hls.instances[0]!.fire('hlsError', { fatal: true, type: 'mediaError', details: 'bufferStalledError' });
    expect(states).to.deep.equal(['loading', 'error']);
  });

  it('a lost live stream reconnects on a bounded schedule, then gives up', async () => {
    const { states, hls } = run('https://media.test/live.m3u8');
    await world.advance(0);
    hls.instances[0]!.fire('hlsManifestParsed', {});
    hls.instances[0]!.fire('hlsError', { fatal: true, type: 'networkError', details: 'levelLoadError' });
    expect(states).to.deep.equal(['loading', 'reconnecting']);
    await world.advance(RELOAD_EVERY_MS * 3);
    expect(hls.log.filter((l) => l === 'startLoad')).to.have.length(3);
    await world.advance(GIVE_UP_MS);
    expect(states).to.deep.equal(['loading', 'reconnecting', 'gave-up']);
    const loads = hls.log.filter((l) => l === 'startLoad').length;
    await world.advance(GIVE_UP_MS);
    expect(hls.log.filter((l) => l === 'startLoad')).to.have.length(loads);
  });

  it('a live master playlist that failed is loaded again at each reconnect, within the same bound', async () => {
    const { states, hls } = run('https://media.test/live.m3u8');
    await world.advance(0);
    hls.instances[0]!.fire('hlsError', { fatal: true, type: 'networkError', details: 'manifestLoadError' });
    await world.advance(RELOAD_EVERY_MS * 2);
    expect(hls.log.filter((l) => l === 'loadSource https://media.test/live.m3u8')).to.have.length(3);
    expect(hls.log).not.to.include('startLoad');
    await world.advance(GIVE_UP_MS);
    expect(states).to.deep.equal(['loading', 'reconnecting', 'gave-up']);
  });

  it('no first frame within FIRST_FRAME_MS: an error (with Retry), and hls.js stops loading', async () => {
    const { states, hls } = run('https://media.test/live.m3u8', false);
    await world.advance(FIRST_FRAME_MS - 1);
    expect(states).to.deep.equal(['loading']);
    await world.advance(1);
    expect(states).to.deep.equal(['loading', 'error']);
    expect(hls.log).to.include('stopLoad');
  });

  it('a first frame in time: no error later', async () => {
    const { states, video } = run('https://media.test/live.m3u8', false);
    await world.advance(1_000);
    video.dispatchEvent(new Event('loadeddata'));
    await world.advance(FIRST_FRAME_MS * 2);
    expect(states).to.deep.equal(['loading']);
  });

  it('hls.js gets explicit load policies (bounded retries) and buffer lengths', async () => {
    const { hls } = run('https://media.test/live.m3u8');
    await world.advance(0);
    expect(hls.configs[0]).to.include(HLS_BUFFER);
    expect(hls.configs[0]!.manifestLoadPolicy).to.equal(HLS_LOAD_POLICIES.manifestLoadPolicy);
    expect(hls.configs[0]!.playlistLoadPolicy).to.equal(HLS_LOAD_POLICIES.playlistLoadPolicy);
    expect(hls.configs[0]!.fragLoadPolicy).to.equal(HLS_LOAD_POLICIES.fragLoadPolicy);
  });

  it('a master playlist that never answers our first read: hls.js loads it after the deadline', async () => {
    world.server.on('GET', 'https://media.test/hung.m3u8', HANG);
    const { hls } = run('https://media.test/hung.m3u8', false);
    await world.advance(HLS_LOAD_POLICIES.manifestLoadPolicy.default.maxLoadTimeMs - 1);
    expect(hls.log).not.to.include('new');
    await world.advance(1);
    await flush();
    expect(hls.log).to.include('loadSource https://media.test/hung.m3u8');
  });

  it('"reconnecting" shows only while actually stalled', async () => {
    const { video, states } = run('https://media.test/live.m3u8');
    await world.advance(0);
    video.dispatchEvent(new Event('waiting'));
    await world.advance(STALL_MS - 100);
    video.dispatchEvent(new Event('playing'));
    await world.advance(STALL_MS * 2);
    expect(states).to.not.include('reconnecting');
    video.dispatchEvent(new Event('waiting'));
    await world.advance(STALL_MS + 10);
    expect(states).to.include('reconnecting');
  });

  describe('a stream refused (401/403) while playing: signed URLs are bound to the client address and expire after 2 h', () => {
    it('a refused segment after the first frame asks the owner once for a fresh URL and stops loading; none comes: denied', async () => {
      const owner = renewingOwner();
      const { video, states, hls } = run('https://media.test/live.m3u8', false, { onRefused: owner.onRefused });
      await world.advance(0);
      video.dispatchEvent(new Event('loadeddata'));
      video.currentTime = 42;
      // hls.js reports a 4xx segment non-fatal while it tries other renditions: the first report is enough.
      hls.instances[0]!.fire('hlsError', refusal403('fragLoadError', false));
      expect(owner.refusals).to.deep.equal([{ status: 403, played: true, at: 42 }]);
      expect(states).to.deep.equal(['loading', 'reconnecting']);
      expect(hls.log).to.include('stopLoad');
      // More refusals of the same grant while the fresh URL is fetched ask nothing more and load nothing.
      hls.instances[0]!.fire('hlsError', refusal403('levelLoadError'));
      hls.instances[0]!.fire('hlsError', refusal403('fragLoadError'));
      video.dispatchEvent(new Event('waiting'));
      await world.advance(GIVE_UP_MS * 2);
      expect(owner.refusals).to.have.length(1);
      expect(loads(hls.log)).to.equal(0);
      expect(states).to.deep.equal(['loading', 'reconnecting']);
      owner.settle(false);
      await flush();
      expect(states).to.deep.equal(['loading', 'reconnecting', 'denied']);
    });

    it('a refused live playlist (levelLoadError 403) with a fresh URL coming stays "reconnecting" until replaced', async () => {
      const owner = renewingOwner();
      const { video, states, hls, playback } = run('https://media.test/live.m3u8', true, {
        onRefused: owner.onRefused,
      });
      await world.advance(0);
      video.dispatchEvent(new Event('loadeddata'));
      hls.instances[0]!.fire('hlsError', refusal403('levelLoadError'));
      // Live restarts at the live edge: no position.
      expect(owner.refusals).to.deep.equal([{ status: 403, played: true, at: undefined }]);
      owner.settle(true);
      await world.advance(GIVE_UP_MS * 2);
      expect(states).to.deep.equal(['loading', 'reconnecting']);
      expect(loads(hls.log)).to.equal(0);
      playback.destroy();
      expect(world.clock.countTimers()).to.equal(0);
    });

    it('a manifest refused with 401 before the first frame is offered to the owner; refused there, it is denied at once', async () => {
      const refusals: Refusal[] = [];
      const { states, hls } = run('https://media.test/live.m3u8', true, {
        onRefused: (r) => (refusals.push(r), false),
      });
      await world.advance(0);
      hls.instances[0]!.fire('hlsError', {
        fatal: true,
        type: 'networkError',
        details: 'manifestLoadError',
        response: { code: 401 },
      });
      expect(refusals).to.deep.equal([{ status: 401, played: false, at: undefined }]);
      expect(states).to.deep.equal(['loading', 'denied']);
    });

    it('a refusal the owner does not renew: a non-fatal one is left to hls.js, a fatal one is denied without reconnecting', async () => {
      const { states, hls } = run('https://media.test/live.m3u8', true, { onRefused: () => false });
      await world.advance(0);
      hls.instances[0]!.fire('hlsError', refusal403('fragLoadError', false));
      expect(states).to.deep.equal(['loading']);
      expect(hls.log).not.to.include('stopLoad');
      hls.instances[0]!.fire('hlsError', refusal403('levelLoadError'));
      await world.advance(GIVE_UP_MS * 2);
      expect(states).to.deep.equal(['loading', 'denied']);
      expect(loads(hls.log)).to.equal(0);
    });

    it('a refused master playlist with a fresh URL coming does not load hls.js', async () => {
      const owner = renewingOwner();
      const { states, hls } = run('https://media.test/denied.m3u8', true, { onRefused: owner.onRefused });
      await world.advance(0);
      expect(owner.refusals).to.deep.equal([{ status: 403, played: false, at: undefined }]);
      expect(states).to.deep.equal(['loading', 'reconnecting']);
      expect(hls.log).to.deep.equal([]);
    });

    it('a renewed non-live stream starts at the position it stopped (hls.js startPosition); live at the edge', async () => {
      const vod = run('https://media.test/live.m3u8', false, { startAt: 42 });
      const edge = run('https://media.test/live.m3u8', true, { startAt: 42 });
      await world.advance(0);
      expect(vod.hls.configs[0]).to.include({ startPosition: 42 });
      expect(edge.hls.configs[0]).not.to.have.property('startPosition');
    });

    it('native HLS: a 403 found after the first frame asks for a fresh URL once; a renewed VOD seeks to startAt', async function () {
      if (!hasNativeHls(document.createElement('video'))) this.skip();
      world.server.on('GET', 'https://media.test/vod.m3u8', {
        status: 403,
        raw: '{"message":"The playback URL has expired."}',
      });
      const owner = renewingOwner();
      const video = document.createElement('video');
      video.preload = 'none';
      const states: PlaybackState['kind'][] = [];
      startPlayback({
        video,
        url: 'https://media.test/vod.m3u8',
        live: false,
        onState: (s) => states.push(s.kind),
        onRefused: owner.onRefused,
      });
      video.dispatchEvent(new Event('loadeddata'));
      video.dispatchEvent(new Event('error'));
      video.dispatchEvent(new Event('error'));
      await world.advance(0);
      expect(owner.refusals).to.have.length(1);
      expect(owner.refusals[0]).to.include({ status: 403, played: true });
      expect(states).to.deep.equal(['loading', 'reconnecting']);
      expect(world.server.to('GET', 'https://media.test/vod.m3u8')).to.have.length(2);

      const renewed = document.createElement('video');
      renewed.preload = 'none';
      startPlayback({
        video: renewed,
        url: 'https://media.test/live.m3u8',
        live: false,
        startAt: 42,
        onState: () => undefined,
      });
      expect(renewed.currentTime).to.equal(0);
      renewed.dispatchEvent(new Event('loadedmetadata'));
      expect(renewed.currentTime).to.equal(42);
    });
  });

  it('destroy removes hls.js, clears timers and sends nothing more', async () => {
    const { hls, playback, video } = run('https://media.test/live.m3u8');
    await world.advance(0);
    hls.instances[0]!.fire('hlsError', { fatal: true, type: 'networkError', details: 'levelLoadError' });
    playback.destroy();
    expect(hls.log.at(-1)).to.equal('destroy');
    const before = hls.log.length;
    const requests = world.server.requests.length;
    await world.advance(GIVE_UP_MS * 2);
    video.dispatchEvent(new Event('waiting'));
    await world.advance(STALL_MS * 2);
    expect(hls.log).to.have.length(before);
    expect(world.server.requests).to.have.length(requests);
    expect(world.clock.countTimers()).to.equal(0);
  });

  it('destroy before hls.js arrives never creates it', async () => {
    const { hls, playback } = run('https://media.test/live.m3u8');
    playback.destroy();
    await world.advance(1000);
    expect(hls.log).to.deep.equal([]);
  });
});

describe('stream URL renewal policy (fake clock)', () => {
  let world: World;
  beforeEach(() => (world = installWorld()));
  afterEach(teardown);

  it(`a URL refused before its first frame is taken at its word until it is ${URL_FRESH_MS / 1000} s old`, async () => {
    const policy = renewalPolicy();
    policy.issued();
    expect(policy.take({ status: 403, played: false }), 'a fresh URL: the viewer has no access').to.equal(false);
    await world.advance(URL_FRESH_MS - 1);
    expect(policy.take({ status: 403, played: false })).to.equal(false);
    await world.advance(1);
    expect(policy.take({ status: 403, played: false }), 'the page waited: the grant may be stale').to.equal(true);
    expect(policy.take({ status: 403, played: false }), 'spent').to.equal(false);
  });

  it(`a refusal after the first frame renews once; the renewed URL renews again only ${RENEW_AGAIN_MS / 1000} s later`, async () => {
    const policy = renewalPolicy();
    policy.issued();
    await world.advance(1_000);
    expect(policy.take({ status: 403, played: true })).to.equal(true);
    policy.issued(); // the freshly signed URL
    expect(policy.take({ status: 403, played: false }), 'refused before a frame').to.equal(false);
    expect(policy.take({ status: 401, played: true }), 'refused after a frame, same episode').to.equal(false);
    await world.advance(RENEW_AGAIN_MS - 1);
    expect(policy.take({ status: 403, played: true })).to.equal(false);
    await world.advance(1);
    expect(policy.take({ status: 403, played: true }), 'a new episode (2 h later, another network)').to.equal(true);
    expect(policy.take({ status: 403, played: true })).to.equal(false);
  });

  it('each policy counts on its own (one per target)', async () => {
    const first = renewalPolicy();
    const second = renewalPolicy();
    first.issued();
    second.issued();
    expect(first.take({ status: 403, played: true })).to.equal(true);
    expect(second.take({ status: 403, played: true })).to.equal(true);
  });
});

describe('video analytics', () => {
  let world: World;
  beforeEach(() => {
    world = installWorld();
    world.server.on('GET', 'https://stats.test/datalake/hash/', { status: 200, body: { data: { hash: 'h-1' } } });
    world.server.on('POST', 'https://stats.test/datalake/session/', { status: 200, body: { data: { id: 1 } } });
    world.server.on('POST', 'https://stats.test/datalake/video/event/', { status: 200, body: { data: {} } });
    world.server.on('POST', 'https://stats.test/datalake/video/viewing/', { status: 200, body: { data: {} } });
  });
  afterEach(teardown);

  const config = (explicit: boolean) => ({
    channelKey: 'demo',
    apiUrl: 'https://api.test/api',
    keysUrl: 'https://api.test/keys',
    analyticsUrl: 'https://stats.test',
    analyticsExplicit: explicit,
    consentRequired: false,
  });
  const settings = { language: 'en', currency: 'USD', auth: { remote_auth: false }, 'yare-analytics': 'profile-1' };

  it('sends first_frame and viewing time to the datalake, with no token, and stops with the player', async () => {
    const video = document.createElement('video');
    const monitor = monitorVideo(
      video,
      { streamId: '7', streamType: 'live', title: 'Final' },
      { ...videoReporting({ config: config(true), settings, user: user() }), startedAt: world.clock.now - 420 },
    );
    // Analytics wait for the browser's idle time (real time, not the fake clock).
    await waitUntil(
      () => world.server.to('POST', 'https://stats.test/datalake/video/event/').length === 1,
      'first_frame',
      {
        timeout: 4000,
      },
    );
    const [session] = world.server.to('POST', 'https://stats.test/datalake/session/');
    expect(session!.body).to.include({ profile: 'profile-1', platform: 'web' });
    const [first] = world.server.to('POST', 'https://stats.test/datalake/video/event/');
    expect(first!.body).to.include({
      event: 'first_frame',
      stream_id: '7',
      stream_type: 'live',
      first_frame_ms: 420,
      user_id: 3,
    });
    video.dispatchEvent(new Event('playing'));
    await world.advance(VIEWING_EVERY_MS);
    await waitUntil(() => world.server.to('POST', 'https://stats.test/datalake/video/viewing/').length > 0, 'viewing', {
      timeout: 4000,
    });
    const viewing = world.server.to('POST', 'https://stats.test/datalake/video/viewing/');
    expect(viewing).to.have.length(1);
    expect(viewing[0]!.body).to.include({ viewing_time: VIEWING_EVERY_MS / 1000 });
    for (const r of world.server.requests) {
      expect(r.headers).to.not.have.property('authorization');
      expect(JSON.stringify(r.body ?? '')).to.not.match(/token/i);
    }
    monitor.destroy();
    // The last viewing time goes out once (the player stopped), then nothing more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = world.server.requests.length;
    await world.advance(VIEWING_EVERY_MS * 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(world.server.requests).to.have.length(sent);
  });

  it('mux-embed beacons carry the stream URL without its signed path segment, query secrets or signed poster query', async () => {
    // A signed URL as the reference server makes it ({expiry}.{viewer}.{hmac} as one segment), plus query
    // signatures as other channel APIs send them.
    const SEGMENT = '1735689600.v42.Zk3xQ9mB2pL7vR4tY8wN1cH6sD0aF5gJ3kE9uI2oPq';
    const signed = `http://media.test/media/s/${SEGMENT}/7/master.m3u8?token=qtok-11&Signature=qsig-22&Key-Pair-Id=KPID33&exp=1735689600`;
    const BEACONS = 'http://localhost:9';
    const beacons: string[] = [];
    const realFetch = window.fetch;
    // mux-embed posts its beacons with the page's own fetch (not the injected one), to `http://{beacon domain}`.
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).startsWith(BEACONS)) return realFetch(input, init);
      beacons.push(String(init?.body));
      return Promise.resolve(new Response('{}', { status: 200 }));
    }) as typeof fetch;
    try {
      const video = document.createElement('video');
      // What mux-embed reads: a natively played HLS source (Safari) is the signed URL itself.
      Object.defineProperty(video, 'currentSrc', { configurable: true, get: () => signed });
      Object.defineProperty(video, 'poster', {
        configurable: true,
        get: () => 'http://media.test/poster/7.jpg?Policy=qpol-44',
      });
      const monitor = monitorVideo(
        video,
        { streamId: '7', streamType: 'live', title: 'Final' },
        {
          ...videoReporting({
            config: config(true),
            settings: {
              language: 'en',
              currency: 'USD',
              auth: { remote_auth: false },
              mux: { env_key: 'envkey1', beacon_domain: 'localhost:9' },
            },
            user: user(),
          }),
          startedAt: world.clock.now,
        },
      );
      const muxed = () =>
        (video as unknown as { mux?: { emit(event: string, data: Record<string, unknown>): void } }).mux;
      await waitUntil(() => muxed(), 'mux-embed monitors the video', { timeout: 4000 });
      // A view starts (its beacon is sent at once), and a request event as mux-embed's hls.js monitor sends them.
      video.dispatchEvent(new Event('play'));
      muxed()!.emit('requestcompleted', {
        request_type: 'manifest',
        request_url: signed,
        request_hostname: 'media.test',
      });
      await waitUntil(() => beacons.length > 0, 'the viewstart beacon', { timeout: 4000 });
      // Destroying the monitor sends viewend and flushes the queue.
      const before = beacons.length;
      monitor.destroy();
      await waitUntil(() => beacons.length > before, 'the flushed queue', { timeout: 4000 });
      const sent = beacons.join('\n');
      const events = beacons.flatMap((b) => (JSON.parse(b) as { events: { e: string }[] }).events.map((e) => e.e));
      expect(events).to.include.members(['viewstart', 'requestcompleted', 'viewend']);
      // The stream is still reported (host and path), without the secrets.
      expect(sent).to.contain('http://media.test/media/s/-/7/master.m3u8');
      expect(sent).to.contain('http://media.test/poster/7.jpg');
      for (const secret of [
        SEGMENT,
        'Zk3xQ9mB2pL7vR4tY8wN1cH6sD0aF5gJ3kE9uI2oPq',
        'qtok-11',
        'qsig-22',
        'KPID33',
        'qpol-44',
        '?token',
        'Signature=',
      ]) {
        expect(sent, secret).not.to.contain(secret);
      }
    } finally {
      window.fetch = realFetch;
    }
  });

  it('sends nothing from a localhost page unless the analytics URL was given', async () => {
    expect(analyticsAllowed(config(false))).to.equal(
      location.hostname !== 'localhost' && location.hostname !== '127.0.0.1',
    );
    expect(analyticsAllowed(config(true))).to.equal(true);
  });
});

describe('one player with sound', () => {
  it('a video that starts playing with sound mutes the others, which keep playing', () => {
    const [a, b, c] = [0, 1, 2].map(() => document.createElement('video')) as [
      HTMLVideoElement,
      HTMLVideoElement,
      HTMLVideoElement,
    ];
    const offs = [a, b, c].map((v) => exclusiveSound(v));
    for (const v of [a, b, c]) Object.defineProperty(v, 'paused', { configurable: true, get: () => false });
    a.muted = false;
    b.muted = false;
    c.muted = true;
    b.dispatchEvent(new Event('playing'));
    expect([a.muted, b.muted, c.muted]).to.deep.equal([true, false, true]);
    // Unmuting another one while it plays takes the sound over.
    c.muted = false;
    c.dispatchEvent(new Event('volumechange'));
    expect([a.muted, b.muted, c.muted]).to.deep.equal([true, true, false]);
    // A removed player no longer takes part.
    offs[0]!();
    a.muted = false;
    a.dispatchEvent(new Event('playing'));
    expect(c.muted).to.equal(false);
    offs.slice(1).forEach((off) => off());
  });
});
