/**
 * The loader's early video (src/loader/early-video.ts): which start-up answers let it start a player's stream before
 * the player's code arrives, and that it never starts where the player would show something else (a paywall, a
 * sign-in, a region message, a resumed position, another engine), and that where a preroll comes first it plays the one
 * the player's rules choose. The stream URLs here do not exist:
 * the video fails to load, which ends the wait for its first frame at once; what is checked is whether it was set.
 */
import { expect } from '@open-wc/testing';
import { resumeStorageKey, STORAGE_PREFIX, tokenStorageKey } from '../../../src/lib/api-paths.js';
import { EARLY_DECISION_MS, startEarlyVideos } from '../../../src/loader/early-video.js';
import { earlyBar } from '../../../src/loader/early-bar.js';
import {
  adoptEarlyVideo,
  dropEarlyBar,
  dropEarlyLabel,
  earlyBarFocus,
  earlyVideoOf,
  releaseEarlyVideo,
  setEarlyVideo,
  takeEarlyRoot,
  type EarlyVideo,
} from '../../../src/lib/early-video.js';
import { suppressionKey } from '../../../src/lib/preroll-rules.js';
import { earlyAnswers, mayStartEarly, type EarlyAnswer } from '../../../src/loader/early.js';
import { MediaBridge } from '../../../src/media/element-api.js';
import * as fakeTimers from '@sinonjs/fake-timers';
import { flush, macrotask } from '../helpers.js';

/**
 * What the loader does with a player (src/loader/script.ts): the answers watched as they go out, then, where its
 * cheap checks allow, the early video's module started on the players.
 */
function earlyVideos(channelKey: string) {
  let sending = Promise.resolve();
  const answers = earlyAnswers(() => sending);
  return {
    watch: answers.watch,
    async start(players: Element[], sent: Promise<void>) {
      sending = sent;
      if (mayStartEarly(channelKey, players)) await startEarlyVideos(channelKey, players, answers.data);
    },
  };
}

const URL_VOD = 'http://127.0.0.1:9/media/7/master.m3u8';

/**
 * Runs `decide` on a fake clock (Date and timers; the answers' bodies are still read for real) and answers whether it
 * had decided before the clock moved, whether it decided at EARLY_DECISION_MS at the latest, and its result: when a
 * decision came, told by the clock the loader reads rather than by how fast the machine ran.
 */
