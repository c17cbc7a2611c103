// Element tests of <channel-player> as a media element: every member of its media API and the media events it
// dispatches again from the element, prerolls from the settings, and the bar under the video (Go to live in the DVR
// window, resume and Start over, the speed menu, picture-in-picture). The element runs against the unit tests'
// fake world (test/unit/helpers.ts), with prefer-playback="native" so a stream URL only has to reach the <video>, and
// that URL never answers; what real media would fire (loadeddata, playing, timeupdate...) is dispatched on the video
// inside.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';

import { setEnv } from '../../src/lib/env.js';
import { MEDIA_EVENTS, type PlayerMediaApi } from '../../src/media/element-api.js';
import { resetSession } from '../../src/stores/session.js';
import { start } from '../../elements/channel-player.js';
import { installWorld, ok, T0, teardown, type World } from '../unit/helpers.js';
import { wireEvent, wirePreroll } from '../fixtures/contract.js';

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
// Stream URLs whose media never arrives (web-test-runner.config.mjs), so no real load fails while a test plays.
const MEDIA = `${location.origin}/__pending`;
const LIVE_URL = `${MEDIA}/live/601/master.m3u8?sig=live`;
const VOD_URL = `${MEDIA}/vod/601/master.m3u8?sig=vod`;
const AD_URL = `${MEDIA}/ads/7/master.m3u8`;

type Player = HTMLElement & PlayerMediaApi;

/** Event 601 as the channel sends it: free, live by default. */
const event = (fields: Record<string, unknown> = {}) =>
  wireEvent({
    id: 601,
    name: 'Spring Final',
    type: 'free',
    event_utc_ts: T0 / 1000 - 600,
    time_zone: 'EST',
    stream_status: 'live',
    media: [{ type: 'live', url: LIVE_URL }],
    ...fields,
  });
const ON_DEMAND = { stream_status: 'finished', media: [{ type: 'vod', url: VOD_URL }] };
const PAID = { type: 'paid', has_access: false, price: 5, media: [] };

let world: World;

function useFakePlatform(prerolls: unknown[] = []): void {
  resetSession();
  world = installWorld();
  setEnv({ eventTarget: window });
  world.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo', name: 'Demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }))
    .on(
      'GET',
      `${API}/settings`,
      ok({ name: 'Demo', language: 'en', currency: 'EUR', auth: { remote_auth: 0 }, prerolls }),
    )
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country: 'Canada', country_code: 'CA', is_geo_blocked: false }))
    .on('GET', `${API}/packages`, ok([]))
    .on('GET', `${API}/subscriptions`, ok([]))
    .on('GET', LIVE_URL.split('?')[0]!, { raw: '#EXTM3U' })
    .on('GET', VOD_URL.split('?')[0]!, { raw: '#EXTM3U' })
    .on('GET', AD_URL, { raw: '#EXTM3U' });
}

const serve = (fields: Record<string, unknown> = {}) => world.server.on('GET', `${API}/events/601`, ok(event(fields)));

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const video = (el: Element) => $<HTMLVideoElement>(el, 'video[part~="video"]');
const part = (el: Element, name: string) => $(el, `[part~="${name}"]`);

/** A player of event 601 with these attributes (`name` or `name=value`, space-separated). */
async function mount(attributes = ''): Promise<Player> {
  const el = document.createElement('channel-player') as Player;
  el.setAttribute('event-id', '601');
  el.setAttribute('prefer-playback', 'native');
  for (const attribute of attributes.split(' ').filter(Boolean)) {
    const [name, value = ''] = attribute.split('=');
    el.setAttribute(name!, value);
  }
  await fixture(html`<div></div>`).then((div) => div.append(el));
  return el;
}

/** Waits until the <video> was given `url`. */
async function loads(el: Element, url: string): Promise<HTMLVideoElement> {
  await waitUntil(() => video(el)?.getAttribute('src') === url, `expected the video to load ${url}`, { timeout: 4000 });
  return video(el)!;
}

/** The main stream shows its first frame (what real media would fire). */
async function framed(el: Element): Promise<HTMLVideoElement> {
  const v = video(el)!;
  v.dispatchEvent(new Event('loadeddata'));
  await waitUntil(() => part(el, 'media-bar'), 'the media bar under the video', { timeout: 4000 });
  return v;
}

/** Records what the element fires. */
function listen(el: Element, names: readonly string[]): string[] {
  const heard: string[] = [];
  for (const name of names) el.addEventListener(name, () => heard.push(name));
  return heard;
}

