// Element tests of clips in <channel-player>: the clip maker (who sees it, setting the selection by buttons, keys
// and handles, the checks before anything is sent, the request, progress, the actions, failure, the panel's focus
// trap and Escape, following a clip after a reload, live clips, thumbnails) and clips played by attributes (a shared
// clip for a guest, one still being made, one gone). The element runs against the unit tests' fake world (a fake
// fetch answering contract-valid fixtures and recording every request, a fake clock). No real media plays: the
// <video>'s position, length and seekable range are set by the test.
// Players of event 501 (live in most tests) say prefer-playback="native": by default a live stream plays through
// hls.js where the browser has Media Source Extensions (for its DVR window), and the fake world has no media server
// for hls.js; what is tested here is what reaches the <video>.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { setEnv } from '../../src/lib/env.js';
import { resetSession } from '../../src/stores/session.js';
import { start } from '../../elements/channel-player.js';
import { flush, installWorld, ok, T0, teardown, until, type Recorded, type World } from '../unit/helpers.js';
import { wireEvent, wireUser, wireClip } from '../fixtures/contract.js';

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
const NOW_S = T0 / 1000;
const VOD_URL = 'https://media.test/vod/501/master.m3u8?sig=vod';
const LIVE_URL = 'https://media.test/live/501/master.m3u8?sig=live';
const THUMBS_URL = 'https://media.test/s/g/501/thumbs/index.vtt';
const CLIP_URL = 'https://media.test/s/g/clip-9/master.m3u8';
const POSTER = 'https://media.test/s/g/clip-9/poster.jpg';
const UUID = '3f2a0c4e-8b1d-4e6f-9a7b-2c5d8e1f0a3b';

/** Each page gets its own thumbnails address (the maker keeps a track it fetched for the page's life). */
let thumbsUrl = THUMBS_URL;

/** A finished event with its recording and thumbnails track (or live, with `live: true`). */
const event = (live = false) =>
  wireEvent({
    id: 501,
    name: 'Spring Final',
    type: 'free',
    event_utc_ts: NOW_S - 3600,
    stream_status: live ? 'live' : 'finished',
    has_recording: true,
    media: [
      { type: live ? 'live' : 'vod', url: live ? LIVE_URL : VOD_URL },
      { type: 'thumbnails', url: thumbsUrl },
    ],
  });

const USER = (capabilities = ['watch', 'clipping', 'download_clip']) =>
  wireUser({ id: 7, email: 'fan@example.com', first_name: 'Ann', capabilities });

/** A clip as the server answers it. */
const clip = (status: string, fields: Record<string, unknown> = {}) =>
  wireClip({
    id: 9,
    uuid: UUID,
    event_id: 501,
    name: 'Winning goal',
    start_time: 30,
    duration: 10,
    tags: ['goal'],
    status,
    event: { id: 501, name: 'Spring Final', event_utc_ts: NOW_S - 3600 },
    media:
      status === 'done'
        ? [
            { type: 'vod', url: CLIP_URL },
            { type: 'image', url: POSTER },
          ]
        : [],
    ...fields,
  });

const VTT = [
  'WEBVTT',
  '',
  '00:00.000 --> 01:00.000',
  'sprite.jpg#xywh=0,0,160,90',
  '',
  '01:00.000 --> 02:00.000',
  'sprite.jpg#xywh=160,0,160,90',
].join('\n');

/** Opens the clip maker (the form: no clip made here yet) and makes "Winning goal", done at once. */
async function makeDoneClip(el: Element): Promise<void> {
  await openMaker(el);
  await showsPart(el, 'clip-form');
  world.server.on('POST', `${API}/clip`, ok(clip('done')));
  await typeName(el, 'Winning goal');
  await pressTag(el, 'Goal');
  click(el, 'clip-submit');
  await showsPart(el, 'clip-delete');
}

// ------------------------------------------------------------------ fake platform

let world: World;
const copied: string[] = [];
const shared: unknown[] = [];
const downloads: string[] = [];

function useFakePlatform(
  options: { user?: ReturnType<typeof USER> | undefined; clips?: unknown[]; live?: boolean; prerolls?: unknown[] } = {},
) {
  resetSession();
  world = installWorld();
  thumbsUrl = `${THUMBS_URL}?page=${Math.random()}`;
  copied.length = 0;
  shared.length = 0;
  setEnv({
    eventTarget: window,
    copyText: async (text) => void copied.push(text),
    webShare: () => async (data) => void shared.push(data),
  });
  world.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-123' }))
    .on(
      'GET',
      `${API}/settings`,
      ok({ name: 'Demo', language: 'en', currency: 'EUR', prerolls: options.prerolls ?? [] }),
    )
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country_code: 'CA' }))
    .on('GET', `${API}/events/501`, ok(event(options.live)))
    .on('GET', `${API}/clips/user`, ok(options.clips ?? []))
    .on('GET', `${API}/user/access`, ok({ capabilities: USER().capabilities }))
    .on('GET', THUMBS_URL, { raw: VTT })
    .on('GET', VOD_URL.split('?')[0]!, { raw: '#EXTM3U' })
    .on('GET', LIVE_URL.split('?')[0]!, { raw: '#EXTM3U' })
    .on('GET', CLIP_URL, { raw: '#EXTM3U' });
  if (options.user) {
    world.server.on('GET', `${API}/profile`, ok(options.user));
    world.storage.set('token.demo', 'tok-clips');
  }
}