async function onFakeClock<T>(decide: () => Promise<T>) {
  const clock = fakeTimers.install({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  try {
    let outcome: { value: T } | undefined;
    const running = decide().then((value) => (outcome = { value }));
    // The clock stands still, so any number of real tasks (body reads take more of them on a loaded machine) is
    // still "at once"; the first flush below lets a decision that waits on a timer show it does not come yet.
    for (let i = 0; i < 500 && outcome === undefined; i++) await macrotask();
    const atOnce = outcome !== undefined;
    clock.tick(EARLY_DECISION_MS - 1);
    await flush();
    const beforeDeadline = outcome !== undefined;
    clock.tick(1);
    await flush();
    await running;
    return { atOnce, beforeDeadline, value: outcome!.value };
  } finally {
    clock.uninstall();
  }
}
const URL_LIVE = 'http://127.0.0.1:9/live/7/master.m3u8';

const answer = (data: unknown, status = 200) =>
  Promise.resolve(new Response(JSON.stringify({ data }), { status, headers: { 'Content-Type': 'application/json' } }));

const event = (patch: Record<string, unknown> = {}) => ({
  id: 7,
  name: 'Hawks vs Owls',
  type: 'free',
  event_utc_ts: 1_705_000_000,
  stream_status: 'finished',
  has_access: false,
  has_recording: true,
  media: [
    { type: 'vod', url: URL_VOD },
    { type: 'live', url: URL_LIVE },
  ],
  ...patch,
});

/** Stores a value as the session's storage does (`{v, e}` under the `rudy_` prefix). */
const store = (name: string, value: unknown) =>
  localStorage.setItem(STORAGE_PREFIX + name, JSON.stringify({ v: value, e: Date.now() + 60_000 }));

function clearStoredKeys(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(STORAGE_PREFIX)) localStorage.removeItem(key);
}

/** A not-yet-defined `<channel-player>` in the page with these attributes. */
function player(attributes: Record<string, string> = { 'event-id': '7', autoplay: '', muted: '' }): HTMLElement {
  const el = document.createElement('channel-player');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  document.body.appendChild(el);
  return el;
}

/** The video the loader handed over in `el`, if any (and it is in the element's shadow root). */
const earlyVideo = (el: Element): HTMLVideoElement | null => {
  const video = earlyVideoOf(el)?.video;
  return video && video.parentNode === el.shadowRoot ? video : null;
};

/** Start-up answers by name, and two shorthands for the settings' answer. */
type Answers = Partial<Record<EarlyAnswer, Promise<Response> | undefined>> & {
  /** The settings' preroll list as an API would send it (given as undefined: the settings have none). */
  prerolls?: unknown;
  /** The rest of the settings. */
  channel?: Record<string, unknown>;
};

/** Runs the early video for `el` with these answers (the defaults: a free recording a guest may watch). */
async function run(el: Element, answers: Answers = {}): Promise<HTMLVideoElement | null> {
  const videos = earlyVideos('demo');
  const { prerolls, channel, ...named } = answers;
  const settings: Record<string, unknown> = { name: 'Demo', language: 'en', currency: 'USD', prerolls: [], ...channel };
  if ('prerolls' in answers) settings.prerolls = prerolls;
  const all: Partial<Record<EarlyAnswer, Promise<Response> | undefined>> = {
    settings: answer(settings),
    geo: answer({ country: 'United States', is_geo_blocked: 0 }),
    'event:7': answer(event()),
    ...named,
  };
  for (const [name, value] of Object.entries(all)) if (value) videos.watch(name as EarlyAnswer, value);
  await videos.start([el], Promise.resolve());
  return earlyVideo(el);
}

describe('the early video', () => {
  let el: HTMLElement;
  before(() => {
    // Every refusal below means something only where the early video can start at all.
    expect(document.createElement('video').canPlayType('application/vnd.apple.mpegurl')).to.not.equal('');
    expect('MediaSource' in window, 'live streams go to hls.js here').to.equal(true);
  });
  beforeEach(clearStoredKeys);
  afterEach(() => {
    el?.remove();
    clearStoredKeys();
  });

  it('plays a free recording for a guest, muted, in a shadow root of its own', async () => {
    el = player();
    const video = await run(el);
    expect(video, 'the early video').to.not.equal(null);
    expect(video!.getAttribute('src')).to.equal(URL_VOD);
    expect(video!.muted).to.equal(true);
    expect(video!.crossOrigin).to.equal('anonymous');
    expect(el.shadowRoot!.mode).to.equal('open');
    expect(el.childElementCount, 'nothing in the host page’s DOM').to.equal(0);
  });

  it('plays an event the guest has access to, and one for a channel whose settings name no prerolls', async () => {
    el = player();
    expect(await run(el, { 'event:7': answer(event({ type: 'paid', has_access: 1 })) })).to.not.equal(null);
    el.remove();
    el = player();
    expect(await run(el, { prerolls: undefined })).to.not.equal(null);
    el.remove();
    // null, as PHP APIs send an empty value: none too, as the player reads it.
    el = player();
    expect(await run(el, { prerolls: null, channel: { preroll_options: [] } })).to.not.equal(null);
  });

  it('plays when the settings turn prerolls off, whatever the list', async () => {
    el = player();
    const video = await run(el, {
      channel: { name: 'Demo', preroll_options: { enabled: 0 } },
      prerolls: [{ id: 1, url: 'http://127.0.0.1:9/ad.m3u8' }],
    });
    expect(video).to.not.equal(null);
  });

  describe('with prerolls', () => {
    const AD_VOD = 'http://127.0.0.1:9/ads/vod.m3u8';
    const AD_LIVE = 'http://127.0.0.1:9/ads/live.m3u8';
    const AD_ELSEWHERE = 'http://127.0.0.1:9/ads/elsewhere.m3u8';
    // As an API answers: ids as strings, flags as numbers, weights left to their default.
    const list = [
      { id: '11', url: AD_LIVE, for_live: 1, for_vod: 0 },
      { id: '12', url: AD_VOD, for_vod: '1', event_categories: ['3'] },
      { id: '13', url: AD_ELSEWHERE, for_vod: true, location_id: 99 },
    ];
    const categorised = () => answer(event({ event_category_id: '3', location_id: 5 }));

    it('plays the preroll the player’s rules choose first, and hands the choice to the player', async () => {
      el = player();
      const video = await run(el, { prerolls: list, 'event:7': categorised() });
      expect(video?.getAttribute('src')).to.equal(AD_VOD);
      const choice = earlyVideoOf(el);
      expect(choice?.stream).to.equal(URL_VOD);
      expect(choice?.preroll).to.deep.include({ id: 12, url: AD_VOD, weight: 1, for_vod: true });
    });

    it('labels the preroll "Ad" as the player would, in the element’s language, and drops the label with the video', async () => {
      /** The labels put in `at`'s shadow root (these adverts do not exist: each fails, and its label goes). */
      const labelsOf = (at: HTMLElement) => {
        const labels: HTMLElement[] = [];
        const attach = at.attachShadow.bind(at);
        at.attachShadow = (init) => {
          const root = attach(init);
          new MutationObserver((records) => {
            for (const record of records)
              for (const node of record.addedNodes)
                if (node instanceof HTMLElement && node.matches('[part~="ad-label"]')) labels.push(node);
          }).observe(root, { childList: true });
          return root;
        };
        return labels;
      };
      const french = {
        prerolls: list,
        'event:7': categorised(),
        channel: { name: 'Démo', language: 'fr' },
      };
      // The channel speaks French and the element says nothing: French.
      el = player();
      let labels = labelsOf(el);
      await run(el, french);
      expect(labels.map((l) => [l.textContent, l.getAttribute('aria-label'), l.getAttribute('role')])).to.deep.equal([
        ['Pub', 'Publicité avant la vidéo', 'status'],
      ]);
      // The advert failed: its label went with it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(labels[0]!.isConnected).to.equal(false);
      el.remove();
      // The element's own lang comes first.
      el = player({ 'event-id': '7', autoplay: '', muted: '', lang: 'en-GB' });
      labels = labelsOf(el);
      await run(el, french);
      expect(labels.map((l) => l.textContent)).to.deep.equal(['Ad']);
      el.remove();
      // No preroll, no label.
      el = player();
      labels = labelsOf(el);
      await run(el, { prerolls: list, 'event:7': answer(event({ event_category_id: 4 })) });
      expect(labels).to.deep.equal([]);
    });

    it('plays the event’s stream when no preroll fits (another category), and hands over that it chose none', async () => {
      el = player();
      const video = await run(el, {
        prerolls: list,
        'event:7': answer(event({ event_category_id: 4, location_id: 5 })),
      });
      expect(video?.getAttribute('src')).to.equal(URL_VOD);
      expect(earlyVideoOf(el)).to.deep.include({ stream: URL_VOD, preroll: undefined });
    });

    it('plays the event’s stream inside this visitor’s suppression window for that preroll', async () => {
      store('visitor', 'v-1');
      localStorage.setItem(
        `${STORAGE_PREFIX}${suppressionKey('visitor-v-1', '7', 12)}`,
        JSON.stringify({ v: true, e: Date.now() + 60_000 }),
      );
      el = player();
      const video = await run(el, { prerolls: list, 'event:7': categorised() });
      expect(video?.getAttribute('src')).to.equal(URL_VOD);
    });
  });

  const refusals: [string, Answers][] = [
    ['a paid event without access (the paywall)', { 'event:7': answer(event({ type: 'paid' })) }],
    ['a registration event (sign in first)', { 'event:7': answer(event({ type: 'register', has_access: true })) }],
    ['an upcoming event (the countdown)', { 'event:7': answer(event({ stream_status: 'upcoming' })) }],
    ['a finished event without recording', { 'event:7': answer(event({ has_recording: false })) }],
    ['an event blocked in this region', { 'event:7': answer(event({ is_geo_blocked: true })) }],
    ['a guest whose region is blocked', { geo: answer({ country: 'Elsewhere', is_geo_blocked: '1' }) }],
    ['no geo answer (the player waits for it)', { geo: answer({ message: 'down' }, 500) }],
    ['an event answer that failed', { 'event:7': answer({ message: 'Not found' }, 404) }],
    [
      'a preroll list that is not a list (the player plays none of it; nothing starts early)',
      { prerolls: { id: 1, url: 'http://127.0.0.1:9/ad.m3u8' } },
    ],
    [
      'a preroll that would come first with a URL that is not http(s)',
      { prerolls: [{ id: 1, url: 'javascript:alert(1)', for_vod: true }] },
    ],
    [
      'a stream URL that is not http(s)',
      { 'event:7': answer(event({ media: [{ type: 'vod', url: 'javascript:alert(1)' }] })) },
    ],
    [
      'an event without a stream of its kind',
      { 'event:7': answer(event({ media: [{ type: 'live', url: URL_LIVE }] })) },
    ],
    [
      'a live event (played through hls.js where the browser has MSE)',
      { 'event:7': answer(event({ stream_status: 'live' })) },
    ],
  ];
  for (const [what, answers] of refusals) {
    it(`does not start for ${what}`, async () => {
      el = player();
      expect(await run(el, answers)).to.equal(null);
      expect(el.shadowRoot, 'no shadow root: the element attaches its own').to.equal(null);
    });
  }

  it('plays a live event where the page asks for the browser’s own engine', async () => {
    el = player({ 'event-id': '7', autoplay: '', muted: '', 'prefer-playback': 'native' });
    const video = await run(el, { 'event:7': answer(event({ stream_status: 'live' })) });
    expect(video?.getAttribute('src')).to.equal(URL_LIVE);
  });

  const tags: [string, Record<string, string>][] = [
    ['without autoplay', { 'event-id': '7', muted: '' }],
    ['with autoplay="false"', { 'event-id': '7', autoplay: 'false', muted: '' }],
    ['with sound (not muted)', { 'event-id': '7', autoplay: '' }],
    ['asking for hls.js', { 'event-id': '7', autoplay: '', muted: '', 'prefer-playback': 'mse' }],
  ];
  for (const [what, attributes] of tags) {
    it(`does not start for a player ${what}`, async () => {
      el = player(attributes);
      expect(await run(el)).to.equal(null);
    });
  }

  it('does not start for a signed-in viewer, nor where a resume position is stored', async () => {
    store(tokenStorageKey('demo'), 'a-token');
    el = player();
    expect(await run(el)).to.equal(null);
    clearStoredKeys();
    el.remove();
    store(resumeStorageKey('demo'), { '7': [120, Date.now()] });
    el = player();
    expect(await run(el)).to.equal(null);
  });

  it('gives up when the answers are late: the player’s code is not held for them', async () => {
    el = player();
    const never = new Promise<Response>(() => undefined);
    const decided = await onFakeClock(() => run(el, { 'event:7': never }));
    // Waited for the event until the deadline, not a moment more.
    expect([decided.beforeDeadline, decided.value]).to.deep.equal([false, null]);
  });

  it('reads a resume position under the id the API spells (event-id="0123" is event 123)', async () => {
    store(resumeStorageKey('demo'), { '7': [120, Date.now()] });
    el = player({ 'event-id': '007', autoplay: '', muted: '' });
    const videos = earlyVideos('demo');
    videos.watch('settings', answer({ name: 'Demo' }));
    videos.watch('geo', answer({ is_geo_blocked: false }));
    videos.watch('event:007', answer(event()));
    await videos.start([el], Promise.resolve());
    expect(earlyVideo(el)).to.equal(null);
  });

  it('decides at the first answer that rules it out: a paywalled event does not wait for geo', async () => {
    el = player();
    const decided = await onFakeClock(() =>
      run(el, { 'event:7': answer(event({ type: 'paid' })), geo: new Promise(() => undefined) }),
    );
    expect([decided.atOnce, decided.value]).to.deep.equal([true, null]);
  });

  it('decides at the first answer that rules it out: a preroll list that is not a list does not wait for the event', async () => {
    el = player();
    const never = new Promise<Response>(() => undefined);
    const decided = await onFakeClock(() =>
      run(el, {
        'event:7': never,
        geo: never,
        prerolls: 'http://127.0.0.1:9/ad.m3u8',
      }),
    );
    expect([decided.atOnce, decided.value]).to.deep.equal([true, null]);
  });

  it('leaves each answer whole for the client, which adopts it after the early video has read its copy', async () => {
    el = player();
    const response = answer(event());
    await run(el, { 'event:7': response });
    const body = (await (await response).json()) as { data: { id: number } };
    expect(body.data.id).to.equal(7);
  });

  it('is stopped and removed when the element does not come, and the host page’s own content shows again', async () => {
    el = player();
    const video = await run(el);
    releaseEarlyVideo(earlyVideoOf(el)!);
    expect(earlyVideoOf(el), 'released: nobody takes it over').to.equal(undefined);
    expect(video!.isConnected).to.equal(false);
    expect(video!.paused).to.equal(true);
    expect(video!.hasAttribute('src')).to.equal(false);
    expect(el.shadowRoot!.querySelector('slot'), 'a slot shows the loader’s message in the light DOM').to.not.equal(
      null,
    );
  });
});

describe('the early video’s handover (src/lib/early-video.ts)', () => {
  let el: HTMLElement;
  afterEach(() => el?.remove());

  /** What the loader leaves in a player: a root with a label, its video and something else. */
  function handedOver(): EarlyVideo {
    el = document.createElement('channel-player');
    document.body.appendChild(el);
    const root = el.attachShadow({ mode: 'open' });
    const label = document.createElement('div');
    const video = document.createElement('video');
    video.src = 'http://127.0.0.1:9/media/7/master.m3u8';
    root.append(label, video, document.createElement('slot'));
    const early: EarlyVideo = {
      stream: video.src,
      live: false,
      preroll: undefined,
      video,
      root,
      label,
      bar: undefined,
      startedAt: 1,
      framedAt: undefined,
      taken: false,
      rooted: false,
    };
    setEarlyVideo(el, early);
    return early;
  }

  it('gives the player’s element its root once, with the video and the label only', () => {
    const early = handedOver();
    expect(takeEarlyRoot(el)).to.equal(early.root);
    expect([...early.root.children]).to.deep.equal([early.label, early.video]);
    expect(takeEarlyRoot(el), 'once').to.equal(undefined);
    const plain = document.createElement('div');
    expect(takeEarlyRoot(plain), 'no early video, no root').to.equal(undefined);
  });

  it('keeps its bar in the root it gives the player, and drops the bar when released', () => {
    const early = handedOver();
    const element = document.createElement('div');
    let stops = 0;
    early.bar = {
      element,
      stop() {
        stops++;
        element.remove();
      },
    };
    early.root.append(element);
    takeEarlyRoot(el);
    expect([...early.root.children]).to.deep.equal([early.label, early.video, element]);
    releaseEarlyVideo(early);
    expect(stops).to.equal(1);
    expect(element.isConnected).to.equal(false);
    expect(early.bar).to.equal(undefined);
    dropEarlyBar(early);
    expect(stops, 'once').to.equal(1);
  });

  it('tells where in its bar the keyboard focus was when the bar goes, for the player’s bar to take it', () => {
    const early = handedOver();
    const video = document.createElement('video');
    early.bar = earlyBar(video, false, 'en');
    early.root.append(early.bar.element);
    early.bar.element.querySelector('select')!.focus();
    expect(earlyBarFocus(early)).to.equal('[part="speed"] select');
    dropEarlyBar(early);
    early.bar = earlyBar(video, false, 'en');
    early.root.append(early.bar.element);
    early.bar.element.querySelector<HTMLElement>('[part="button pip"]')?.focus();
    expect(earlyBarFocus(early)).to.equal(document.pictureInPictureEnabled ? '[part="button pip"]' : undefined);
    dropEarlyBar(early);
    early.bar = earlyBar(video, false, 'en');
    early.root.append(early.bar.element);
    expect(earlyBarFocus(early), 'no focus in the bar').to.equal(undefined);
  });

  it('is offered to the player’s stage only for the stream it was chosen for, started as the stage would', () => {
    const early = handedOver();
    const bridge = new MediaBridge(el);
    const start = { autoplay: true, muted: true, prefer: undefined, startAt: undefined };
    expect(bridge.takeEarlyVideo(early.stream, start)).to.equal(early);
    // A tag whose event changed before its code came plays another stream.
    expect(bridge.takeEarlyVideo('http://127.0.0.1:9/media/8/master.m3u8', start)).to.equal(undefined);
    for (const other of [{ autoplay: false }, { muted: false }, { prefer: 'mse' as const }, { startAt: 120 }])
      expect(bridge.takeEarlyVideo(early.stream, { ...start, ...other }), JSON.stringify(other)).to.equal(undefined);
    // Dropped by the view (it shows something else): stopped and gone, offered no more.
    bridge.dropEarlyVideo();
    expect(early.video.isConnected).to.equal(false);
    expect(bridge.takeEarlyVideo(early.stream, start)).to.equal(undefined);
  });

  it('is adopted once, and its adopter releases it where it put it: stopped, not removed', () => {
    const early = handedOver();
    takeEarlyRoot(el);
    const stage = document.createElement('div');
    early.root.appendChild(stage);
    stage.prepend(adoptEarlyVideo(early));
    expect(earlyVideoOf(el), 'adopted: offered to nobody else').to.equal(undefined);
    dropEarlyLabel(early);
    expect(early.label!.isConnected).to.equal(false);
    releaseEarlyVideo(early);
    expect(early.video.parentNode).to.equal(stage);
    expect(early.video.hasAttribute('src')).to.equal(false);
    expect(early.root.querySelector('slot'), 'the player shows, not the light DOM').to.equal(null);
  });
});
