/**
 * The media session (src/media/session.ts) without React: preroll then main stream, analytics from the first
 * frame, a renewed URL restarting in place, and a teardown that leaves no listener, timer or playback behind.
 * hls.js and the analytics monitor are fakes; the clock is the fake world's.
 */
import { expect } from '@open-wc/testing';
import { Preroll } from '../../../src/api/preroll-schemas.js';
import type { HlsClass } from '../../../src/media/engine.js';
import { PREROLL_TIMEOUT_MS, initialize, type SessionOptions, type SessionState } from '../../../src/media/session.js';
import { flush, installWorld, teardown, type World } from '../helpers.js';

const MAIN = 'https://media.test/main.m3u8';
const FRESH = 'https://media.test/fresh.m3u8';
const AD = Preroll.parse({ id: 1, url: 'https://media.test/ad.m3u8', weight: 1, for_live: true, for_vod: true });

/** A fake hls.js that records the sources it is given. */
function fakeHls(sources: string[]): () => Promise<HlsClass> {
  const Hls = class {
    static isSupported = () => true;
    static Events = { ERROR: 'hlsError', MANIFEST_PARSED: 'hlsManifestParsed', FRAG_LOADED: 'hlsFragLoaded' };
    loadSource(url: string) {
      sources.push(url);
    }
    attachMedia() {}
    startLoad() {}
    stopLoad() {}
    recoverMediaError() {}
    destroy() {}
    on() {}
  } as unknown as HlsClass;
  return async () => Hls;
}

/** Counts the video's listeners as they are added and removed. */
function countListeners(video: HTMLVideoElement): () => number {
  let count = 0;
  const add = video.addEventListener.bind(video);
  const remove = video.removeEventListener.bind(video);
  video.addEventListener = ((...args: Parameters<typeof add>) => (count++, add(...args))) as typeof add;
  video.removeEventListener = ((...args: Parameters<typeof remove>) => (count--, remove(...args))) as typeof remove;
  return () => count;
}