// ------------------------------------------------------------------ DOM helpers

const root = (el: Element) => el.shadowRoot!;
const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => root(el).querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [
  ...root(el).querySelectorAll<T>(selector),
];
const part = <T extends Element = HTMLElement>(el: Element, name: string) => $<T>(el, `[part~="${name}"]`);
const has = (el: Element, name: string) => part(el, name) !== null;
const text = (el: Element) => root(el).textContent ?? '';
const video = (el: Element) => $<HTMLVideoElement>(el, 'video[part~="video"]');
const active = (el: Element) => root(el).activeElement;
const click = (el: Element, name: string) => part<HTMLButtonElement>(el, name)!.click();
const key = (target: Element, key: string, init: KeyboardEventInit = {}) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true, ...init }));
const slider = (el: Element, which: 'start' | 'end') => part(el, `clip-${which}`)!;
const valueOf = (el: Element, which: 'start' | 'end') => [
  Number(slider(el, which).getAttribute('aria-valuenow')),
  slider(el, which).getAttribute('aria-valuetext'),
];
const posts = (): Recorded[] => world.server.to('POST', `${API}/clip`);

async function shows(el: Element, words: string): Promise<void> {
  await waitUntil(() => text(el).includes(words), `expected "${words}"; the element shows "${text(el)}"`, {
    timeout: 4000,
  });
}
async function showsPart(el: Element, name: string): Promise<void> {
  await waitUntil(() => has(el, name), `expected part "${name}"; the element shows "${text(el)}"`, { timeout: 4000 });
}

/**
 * Gives the <video> a position, a length and a seekable range the test controls (a video without media has none),
 * and records play and pause.
 */
function fakeMedia(
  el: Element,
  options: { duration?: number; time?: number; seekable?: [number, number] | null } = {},
) {
  const v = video(el)!;
  let now = options.time ?? 30;
  const duration = options.duration ?? 120;
  const range = options.seekable === undefined ? [0, duration] : options.seekable;
  const calls: string[] = [];
  Object.defineProperty(v, 'currentTime', {
    configurable: true,
    get: () => now,
    set: (t: number) => {
      now = t;
      calls.push(`seek ${t}`);
    },
  });
  Object.defineProperty(v, 'duration', { configurable: true, get: () => duration });
  Object.defineProperty(v, 'seekable', {
    configurable: true,
    get: () => (range ? { length: 1, start: () => range[0], end: () => range[1] } : { length: 0 }),
  });
  v.play = () => {
    calls.push('play');
    return Promise.resolve();
  };
  v.pause = () => void calls.push('pause');
  v.dispatchEvent(new Event('durationchange'));
  // Playing: a live stream's clock is measured now (its newest content was live at this moment).
  v.dispatchEvent(new Event('playing'));
  return {
    calls,
    at(t: number) {
      now = t;
      v.dispatchEvent(new Event('timeupdate'));
    },
  };
}

/** A player of event 501 playing (autoplay), the video faked, the Clip button shown. */
async function playing(options: Parameters<typeof fakeMedia>[1] = {}) {
  const el = await fixture(
    html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
  );
  await waitUntil(() => video(el)?.getAttribute('src'), 'the stream in the video', { timeout: 4000 });
  const media = fakeMedia(el, options);
  await showsPart(el, 'clip-button');
  return { el, media };
}

/** Opens the panel and waits for the form's timeline. */
async function openMaker(el: Element): Promise<void> {
  click(el, 'clip-button');
  await showsPart(el, 'clip-panel');
}

/** Types into the name field (and lets the view take it in). */
async function typeName(el: Element, value: string): Promise<void> {
  const input = $<HTMLInputElement>(el, '[part~="clip-name"] input')!;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await flush(2);
}
/** Presses a tag chip and waits until it says so. */
async function pressTag(el: Element, label: string): Promise<void> {
  const chip = $$<HTMLButtonElement>(el, '[part~="clip-tag"]').find((b) => b.textContent === label)!;
  const before = chip.getAttribute('aria-pressed');
  chip.click();
  await until(() => chip.getAttribute('aria-pressed') !== before, `the ${label} tag toggled`);
}
const fieldErrors = (el: Element) => $$(el, '[part~="clip-panel"] [part~="field-error"]').map((p) => p.textContent);