/** TimeRanges with one range, for a video that has no real media. */
const ranges = (start: number, end: number): TimeRanges => ({
  length: 1,
  start: () => start,
  end: () => end,
});

describe('<channel-player> media API', () => {
  before(() => {
    teardown();
    start({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
  });
  beforeEach(() => useFakePlatform());
  afterEach(() => teardown());

  it('before anything plays: a paused element with nothing loaded, and the values the page set kept for later', async () => {
    serve(ON_DEMAND);
    const el = await mount('muted');
    expect({
      paused: el.paused,
      ended: el.ended,
      currentTime: el.currentTime,
      duration: el.duration,
      readyState: el.readyState,
      seekable: el.seekable.length,
      buffered: el.buffered.length,
      textTracks: el.textTracks.length,
      videoWidth: el.videoWidth,
      videoHeight: el.videoHeight,
      adPlaying: el.adPlaying,
      streamType: el.streamType,
      muted: el.muted,
      volume: el.volume,
      playbackRate: el.playbackRate,
    }).to.deep.equal({
      paused: true,
      ended: false,
      currentTime: 0,
      duration: NaN,
      readyState: 0,
      seekable: 0,
      buffered: 0,
      textTracks: 0,
      videoWidth: 0,
      videoHeight: 0,
      adPlaying: false,
      streamType: undefined,
      muted: true,
      volume: 1,
      playbackRate: 1,
    });
    expect(() => (el.volume = 2)).to.throw(DOMException);
    el.volume = 0.3;
    el.playbackRate = 1.25;
    el.muted = false;
    await waitUntil(() => part(el, 'play'), 'the Play button');
    // The stage takes what the page set.
    const v = video(el)!;
    expect({ volume: v.volume, rate: v.playbackRate, muted: v.muted }).to.deep.equal({
      volume: 0.3,
      rate: 1.25,
      muted: false,
    });
    expect(el.streamType).to.equal('on-demand');
    expect(Number.isNaN(el.targetLiveWindow)).to.equal(true);
    expect(el.textTracks).to.equal(v.textTracks);
  });

  it('play() starts the stream and resolves when it plays; pause(); members read and write the video inside', async () => {
    serve(ON_DEMAND);
    const el = await mount();
    let resolved = false;
    const playing = el.play().then(() => (resolved = true));
    const v = await loads(el, VOD_URL);
    expect(resolved, 'not before the video plays').to.equal(false);
    v.dispatchEvent(new Event('playing'));
    await playing;
    await framed(el);

    el.currentTime = 42;
    expect(v.currentTime).to.equal(42);
    expect(el.currentTime).to.equal(42);
    el.muted = true;
    el.volume = 0.5;
    el.playbackRate = 1.5;
    expect({ muted: v.muted, volume: v.volume, rate: v.playbackRate }).to.deep.equal({
      muted: true,
      volume: 0.5,
      rate: 1.5,
    });
    expect(el.muted && el.volume === 0.5 && el.playbackRate === 1.5).to.equal(true);
    Object.defineProperty(v, 'seekable', { value: ranges(0, 90), configurable: true });
    Object.defineProperty(v, 'buffered', { value: ranges(40, 52), configurable: true });
    expect([el.seekable.length, el.seekable.end(0)]).to.deep.equal([1, 90]);
    expect([el.buffered.start(0), el.buffered.end(0)]).to.deep.equal([40, 52]);
    expect(el.readyState).to.equal(v.readyState);
    expect(Number.isNaN(el.duration)).to.equal(true);

    // A play() pending when pause() comes is told so, as a video tells it.
    const again = el.play();
    el.pause();
    expect(v.paused).to.equal(true);
    expect(el.paused).to.equal(true);
    const outcome = await again.then(
      () => 'resolved',
      (error: DOMException) => error.name,
    );
    expect(['resolved', 'AbortError', 'NotSupportedError']).to.include(outcome);
  });

  it('every media event of the video is dispatched again from the element', async () => {
    serve(ON_DEMAND);
    const el = await mount('autoplay muted');
    const v = await loads(el, VOD_URL);
    const heard = listen(el, MEDIA_EVENTS);
    for (const name of MEDIA_EVENTS) v.dispatchEvent(new Event(name));
    for (const name of MEDIA_EVENTS) expect(heard, name).to.include(name);
    // The list, by name.
    for (const name of [
      'play',
      'pause',
      'playing',
      'waiting',
      'timeupdate',
      'durationchange',
      'volumechange',
      'ratechange',
      'seeking',
      'seeked',
      'ended',
      'error',
      'loadedmetadata',
      'progress',
    ])
      expect(heard, name).to.include(name);
  });

  it('a play() that cannot happen (a paywall) is refused with NotAllowedError', async () => {
    serve(PAID);
    const el = await mount();
    const error = await el.play().then(
      () => undefined,
      (e: DOMException) => e,
    );
    expect(error?.name).to.equal('NotAllowedError');
    await waitUntil(() => part(el, 'paywall'), 'the paywall');
    expect(await el.play().catch((e: DOMException) => e.name)).to.equal('NotAllowedError');
  });

  it('Picture-in-Picture and fullscreen go to the video and the stage; refused before anything plays', async () => {
    serve(ON_DEMAND);
    const el = await mount();
    expect(await el.requestPictureInPicture().catch((e: DOMException) => e.name)).to.equal('InvalidStateError');
    void el.play().catch(() => undefined);
    const v = await loads(el, VOD_URL);
    const calls: string[] = [];
    const fakeWindow = {} as PictureInPictureWindow;
    v.requestPictureInPicture = () => {
      calls.push('pip');
      return Promise.resolve(fakeWindow);
    };
    const stage = part(el, 'stage')!;
    stage.requestFullscreen = () => {
      calls.push('fullscreen');
      return Promise.resolve();
    };
    expect(await el.requestPictureInPicture()).to.equal(fakeWindow);
    await el.requestFullscreen();
    expect(calls).to.deep.equal(['pip', 'fullscreen']);
  });

  describe('a preroll', () => {
    beforeEach(() => {
      useFakePlatform([wirePreroll({ id: 7, url: AD_URL })]);
    });

    it('is unskippable through the API: adPlaying, the ad events, and seeking and speed refused until it ends', async () => {
      serve(ON_DEMAND);
      const el = await mount('muted');
      const heard = listen(el, ['channel-ad-start', 'channel-ad-end']);
      void el.play().catch(() => undefined);
      const ad = await loads(el, AD_URL);
      await waitUntil(() => el.adPlaying, 'adPlaying');
      expect(heard).to.deep.equal(['channel-ad-start']);
      el.currentTime = 500;
      el.playbackRate = 2;
      expect(ad.currentTime).to.equal(0);
      expect(ad.playbackRate).to.equal(1);
      ad.dispatchEvent(new Event('ended'));
      await loads(el, VOD_URL);
      await waitUntil(() => !el.adPlaying, 'the ad over');
      expect(heard).to.deep.equal(['channel-ad-start', 'channel-ad-end']);
      el.playbackRate = 2;
      expect(video(el)!.playbackRate).to.equal(2);
    });
  });

  describe('the bar under the video', () => {
    it('live: Live at the edge; behind it (the DVR window), Go to live with the delay, which jumps back', async () => {
      serve();
      const el = await mount('autoplay muted');
      const v = await loads(el, LIVE_URL);
      await framed(el);
      Object.defineProperty(v, 'seekable', { value: ranges(0, 600), configurable: true });
      expect(el.streamType).to.equal('live');
      expect(el.targetLiveWindow).to.equal(Infinity);
      v.currentTime = 596;
      v.dispatchEvent(new Event('timeupdate'));
      const live = () => part(el, 'live')!;
      await waitUntil(() => live().dataset.state === 'edge', 'at the live edge');
      expect(live().textContent).to.equal('Live');
      // 100 s back: behind the edge.
      v.currentTime = 500;
      v.dispatchEvent(new Event('timeupdate'));
      await waitUntil(() => live().dataset.state === 'behind', 'behind the live edge');
      expect(live().textContent).to.equal('Go to live−1:40');
      // The arrow keys seek in the window too.
      part(el, 'stage')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
      expect(v.currentTime).to.equal(490);
      live().click();
      expect(v.currentTime).to.equal(594);
      v.dispatchEvent(new Event('timeupdate'));
      await waitUntil(() => live().dataset.state === 'edge', 'back at the edge');
      // No speed menu for a live stream.
      expect(part(el, 'speed')).to.equal(null);
    });

    it('on demand: the speed menu sets the speed; no Go to live', async () => {
      serve(ON_DEMAND);
      const el = await mount('autoplay muted');
      await loads(el, VOD_URL);
      const v = await framed(el);
      expect(part(el, 'live')).to.equal(null);
      const select = part(el, 'speed')!.querySelector('select')!;
      expect([...select.options].map((o) => o.textContent)).to.deep.equal([
        '0.5×',
        '0.75×',
        'Normal',
        '1.25×',
        '1.5×',
        '2×',
      ]);
      expect(select.value).to.equal('1');
      select.value = '1.5';
      select.dispatchEvent(new Event('change', { bubbles: true }));
      expect(v.playbackRate).to.equal(1.5);
      await waitUntil(() => select.value === '1.5', 'the menu follows the video');
      // The page changes it: the menu follows.
      el.playbackRate = 0.5;
      await waitUntil(() => select.value === '0.5', 'the menu follows the page');
    });

    it("Captions is offered where the browser's own HLS leaves out the subtitles the stream has", async () => {
      world.server.on('GET', VOD_URL.split('?')[0]!, {
        raw: '#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="subs/en.m3u8"\n',
      });
      serve(ON_DEMAND);
      const el = await mount('autoplay muted');
      await loads(el, VOD_URL);
      const v = await framed(el);
      expect(v.textTracks.length, 'the engine shows no subtitles').to.equal(0);
      await waitUntil(() => part(el, 'captions'), 'the Captions button', { timeout: 4000 });
      expect(part(el, 'captions')!.textContent).to.equal('Captions');
      expect(part(el, 'captions')!.tagName).to.equal('BUTTON');
    });

    it('resume: starts where this viewer left the video, says so, and Start over goes back to 0 and forgets it', async () => {
      world.storage.set('resume.demo.guest', { '601': [125, T0] }, 86_400_000);
      serve(ON_DEMAND);
      const el = await mount('autoplay muted');
      const v = await loads(el, VOD_URL);
      v.dispatchEvent(new Event('loadedmetadata'));
      expect(v.currentTime).to.equal(125);
      await framed(el);
      expect(part(el, 'resumed')!.textContent).to.equal('Resumed at 2:05');
      (part(el, 'start-over') as HTMLButtonElement).click();
      expect(v.currentTime).to.equal(0);
      await waitUntil(() => !part(el, 'resumed'), 'the resume line gone');
      expect(world.storage.get('resume.demo.guest', (_x): _x is Record<string, unknown> => true)).to.deep.equal({});
    });

    it('resume: the position is saved on pause (a video of a minute or more) and forgotten at its end', async () => {
      serve(ON_DEMAND);
      const el = await mount('autoplay muted');
      const v = await loads(el, VOD_URL);
      await framed(el);
      Object.defineProperty(v, 'duration', { value: 600, configurable: true });
      v.currentTime = 200;
      v.dispatchEvent(new Event('pause'));
      const saved = () => world.storage.get('resume.demo.guest', (_x): _x is Record<string, [number, number]> => true);
      expect(saved()?.['601']?.[0]).to.equal(200);
      v.dispatchEvent(new Event('ended'));
      expect(saved()).to.deep.equal({});
    });

    it('picture-in-picture, where the browser has it, is a toggle button', async () => {
      serve(ON_DEMAND);
      const el = await mount('autoplay muted');
      await loads(el, VOD_URL);
      const v = await framed(el);
      const button = part(el, 'pip') as HTMLButtonElement | null;
      if (!document.pictureInPictureEnabled) {
        expect(button).to.equal(null);
        return;
      }
      let asked = 0;
      v.requestPictureInPicture = () => {
        asked++;
        return Promise.resolve({} as PictureInPictureWindow);
      };
      expect(button!.getAttribute('aria-pressed')).to.equal('false');
      expect(button!.textContent).to.equal('Picture-in-picture');
      button!.click();
      expect(asked).to.equal(1);
    });

    it('a language change keeps the video playing and the bar shown', async () => {
      serve(ON_DEMAND);
      const el = await mount('autoplay muted');
      await loads(el, VOD_URL);
      const v = await framed(el);
      el.setAttribute('lang', 'fr');
      await waitUntil(() => part(el, 'speed')?.textContent?.startsWith('Vitesse'), 'the speed menu in French');
      expect(video(el)).to.equal(v);
    });

    it('reads in French', async () => {
      serve(ON_DEMAND);
      const el = await mount('autoplay muted lang=fr');
      await loads(el, VOD_URL);
      await framed(el);
      await waitUntil(() => part(el, 'speed')!.textContent!.startsWith('Vitesse'), 'the speed menu in French');
      expect([...part(el, 'speed')!.querySelectorAll('option')].map((o) => o.textContent)).to.include('Normale');
    });
  });
});
