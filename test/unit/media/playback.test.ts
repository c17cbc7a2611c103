/**
 * The playback lifecycle (src/media/playback.ts) with a fake hls.js, the renewal of refused stream URLs, and the
 * renewal policy on a fake clock.
 */
import { expect } from '@open-wc/testing';
import {
  HLS_BUFFER,
  HLS_LOAD_POLICIES,
  hasNativeHls,
  needsFullHls,
  playsNatively,
  type HlsClass,
  type HlsErrorData,
  type Quality,
} from '../../../src/media/engine.js';
import {
  FIRST_FRAME_MS,
  GIVE_UP_MS,
  RELOAD_EVERY_MS,
  STALL_MS,
  startPlayback,
  type PlaybackOptions,
  type PlaybackState,
} from '../../../src/media/playback.js';
import { RENEW_AGAIN_MS, URL_FRESH_MS, renewalPolicy, type Refusal } from '../../../src/media/renewal.js';
import { flush, HANG, installWorld, teardown, type World } from '../helpers.js';

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