// ------------------------------------------------------------------ tests

describe('<channel-player> clips', () => {
  // Downloads are anchors clicked on the page: recorded here instead of followed.
  const onClick = (e: MouseEvent) => {
    const a = e.composedPath()[0];
    if (a instanceof HTMLAnchorElement && a.hasAttribute('download')) {
      e.preventDefault();
      downloads.push(a.href);
    }
  };
  before(() => {
    teardown();
    start({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
    document.addEventListener('click', onClick, true);
  });
  after(() => document.removeEventListener('click', onClick, true));
  afterEach(() => teardown());

  describe('who gets the Clip control', () => {
    it('a guest: the video plays, no Clip control, and no clips are asked for', async () => {
      useFakePlatform();
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await waitUntil(() => video(el)?.getAttribute('src') === VOD_URL, 'the recording');
      await flush();
      expect(has(el, 'clip-button')).to.equal(false);
      expect(world.server.to('GET', `${API}/clips/user`)).to.have.length(0);
    });

    it('a signed-in user without clipping: no Clip control', async () => {
      useFakePlatform({ user: USER(['watch']) });
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await waitUntil(() => video(el)?.getAttribute('src') === VOD_URL, 'the recording');
      await flush(20);
      expect(has(el, 'clip-button')).to.equal(false);
    });

    it('with clipping: none before Play and none during the preroll; the Clip control with the main video', async () => {
      useFakePlatform({ user: USER(), prerolls: [{ id: 1, url: 'https://ads.test/ad.m3u8', for_vod: true }] });
      world.server.on('GET', 'https://ads.test/ad.m3u8', { raw: '#EXTM3U' });
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'play');
      expect(has(el, 'clip-button'), 'not before Play').to.equal(false);
      // The ad may end at once (no real media here): every change of the shadow root is looked at while it shows.
      let adSeen = false;
      let clipDuringAd = false;
      const observer = new MutationObserver(() => {
        if (!has(el, 'ad-label')) return;
        adSeen = true;
        if (has(el, 'clip-button')) clipDuringAd = true;
      });
      observer.observe(root(el), { subtree: true, childList: true, characterData: true });
      await flush(); // the stage's media session is wired after its first render
      click(el, 'play');
      await until(() => adSeen, 'the ad');
      if (has(el, 'ad-label')) video(el)!.dispatchEvent(new Event('ended'));
      await showsPart(el, 'clip-button');
      observer.disconnect();
      expect(clipDuringAd, 'no Clip control while the ad showed').to.equal(false);
      expect(has(el, 'ad-label')).to.equal(false);
      expect(part(el, 'clip-button')!.textContent).to.equal('Clip');
      expect(part(el, 'clip-button')!.getAttribute('aria-expanded')).to.equal('false');
    });
  });

  describe('the panel', () => {
    beforeEach(() => useFakePlatform({ user: USER() }));

    it('opens with focus inside, keeps Tab inside, and Escape closes it and gives focus back to Clip', async () => {
      const { el } = await playing();
      await openMaker(el);
      const panel = part(el, 'clip-panel')!;
      expect(panel.getAttribute('role')).to.equal('dialog');
      expect(panel.getAttribute('aria-modal')).to.equal('false');
      expect(active(el)?.textContent).to.equal('Make a clip');
      expect(part(el, 'clip-button')!.getAttribute('aria-expanded')).to.equal('true');
      const focusables = [...panel.querySelectorAll<HTMLElement>('button:not([disabled]), input, [tabindex="0"]')];
      const first = focusables[0]!;
      const last = focusables.at(-1)!;
      expect(first.textContent).to.equal('Close');
      expect(last.textContent).to.equal('Make clip');
      last.focus();
      key(last, 'Tab');
      expect(active(el), 'Tab on the last goes to the first').to.equal(first);
      key(first, 'Tab', { shiftKey: true });
      expect(active(el), 'Shift+Tab on the first goes to the last').to.equal(last);
      key(last, 'Escape');
      await waitUntil(() => !has(el, 'clip-panel'), 'the panel closed');
      expect(active(el)).to.equal(part(el, 'clip-button'));
      expect(part(el, 'clip-button')!.getAttribute('aria-expanded')).to.equal('false');
    });

    it('sets start and end by the buttons, the I and O keys and the handles (arrows, Shift, Home, End)', async () => {
      const { el, media } = await playing({ time: 30 });
      await openMaker(el);
      // The selection starts as the 10 s before the position.
      expect(valueOf(el, 'start')).to.deep.equal([20, '0:20']);
      expect(valueOf(el, 'end')).to.deep.equal([30, '0:30']);
      media.at(42);
      click(el, 'clip-set-start');
      await waitUntil(() => valueOf(el, 'start')[0] === 42, 'the start at the position');
      expect(valueOf(el, 'end'), 'the end moved past the start').to.deep.equal([52, '0:52']);
      media.at(47.5);
      click(el, 'clip-set-end');
      await waitUntil(() => valueOf(el, 'end')[0] === 47.5, 'the end at the position');
      expect(part(el, 'clip-selection')!.textContent).to.equal('From 0:42 to 0:48 (0:06)');

      media.at(35);
      key(part(el, 'clip-form')!, 'i');
      await waitUntil(() => valueOf(el, 'start')[0] === 35, 'I: the start');
      media.at(44);
      key(part(el, 'clip-form')!, 'o');
      await waitUntil(() => valueOf(el, 'end')[0] === 44, 'O: the end');

      const end = slider(el, 'end');
      key(end, 'ArrowRight');
      await waitUntil(() => valueOf(el, 'end')[0] === 45, 'one second right');
      key(end, 'ArrowRight', { shiftKey: true });
      await waitUntil(() => valueOf(el, 'end')[0] === 55, 'ten seconds right');
      expect(end.getAttribute('aria-valuemin'), 'the end never passes the start').to.equal('35');
      key(end, 'End');
      await waitUntil(() => valueOf(el, 'end')[0] === 120, 'the end of the video');
      const startHandle = slider(el, 'start');
      key(startHandle, 'Home');
      await waitUntil(() => valueOf(el, 'start')[0] === 0, 'the start of the video');
      key(startHandle, 'End');
      await waitUntil(() => valueOf(el, 'start')[0] === 120, 'the start as far as the end');
      key(startHandle, 'ArrowLeft');
      await waitUntil(() => valueOf(el, 'start')[0] === 119, 'one second left');
      expect(valueOf(el, 'start')).to.deep.equal([119, '1:59']);
    });

    it('drags a handle with the pointer along the timeline', async () => {
      const { el } = await playing({ time: 30 });
      await openMaker(el);
      const track = $(el, '.clip-track')!.getBoundingClientRect();
      const handle = slider(el, 'start');
      const at = (fraction: number) => track.left + track.width * fraction;
      handle.dispatchEvent(new PointerEvent('pointerdown', { pointerId: 1, clientX: at(20 / 120), bubbles: true }));
      handle.setPointerCapture = () => undefined;
      handle.hasPointerCapture = () => true;
      handle.dispatchEvent(new PointerEvent('pointermove', { pointerId: 1, clientX: at(0.1), bubbles: true }));
      await waitUntil(() => valueOf(el, 'start')[0] === 12, 'dragged to 12 s');
      handle.dispatchEvent(new PointerEvent('pointermove', { pointerId: 1, clientX: at(0.9), bubbles: true }));
      await waitUntil(() => valueOf(el, 'start')[0] === 30, 'stopped at the end handle');
    });

    it('shows thumbnail previews from the thumbnails track, and the preview of the handle in use', async () => {
      const { el } = await playing({ time: 90 });
      await openMaker(el);
      await waitUntil(() => $$(el, '[part~="clip-thumb"]').length === 8, 'the strip of previews');
      const strip = $$(el, '[part~="clip-thumb"]');
      expect(strip[0]!.dataset.src).to.equal('https://media.test/s/g/501/thumbs/sprite.jpg');
      expect(strip[0]!.style.backgroundPosition).to.equal('0px 0px');
      expect(strip[7]!.style.backgroundPosition).to.equal('-160px 0px');
      slider(el, 'end').focus();
      await showsPart(el, 'clip-preview');
      expect(part(el, 'clip-preview')!.textContent).to.equal('Preview at 1:30');
      expect(part(el, 'clip-preview-image')!.style.backgroundPosition).to.equal('-160px 0px');
      expect(world.server.to('GET', THUMBS_URL)[0]!.headers.authorization, 'no token to the media host').to.equal(
        undefined,
      );
    });

    it('Play selection plays from the start and pauses at the end', async () => {
      const { el, media } = await playing({ time: 30 });
      await openMaker(el);
      media.calls.length = 0;
      click(el, 'clip-play-selection');
      expect(media.calls).to.deep.equal(['seek 20', 'play']);
      media.at(30.5); // the old position, reported before the seek lands
      media.at(20.2);
      media.at(29.9);
      expect(media.calls).not.to.include('pause');
      media.at(30.1);
      expect(media.calls.at(-1)).to.equal('pause');
    });

    it('checks before sending: each message at its field, focus on the first, and no request', async () => {
      const { el } = await playing({ time: 30 });
      await openMaker(el);
      key(slider(el, 'end'), 'End');
      key(slider(el, 'start'), 'Home');
      await waitUntil(() => valueOf(el, 'end')[0] === 120 && valueOf(el, 'start')[0] === 0, 'the whole video');
      click(el, 'clip-submit');
      await waitUntil(() => fieldErrors(el).length === 3, 'three messages');
      expect(fieldErrors(el)).to.deep.equal([
        'The clip can be at most 60 seconds long',
        'Please fill in the input field',
        'Please select tag',
      ]);
      expect(active(el), 'focus on the first field in error').to.equal(slider(el, 'end'));
      expect(slider(el, 'end').getAttribute('aria-invalid')).to.equal('true');
      expect(slider(el, 'end').getAttribute('aria-describedby')).to.equal(
        $(el, '[part~="clip-panel"] [part~="field-error"]')!.id,
      );

      key(slider(el, 'end'), 'Home');
      await waitUntil(() => valueOf(el, 'end')[0] === 0, 'an empty selection');
      key(slider(el, 'end'), 'ArrowRight');
      await typeName(el, 'Winning goal');
      click(el, 'clip-submit');
      await waitUntil(() => fieldErrors(el).length === 2, 'two messages');
      expect(fieldErrors(el)).to.deep.equal(['The clip must be at least 2 seconds long', 'Please select tag']);
      await flush();
      expect(posts(), 'nothing sent').to.have.length(0);
    });

    it('a good clip: the request, then its progress, then ready with Download, Copy link, Share, Delete', async () => {
      const { el, media } = await playing({ time: 40 });
      await openMaker(el);
      media.at(30);
      click(el, 'clip-set-start');
      await typeName(el, '  Winning goal ');
      await pressTag(el, 'Goal');
      await pressTag(el, 'Highlight');
      await pressTag(el, 'Highlight');
      await waitUntil(
        () =>
          $$(el, '[part~="clip-tag"][aria-pressed="true"]')
            .map((b) => b.textContent)
            .join() === 'Goal',
        'one tag pressed',
      );
      world.server.on('POST', `${API}/clip`, ok(clip('queued', { progress: 0 })));
      world.server.on('GET', `${API}/clips/user`, ok([clip('processing', { progress: 40 })]));
      click(el, 'clip-submit');
      await showsPart(el, 'clip-progress');
      const [post] = posts();
      expect(post!.body).to.deep.equal({
        event_id: 501,
        name: 'Winning goal',
        start_time: 30,
        duration: 10,
        tags: ['goal'],
        api_key: 'ak-123',
      });
      expect(post!.headers.authorization).to.equal('Bearer tok-clips');
      expect(part(el, 'clip-progress')!.textContent).to.equal('Making “Winning goal”Waiting its turn…');
      expect(active(el)?.textContent, 'focus stays in the panel').to.equal('Make a clip');

      await world.advance(1_000);
      await shows(el, '40% done');
      expect($<HTMLProgressElement>(el, '[part~="clip-progress"] progress')!.value).to.equal(40);
      expect($<HTMLProgressElement>(el, '[part~="clip-progress"] progress')!.labels![0]!.textContent).to.equal(
        'Making “Winning goal”',
      );

      world.server.on('GET', `${API}/clips/user`, ok([clip('done')]));
      await world.advance(2_000);
      await showsPart(el, 'clip-ready');
      expect(part(el, 'clip-ready')!.textContent).to.equal('“Winning goal” is ready.');
      expect($$(el, '[part~="clip-actions"] button').map((b) => b.textContent)).to.deep.equal([
        'Download',
        'Copy link',
        'Share…',
        'Delete',
        'Make another',
      ]);

      world.server.on('GET', `${API}/clip/download/9`, ok({ url: 'https://media.test/download/Winning goal.mp4' }));
      click(el, 'clip-download');
      await waitUntil(() => downloads.length === 1, 'the download');
      expect(downloads).to.deep.equal(['https://media.test/download/Winning%20goal.mp4']);
      expect(world.server.to('GET', `${API}/user/access`), 'the counts reloaded').to.have.length(1);

      click(el, 'clip-copy');
      await showsPart(el, 'clip-copied');
      expect(part(el, 'clip-copied')!.textContent).to.equal('Link copied.');
      expect(copied).to.deep.equal([`${location.origin}/share/9/${UUID}`]);
      click(el, 'clip-share');
      await waitUntil(() => shared.length === 1, 'the share sheet');
      expect(shared).to.deep.equal([{ title: 'Winning goal', url: `${location.origin}/share/9/${UUID}` }]);

      // Closing the panel does not stop anything: it opens again on the same clip.
      click(el, 'clip-close');
      await openMaker(el);
      await showsPart(el, 'clip-ready');
      await expect(el).shadowDom.to.be.accessible();
    });

    it('Delete asks first (Escape or Cancel go back); confirmed, the clip goes and the form comes back', async () => {
      useFakePlatform({ user: USER(), clips: [clip('done')] });
      const { el } = await playing();
      world.server.on('DELETE', `${API}/clip/9`, ok({ message: 'Clip deleted.' }));
      await makeDoneClip(el);
      click(el, 'clip-delete');
      await showsPart(el, 'clip-confirm');
      expect(part(el, 'clip-confirm')!.textContent).to.contain('Delete “Winning goal”? This cannot be undone.');
      expect(active(el)?.textContent, 'focus on the safe choice').to.equal('Cancel');
      key(active(el)!, 'Escape');
      await waitUntil(() => !has(el, 'clip-confirm'), 'the question gone');
      expect(has(el, 'clip-panel'), 'Escape closed the question, not the panel').to.equal(true);
      expect(active(el)).to.equal(part(el, 'clip-delete'));
      click(el, 'clip-delete');
      await showsPart(el, 'clip-confirm-delete');
      click(el, 'clip-confirm-delete');
      await showsPart(el, 'clip-form');
      expect(world.server.to('DELETE', `${API}/clip/9`)).to.have.length(1);
      expect(active(el)?.textContent).to.equal('Make a clip');
    });

    it('copying refused: the link to copy by hand; a failed delete says why and keeps the clip', async () => {
      useFakePlatform({ user: USER(), clips: [clip('done')] });
      setEnv({ copyText: () => Promise.reject(new Error('denied')) });
      const { el } = await playing();
      await makeDoneClip(el);
      click(el, 'clip-copy');
      await showsPart(el, 'clip-link');
      expect(part(el, 'clip-link')!.querySelector('[role="alert"]')!.textContent).to.equal(
        'The link could not be copied: select it below.',
      );
      expect(part(el, 'clip-link')!.querySelector('input')!.value).to.equal(`${location.origin}/share/9/${UUID}`);

      world.server.on('DELETE', `${API}/clip/9`, { status: 500, body: { message: 'Server Error' } });
      click(el, 'clip-delete');
      await showsPart(el, 'clip-confirm-delete');
      click(el, 'clip-confirm-delete');
      await world.advance(1_000); // the client's single retry
      await showsPart(el, 'clip-error');
      expect(part(el, 'clip-error')!.textContent).to.equal(
        'Oops! We are currently experiencing technical difficulties',
      );
      expect(has(el, 'clip-ready'), 'the clip stays').to.equal(true);
      await expect(el).shadowDom.to.be.accessible();
    });

    it('failed: "Your clip creation failed" with Retry, which makes it again', async () => {
      const { el } = await playing({ time: 40 });
      await openMaker(el);
      await typeName(el, 'Save');
      await pressTag(el, 'Save');
      world.server.on('POST', `${API}/clip`, ok(clip('queued', { id: 9, name: 'Save', tags: ['save'] })));
      world.server.on('GET', `${API}/clips/user`, ok([clip('failed', { id: 9, name: 'Save', tags: ['save'] })]));
      click(el, 'clip-submit');
      await showsPart(el, 'clip-progress');
      await world.advance(1_000);
      await showsPart(el, 'clip-failed');
      expect($(el, '[part~="clip-failed"] [role="alert"]')!.textContent).to.equal('Your clip creation failed');
      world.server.on('POST', `${API}/clip`, ok(clip('queued', { id: 10, name: 'Save', tags: ['save'] })));
      world.server.on('GET', `${API}/clips/user`, ok([clip('processing', { id: 10, name: 'Save', tags: ['save'] })]));
      world.server.on('DELETE', `${API}/clip/9`, ok({ message: 'Clip deleted.' }));
      click(el, 'clip-retry');
      await showsPart(el, 'clip-progress');
      expect(posts().map((p) => p.body)).to.deep.equal([
        { event_id: 501, name: 'Save', start_time: 30, duration: 10, tags: ['save'], api_key: 'ak-123' },
        { event_id: 501, name: 'Save', start_time: 30, duration: 10, tags: ['save'], api_key: 'ak-123' },
      ]);
      await until(() => world.server.to('DELETE', `${API}/clip/9`).length === 1, 'the failed one deleted');
    });

    it('a server refusal shows its message (403 without clipping)', async () => {
      const { el } = await playing({ time: 40 });
      await openMaker(el);
      await typeName(el, 'Save');
      await pressTag(el, 'Save');
      world.server.on('POST', `${API}/clip`, { status: 403, body: { message: 'Your account cannot make clips.' } });
      click(el, 'clip-submit');
      await showsPart(el, 'form-error');
      expect(part(el, 'form-error')!.textContent).to.equal('Your account cannot make clips.');
      expect(active(el)).to.equal(part(el, 'form-error'));
    });

    it('passes an a11y audit with the form open', async () => {
      const { el } = await playing();
      await openMaker(el);
      await waitUntil(() => $$(el, '[part~="clip-thumb"]').length === 8, 'the previews');
      await expect(el).shadowDom.to.be.accessible();
    });
  });

  describe('after a reload, and live', () => {
    it('a clip of this event still being made is followed: the Clip button and the panel show its progress', async () => {
      useFakePlatform({ user: USER(), clips: [clip('processing', { progress: 70 })] });
      const { el } = await playing();
      await waitUntil(() => part(el, 'clip-button')!.textContent === 'Clip · 70% done', 'the progress on the button');
      await openMaker(el);
      await showsPart(el, 'clip-progress');
      expect(has(el, 'clip-form')).to.equal(false);
      world.server.on('GET', `${API}/clips/user`, ok([clip('done')]));
      await world.advance(1_000);
      await showsPart(el, 'clip-ready');
      click(el, 'clip-another');
      await showsPart(el, 'clip-form');
    });

    it('live: the timeline is the last 10 minutes up to the live edge; start_time counts from the event start', async () => {
      useFakePlatform({ user: USER(), live: true });
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await waitUntil(() => video(el)?.getAttribute('src') === LIVE_URL, 'the live stream');
      // The video's own clock: 1000 s buffered since it joined; the viewer 10 s behind the edge.
      const media = fakeMedia(el, { duration: Infinity, time: 990, seekable: [0, 1000] });
      await showsPart(el, 'clip-button');
      await openMaker(el);
      // Ten minutes back, less the 5 s kept in hand for the request's travel.
      expect(slider(el, 'start').getAttribute('aria-valuemin')).to.equal('405');
      expect(valueOf(el, 'end')).to.deep.equal([990, '0:10 before live']);
      media.at(970);
      click(el, 'clip-set-start');
      media.at(980);
      click(el, 'clip-set-end');
      await typeName(el, 'Live goal');
      await pressTag(el, 'Goal');
      world.server.on('POST', `${API}/clip`, ok(clip('queued', { source: 'live' })));
      click(el, 'clip-submit');
      await until(() => posts().length === 1, 'the request');
      // Started an hour ago; the selection starts 30 s behind the live edge, which is now.
      expect(posts()[0]!.body).to.deep.include({ start_time: 3570, duration: 10 });
    });
  });

  describe('before the video knows its length', () => {
    it('Make clip says the video is still starting (and focuses the message); nothing is sent', async () => {
      useFakePlatform({ user: USER() });
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await waitUntil(() => video(el)?.getAttribute('src'), 'the stream in the video', { timeout: 4000 });
      // A recording whose length the video has not told yet.
      fakeMedia(el, { duration: NaN, time: 0, seekable: null });
      await showsPart(el, 'clip-button');
      await openMaker(el);
      await showsPart(el, 'clip-form');
      click(el, 'clip-submit');
      await waitUntil(() => part(el, 'form-error')?.textContent?.includes('still starting'), 'the message');
      expect(part(el, 'clip-panel')!.getRootNode()).to.have.property('activeElement', part(el, 'form-error'));
      expect(posts()).to.have.length(0);
    });
  });

  describe('live without a seekable window', () => {
    it("Chromium's own HLS reports no window: the edge is where the video plays, and the window still reaches 10 minutes back", async () => {
      useFakePlatform({ user: USER(), live: true });
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await waitUntil(() => video(el)?.getAttribute('src') === LIVE_URL, 'the live stream');
      fakeMedia(el, { duration: Infinity, time: 30, seekable: null });
      await showsPart(el, 'clip-button');
      await openMaker(el);
      expect(slider(el, 'start').getAttribute('aria-valuemin')).to.equal('-565');
      expect(valueOf(el, 'end')).to.deep.equal([30, '0:00 before live']);
      expect(part(el, 'clip-selection')!.textContent).to.contain('(0:10)');
    });
  });

  describe('playing a clip by its attributes', () => {
    const sharedUrl = `${API}/shared-clip/9`;

    it('a shared clip plays for a guest, with its name, its event (a link) and its tags', async () => {
      useFakePlatform();
      world.server.on('GET', sharedUrl, ok(clip('done')));
      const el = await fixture(html`<channel-player clip-id="9" share=${UUID}></channel-player>`);
      await showsPart(el, 'play');
      const [call] = world.server.to('GET', sharedUrl);
      expect(call!.query).to.deep.equal({ uuid: UUID, api_key: 'ak-123' });
      expect(part(el, 'title')!.textContent).to.equal('Winning goal');
      expect(part(el, 'badge')!.textContent).to.equal('Clip');
      expect(part(el, 'clip-event')!.textContent).to.equal('From Spring Final');
      expect(part(el, 'clip-event-link')!.getAttribute('href')).to.equal(`${location.origin}/watch/501`);
      expect($$(el, '[part~="clip-tag"]').map((t) => t.textContent)).to.deep.equal(['Goal']);
      const selected: number[] = [];
      const onSelect = (e: Event) => {
        selected.push((e as CustomEvent).detail.id);
        e.preventDefault();
      };
      el.addEventListener('channel-event-select', onSelect);
      part<HTMLAnchorElement>(el, 'clip-event-link')!.click();
      el.removeEventListener('channel-event-select', onSelect);
      expect(selected).to.deep.equal([501]);
      click(el, 'play');
      await waitUntil(() => video(el)?.getAttribute('src') === CLIP_URL, 'the clip');
      expect(has(el, 'ad-label')).to.equal(false);
      await expect(el).shadowDom.to.be.accessible();
    });

    it('a clip still being made says so with its progress, and plays once it is done', async () => {
      useFakePlatform();
      world.server.on('GET', sharedUrl, ok(clip('processing', { progress: 25 })));
      const el = await fixture(html`<channel-player clip-id="9" share=${UUID} autoplay muted></channel-player>`);
      await showsPart(el, 'clip-making');
      expect(part(el, 'clip-making')!.textContent).to.equal('This clip is being made…');
      expect($<HTMLProgressElement>(el, '[part~="clip-progress"]')!.value).to.equal(25);
      world.server.on('GET', sharedUrl, ok(clip('done')));
      await world.advance(1_000);
      await waitUntil(() => video(el)?.getAttribute('src') === CLIP_URL, 'the clip plays');
      await world.advance(60_000);
      expect(world.server.to('GET', sharedUrl), 'no more looks once done').to.have.length(2);
    });

    it('a shared clip still being made after 5 minutes stops being looked at and says it failed', async () => {
      useFakePlatform();
      world.server.on('GET', sharedUrl, ok(clip('processing', { progress: 10 })));
      const el = await fixture(html`<channel-player clip-id="9" share=${UUID}></channel-player>`);
      await showsPart(el, 'clip-making');
      // Looked at every 10 s at most: the look after the 5 minutes finds it failed.
      for (let waited = 0; waited <= 300_000; waited += 10_000) await world.advance(10_000);
      await showsPart(el, 'clip-failed');
      expect(part(el, 'clip-failed')!.textContent).to.equal('Your clip creation failed');
      const looks = world.server.to('GET', sharedUrl).length;
      await world.advance(120_000);
      expect(world.server.to('GET', sharedUrl), 'no more looks once failed').to.have.length(looks);
    });

    it('a deleted clip or a wrong share id: "This clip is no longer available"; a failed one says so', async () => {
      useFakePlatform();
      world.server.on('GET', sharedUrl, { status: 404, body: { message: 'Clip not found.' } });
      const el = await fixture(html`<channel-player clip-id="9" share=${UUID}></channel-player>`);
      await showsPart(el, 'error');
      expect($(el, '[part~="error"] p')!.textContent).to.equal('This clip is no longer available');
      world.server.on('GET', `${API}/shared-clip/8`, ok(clip('failed', { id: 8 })));
      const failed = await fixture(html`<channel-player clip-id="8" share=${UUID}></channel-player>`);
      await showsPart(failed, 'clip-failed');
      expect(part(failed, 'clip-failed')!.textContent).to.equal('Your clip creation failed');
    });

    it('a bad share id is a notice; a clip-id alone is the signed-in user’s own clip', async () => {
      useFakePlatform({ user: USER(), clips: [clip('done')] });
      const el = await fixture(html`<channel-player clip-id="9" share="nope"></channel-player>`);
      await showsPart(el, 'play');
      expect(part(el, 'notice')!.textContent).to.equal(`Ignored share="nope": the clip's share id (a UUID).`);
      expect(world.lines.warn).to.include(
        `<channel-player>: ignored share="nope"; expected the clip's share id (a UUID).`,
      );
      expect(world.server.to('GET', sharedUrl)).to.have.length(0);
      expect(world.server.to('GET', `${API}/clips/user`)).to.have.length(1);
      expect(part(el, 'title')!.textContent).to.equal('Winning goal');
    });

    it('French: the clip texts in French', async () => {
      useFakePlatform();
      world.server.on('GET', sharedUrl, ok(clip('processing', { progress: 25 })));
      const el = await fixture(html`<channel-player clip-id="9" share=${UUID} lang="fr"></channel-player>`);
      await showsPart(el, 'clip-making');
      expect(part(el, 'clip-making')!.textContent).to.equal('Cet extrait est en cours de création…');
      expect(part(el, 'badge')!.textContent).to.equal('Extrait');
      expect(part(el, 'clip-event')!.textContent).to.equal('Tiré de Spring Final');
      expect(part(el, 'clip-tag')!.textContent).to.equal('But');
    });
  });
});