describe('media session', () => {
  let world: World;
  beforeEach(() => {
    world = installWorld();
    for (const url of [MAIN, FRESH, AD.url]) world.server.on('GET', url, { raw: '#EXTM3U\n' });
  });
  afterEach(teardown);

  function run(more: Partial<SessionOptions> = {}, prepare?: (video: HTMLVideoElement) => void) {
    const video = document.createElement('video');
    prepare?.(video);
    // The native engine really fetches the preroll's URL, and how soon that fails depends on the machine: hold its
    // error back, so that only the session's own timeout decides when a preroll that shows no frame is skipped.
    video.addEventListener('error', (e) => e.stopImmediatePropagation(), true);
    const listeners = countListeners(video);
    const sources: string[] = [];
    const states: SessionState[] = [];
    const monitors: string[] = [];
    const session = initialize(video, {
      url: MAIN,
      live: true,
      prefer: 'mse',
      muted: true,
      info: { streamId: '7', streamType: 'live', title: 'Final' },
      takePreroll: async () => undefined,
      renewStream: () => false,
      reloadStream: async () => MAIN,
      // The monitor below stands in for the one that would report here.
      analytics: () => ({ partner: () => undefined, whenMay: () => undefined, onConsent: () => () => undefined }),
      monitor: () => {
        monitors.push('start');
        return { destroy: () => monitors.push('stop') };
      },
      onState: (s) => states.push(s),
      loadHls: fakeHls(sources),
      ...more,
    });
    const phase = () => states.at(-1)?.phase ?? 'idle';
    // Where the video's media came from: hls.js (main, mse) or the native engine (the preroll, where it has one).
    const loaded = () => [...sources, ...(video.getAttribute('src') ? [video.getAttribute('src')!] : [])];
    return { video, listeners, sources, states, monitors, session, phase, loaded };
  }

  it('plays nothing before start; then the preroll, skipped when it shows no frame in time, then the main stream', async () => {
    const s = run({ takePreroll: async () => AD });
    await world.advance(0);
    expect(s.phase()).to.equal('idle');
    expect(s.loaded()).to.deep.equal([]);
    s.session.start();
    await world.advance(0);
    expect(s.phase()).to.equal('preroll');
    expect(s.loaded()).to.deep.equal([AD.url]);
    await world.advance(PREROLL_TIMEOUT_MS);
    expect(s.phase()).to.equal('main');
    expect(s.sources.at(-1)).to.equal(MAIN);
    s.session.teardown();
  });

  it('starts analytics at the first frame; a renewed URL restarts the stream and its monitor in place', async () => {
    const s = run();
    s.session.start();
    await world.advance(0);
    expect(s.sources).to.deep.equal([MAIN]);
    s.video.dispatchEvent(new Event('loadeddata'));
    expect(s.states.at(-1)?.framed).to.equal(true);
    expect(s.monitors).to.deep.equal(['start']);
    s.session.update({ url: FRESH, live: true, prefer: 'mse', muted: true });
    await world.advance(0);
    expect(s.sources).to.deep.equal([MAIN, FRESH]);
    expect(s.monitors).to.deep.equal(['start', 'stop']);
    // Muting alone does not restart the stream.
    s.session.update({ url: FRESH, live: true, prefer: 'mse', muted: false });
    await world.advance(0);
    expect(s.sources).to.deep.equal([MAIN, FRESH]);
    expect(s.video.muted).to.equal(false);
    s.session.teardown();
  });

  it('adopts the loader’s early video playing its stream: no new source, framed at once, analytics from its start', async () => {
    const sets: string[] = [];
    const contexts: { startedAt: number; firstFrameAt?: number | undefined }[] = [];
    const s = run(
      {
        live: false,
        prefer: undefined,
        monitor: (_video, _info, context) => {
          contexts.push(context);
          return { destroy: () => undefined };
        },
        // What the loader handed over: when its video was set and when its first frame showed.
        early: { startedAt: 1000, framedAt: 1180 },
      },
      (video) => {
        // What the loader left: its source; playing.
        video.setAttribute('src', MAIN);
        Object.defineProperty(video, 'readyState', { get: () => 4 });
        Object.defineProperty(video, 'paused', { get: () => false });
        Object.defineProperty(video, 'error', { get: () => null });
        Object.defineProperty(video, 'src', { get: () => MAIN, set: (url: string) => sets.push(url) });
      },
    );
    s.session.start();
    await world.advance(0);
    expect(s.phase()).to.equal('main');
    expect(sets, 'the source is not set again').to.deep.equal([]);
    expect(s.sources, 'nor handed to hls.js').to.deep.equal([]);
    expect(s.states.at(-1)?.framed).to.equal(true);
    expect(s.states.at(-1)?.playback.kind).to.equal('playing');
    expect(contexts.map((c) => [c.startedAt, c.firstFrameAt])).to.deep.equal([[1000, 1180]]);
    s.session.teardown();
  });

  it('teardown removes every listener and timer it added, mid-preroll or mid-stream, and reports nothing more', async () => {
    for (const preroll of [AD, undefined]) {
      const s = run({ takePreroll: async () => preroll });
      s.session.start();
      await world.advance(0);
      expect(s.listeners()).to.be.greaterThan(0);
      s.session.teardown();
      expect(s.listeners(), preroll ? 'mid-preroll' : 'mid-stream').to.equal(0);
      expect(world.clock.countTimers()).to.equal(0);
      const reported = s.states.length;
      s.video.dispatchEvent(new Event('volumechange'));
      await world.advance(PREROLL_TIMEOUT_MS * 2);
      await flush();
      expect(s.states).to.have.length(reported);
      expect(s.video.hasAttribute('src')).to.equal(false);
    }
  });

  it('teardown before the preroll choice arrives never starts a stream', async () => {
    const s = run({ takePreroll: async () => AD });
    s.session.start();
    s.session.teardown();
    await world.advance(PREROLL_TIMEOUT_MS);
    expect(s.loaded()).to.deep.equal([]);
    expect(s.listeners()).to.equal(0);
  });
});
