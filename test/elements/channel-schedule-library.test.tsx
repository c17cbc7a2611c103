// Element tests of <channel-schedule kind="library">: the rails as carousels (titles, cards, widths, auto-scroll,
// its pauses), categories, search as you type, locked cards, previews, links and their public event, reloads on
// sign-in and purchase, French and axe. The channel API is a FakeServer (test/unit/helpers.ts); the element's
// timers (debounce, auto-scroll) are recorded through env() and fired by the tests.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { RETRY_DELAY_MS } from '../../src/api/client.js';
import { VodItemList, VodRail } from '../../src/api/contract.js';
import { RAIL_SCROLL_MS } from '../../src/components/library/options.js';
import { resetEnv, setEnv } from '../../src/lib/env.js';
import { ExpiringStorage, MemoryStorage } from '../../src/lib/storage.js';
import { entitlementsChanged } from '../../src/stores/commerce/entitlements.js';
import { SEARCH_DEBOUNCE_MS } from '../../src/stores/library.js';
import { resetSession } from '../../src/stores/session.js';
import { signIn } from '../../src/stores/sign-in.js';
import { start } from '../../elements/channel-schedule.js';
import { FakeServer, ok, type Recorded } from '../unit/helpers.js';
import { API, KEYS, startupRoutes } from './site-harness.js';
import {
  CATEGORIES,
  CATEGORY_ITEMS,
  RAILS,
  SEARCH_ITEMS,
  pagedItems,
  searchAnswer,
  stubReducedMotion,
  type Timers,
  recordTimers,
} from './library-fixtures.js';

declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function before(body: () => void | Promise<void>): void;
declare function beforeEach(body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

// The fixtures must satisfy the contract themselves, or a test could pass against data no server sends.
for (const rail of RAILS) VodRail.parse(rail);
VodItemList.parse({ data: [...CATEGORY_ITEMS, ...SEARCH_ITEMS], meta: { total: 1, offset: 0, limit: 12 } });

let server: FakeServer;
let timers: Timers;
let restoreMotion: (() => void) | undefined;

function library(srv: FakeServer): void {
  srv
    .on('GET', `${API}/vod-media-rails`, (req: Recorded) => ok(RAILS.map((r) => unlockFor(req, r))))
    .on('GET', `${API}/vod-media-categories`, ok(CATEGORIES))
    .on('GET', `${API}/vod-media-items`, pagedItems(CATEGORY_ITEMS))
    .on('GET', `${API}/vod-media/search`, searchAnswer(SEARCH_ITEMS));
}

/** A signed-in caller (a bearer token) may watch the register items: the answer says so, as the server would. */
function unlockFor(req: Recorded, rail: (typeof RAILS)[number]) {
  const signedIn = Boolean(req.headers.authorization);
  return {
    ...rail,
    vod_media_items: rail.vod_media_items.map((i) =>
      i.type === 'register' && signedIn ? { ...i, has_access: true } : i,
    ),
  };
}

type El = HTMLElement & { shadowRoot: ShadowRoot };
const $ = <T extends Element = HTMLElement>(el: Element, s: string) => (el as El).shadowRoot.querySelector<T>(s);
const $$ = <T extends Element = HTMLElement>(el: Element, s: string) => [
  ...(el as El).shadowRoot.querySelectorAll<T>(s),
];
const text = (el: Element) => (el as El).shadowRoot.textContent ?? '';
const rails = (el: Element) => $$(el, '[part~="library-rail"]');
const cards = (root: ParentNode) => [...root.querySelectorAll<HTMLAnchorElement>('[part~="library-card"]')];
const titles = (root: ParentNode) =>
  [...root.querySelectorAll('[part~="library-card-title"]')].map((n) => n.textContent);
const requests = (path: string) => server.to('GET', `${API}/${path}`);

async function shows(el: Element, words: string): Promise<void> {
  await waitUntil(() => text(el).includes(words), `expected "${words}" in "${text(el).slice(0, 300)}"`, {
    timeout: 4000,
  });
}

/** Renders the tag in a box of `width` CSS pixels and waits for its rails. */
async function render(attrs = '', width = 1200): Promise<El> {
  const box = await fixture<HTMLDivElement>(html`<div></div>`);
  box.style.width = `${width}px`;
  box.innerHTML = `<channel-schedule kind="library" ${attrs}></channel-schedule>`;
  const el = box.firstElementChild as El;
  await waitUntil(() => el.shadowRoot && rails(el).length > 0, 'the rails', { timeout: 4000 });
  return el;
}

/** Types into a React-controlled input as a person would (the value through the native setter, then `input`). */
function type(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

const searchInput = (el: Element) => $<HTMLInputElement>(el, '[part~="search-input"]')!;
const hover = (node: Element, on = true) =>
  node.dispatchEvent(new MouseEvent(on ? 'mouseover' : 'mouseout', { bubbles: true, composed: true }));

describe('<channel-schedule kind="library">', () => {
  before(() => {
    resetEnv();
    start({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
  });
  beforeEach(() => {
    resetSession();
    server = new FakeServer(() => Date.now());
    startupRoutes(server);
    library(server);
    setEnv({
      fetch: server.fetch,
      storage: new ExpiringStorage(
        () => new MemoryStorage(),
        () => Date.now(),
      ),
      logger: { error: () => undefined, warn: () => undefined, info: () => undefined },
    });
    timers = recordTimers();
  });
  afterEach(() => {
    restoreMotion?.();
    restoreMotion = undefined;
    resetEnv();
  });

  describe('rails', () => {
    it('renders each rail with its title and cards (empty rails left out), linking to /watch_library/{id}', async () => {
      const el = await render();
      expect($$(el, '[part~="library-rail-title"]').map((h) => h.textContent)).to.deep.equal([
        'Featured',
        'Hockey classics',
      ]);
      expect(titles(rails(el)[0]!)).to.deep.equal(RAILS[0]!.vod_media_items.map((i) => i.title));
      expect(cards(rails(el)[1]!).map((a) => a.getAttribute('href'))).to.deep.equal(
        RAILS[1]!.vod_media_items.map((i) => `/watch_library/${i.id}`),
      );
      expect(rails(el)[0]!.getAttribute('aria-roledescription')).to.equal('carousel');
      const first = cards(rails(el)[0]!)[0]!;
      expect(first.querySelector('img')!.getAttribute('src')).to.equal('/media/library/201.jpg');
      expect(first.querySelector('[part~="library-card-duration"]')!.textContent).to.equal('1:35');
      expect(first.querySelector('time')!.getAttribute('datetime')).to.equal('2026-03-14');
      expect(first.querySelector('time')!.textContent).to.equal('Mar 14, 2026');
      expect(requests('vod-media-rails')).to.have.length(1);
      await expect(el).shadowDom.to.be.accessible();
    });

    for (const [label, width] of [
      ['desktop', 1200],
      ['a 390 px phone', 390],
      ['a 300 px column', 300],
    ] as const) {
      it(`keeps card widths between 280 and 380 px on ${label}`, async () => {
        const el = await render('', width);
        const widths = cards(el.shadowRoot).map((a) => a.getBoundingClientRect().width);
        expect(widths.length).to.be.greaterThan(0);
        for (const w of widths) expect(w).to.be.within(280, 380);
        // On a phone a card is narrower than the screen, so the next one peeks in.
        if (width === 390) expect(widths[0]).to.be.below(360);
        if (width === 1200) expect(widths[0]).to.equal(380);
      });
    }

    it('moves one card on every 5,000 ms, back to the start after the last', async () => {
      const el = await render();
      const track = $$(el, '[part~="library-rail-track"]')[0]!;
      await waitUntil(() => timers.live(RAIL_SCROLL_MS).length === 2, 'one timer per rail');
      expect(RAIL_SCROLL_MS).to.equal(5_000);
      const step = cards(track)[0]!.getBoundingClientRect().width + 12;
      timers.fire(RAIL_SCROLL_MS);
      await waitUntil(() => Math.abs(track.scrollLeft - step) < 2, `scrolled one card (${track.scrollLeft})`);
      // Re-armed after each step; at the end it goes back to the first card.
      track.scrollTo({ left: track.scrollWidth, behavior: 'instant' });
      await waitUntil(() => timers.live(RAIL_SCROLL_MS).length === 2, 're-armed');
      timers.fire(RAIL_SCROLL_MS);
      await waitUntil(() => track.scrollLeft === 0, 'back to the start');
    });

    it('holds still while the pointer is over a rail or focus is inside it, and the pause button stops it', async () => {
      const el = await render();
      const [first] = rails(el);
      await waitUntil(() => timers.live(RAIL_SCROLL_MS).length === 2, 'one timer per rail');
      hover(cards(first!)[0]!);
      await waitUntil(() => timers.live(RAIL_SCROLL_MS).length === 1, 'the hovered rail has no timer');
      hover(cards(first!)[0]!, false);
      await waitUntil(() => timers.live(RAIL_SCROLL_MS).length === 2, 'rearmed on leaving');
      cards(first!)[1]!.focus();
      await waitUntil(() => timers.live(RAIL_SCROLL_MS).length === 1, 'the focused rail has no timer');
      cards(first!)[1]!.blur();
      await waitUntil(() => timers.live(RAIL_SCROLL_MS).length === 2, 'rearmed on blur');
      const pause = first!.querySelector<HTMLButtonElement>('[part~="rail-pause"]')!;
      expect(pause.getAttribute('aria-label')).to.equal('Stop scrolling Featured');
      pause.click();
      pause.blur();
      await waitUntil(() => pause.getAttribute('aria-label') === 'Scroll Featured by itself', 'paused');
      await waitUntil(() => timers.live(RAIL_SCROLL_MS).length === 1, 'no timer once paused');
    });

    it('does not move by itself, nor play previews, for a viewer who prefers reduced motion', async () => {
      restoreMotion = stubReducedMotion();
      const el = await render();
      await new Promise((r) => setTimeout(r, 100));
      expect(timers.live(RAIL_SCROLL_MS)).to.have.length(0);
      expect(timers.all(RAIL_SCROLL_MS)).to.have.length(0);
      const pause = rails(el)[0]!.querySelector('[part~="rail-pause"]')!;
      expect(pause.getAttribute('aria-label')).to.equal('Scroll Featured by itself');
      const card = cards(rails(el)[0]!)[0]!;
      hover(card);
      card.focus();
      await new Promise((r) => setTimeout(r, 50));
      expect(card.querySelector('video')).to.equal(null);
    });

    it('previous and next scroll by one card; arrow keys move focus between cards', async () => {
      const el = await render();
      const rail = rails(el)[0]!;
      const track = rail.querySelector<HTMLElement>('[part~="library-rail-track"]')!;
      const step = cards(track)[0]!.getBoundingClientRect().width + 12;
      rail.querySelector<HTMLButtonElement>('[part~="rail-next"]')!.click();
      await waitUntil(() => Math.abs(track.scrollLeft - step) < 2, 'next');
      rail.querySelector<HTMLButtonElement>('[part~="rail-previous"]')!.click();
      await waitUntil(() => track.scrollLeft === 0, 'previous');
      const links = cards(track);
      links[0]!.focus();
      links[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, composed: true }));
      expect(el.shadowRoot.activeElement).to.equal(links[1]);
      links[1]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true, composed: true }));
      expect(el.shadowRoot.activeElement).to.equal(links.at(-1));
      links.at(-1)!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, composed: true }));
      expect(el.shadowRoot.activeElement).to.equal(links.at(-2));
    });
  });

  describe('cards', () => {
    it('locked cards say what unlocks them; free and accessible ones say nothing', async () => {
      const el = await render();
      const locks = cards(rails(el)[1]!).map((a) => a.querySelector('[part~="library-card-lock"]')?.textContent ?? '');
      expect(locks).to.deep.equal(['', 'Sign in to watch', 'Subscribers and VOD members', '', '', '']);
    });

    it('an account without the watch right: every card but the free ones says only the channel unlocks it', async () => {
      const withheld = { id: 8, email: 'held@example.com', capabilities: ['vod_media_access'] };
      server.on('GET', `${API}/profile`, ok(withheld));
      signIn({ token: 'tok-held', user: withheld as never });
      for (const [attrs, words] of [
        ['', 'Not available to your account'],
        ['lang="fr"', 'Non disponible pour votre compte'],
      ] as const) {
        const el = await render(attrs);
        await waitUntil(() => cards(rails(el)[1]!).some((a) => a.querySelector('[part~="lock-account"]')), 'locks');
        // The rail's sign-up and paid items (the rest are free).
        const locks = cards(rails(el)[1]!).map(
          (a) => a.querySelector('[part~="library-card-lock"]')?.textContent ?? '',
        );
        expect(locks, attrs).to.deep.equal(['', words, words, '', '', '']);
        el.parentElement!.remove();
      }
    });

    it('switches to the muted, looping preview on hover or focus, loaded only then', async () => {
      const el = await render();
      const card = cards(rails(el)[0]!)[0]!;
      expect(card.querySelector('video'), 'no preview before').to.equal(null);
      hover(card);
      await waitUntil(() => card.querySelector('video'), 'the preview on hover');
      const video = card.querySelector('video')!;
      expect(video.querySelector('source')!.getAttribute('src')).to.equal('/media/library/201.mp4');
      expect(video.getAttribute('controlslist'), 'no download').to.equal('nodownload noremoteplayback');
      expect(video.muted).to.equal(true);
      expect(video.loop).to.equal(true);
      expect(video.playsInline).to.equal(true);
      expect(video.getAttribute('aria-hidden')).to.equal('true');
      hover(card, false);
      await waitUntil(() => !card.querySelector('video'), 'gone on leaving');
      card.focus();
      await waitUntil(() => card.querySelector('video'), 'the preview on focus');
      card.blur();
      await waitUntil(() => !card.querySelector('video'), 'gone on blur');
    });

    it('fires channel-vod-select (bubbling, composed, cancelable); cancelling it keeps the link from being followed', async () => {
      const el = await render();
      const seen: CustomEvent[] = [];
      let prevented: boolean | undefined;
      const onSelect = (e: Event) => {
        seen.push(e as CustomEvent);
        e.preventDefault();
      };
      const onClick = (e: MouseEvent) => {
        prevented = e.defaultPrevented;
        e.preventDefault();
      };
      document.addEventListener('channel-vod-select', onSelect);
      window.addEventListener('click', onClick);
      try {
        cards(rails(el)[0]!)[1]!.click();
      } finally {
        document.removeEventListener('channel-vod-select', onSelect);
        window.removeEventListener('click', onClick);
      }
      expect(seen).to.have.length(1);
      expect(seen[0]!.detail).to.deep.equal({ id: 202 });
      expect([seen[0]!.bubbles, seen[0]!.composed, seen[0]!.cancelable]).to.deep.equal([true, true, true]);
      expect(prevented).to.equal(true);
    });

    it('fills a watch-url template; a javascript: one is refused with a notice', async () => {
      const el = await render('watch-url="/videos/{id}?from=cms"');
      expect(cards(el.shadowRoot)[0]!.getAttribute('href')).to.equal('/videos/201?from=cms');
      const bad = await render('watch-url="javascript:alert(1)"');
      expect(cards(bad.shadowRoot)[0]!.getAttribute('href')).to.equal('/watch_library/201');
      expect($(bad, '[part~="notice"]')!.textContent).to.equal(
        'Ignored watch-url="javascript:alert(1)": a URL template such as /watch_library/{id}.',
      );
    });
  });

  describe('categories', () => {
    it('a chip shows its category in a grid, 12 at a time with "Show more"; All brings the rails back', async () => {
      const el = await render();
      await waitUntil(() => $$(el, '[part~="category"]').length === 3, 'All and two categories');
      const chips = $$<HTMLButtonElement>(el, '[part~="category"]');
      expect(chips.map((c) => [c.textContent, c.getAttribute('aria-pressed')])).to.deep.equal([
        ['All', 'true'],
        ['Basketball', 'false'],
        ['Hockey', 'false'],
      ]);
      chips[1]!.click();
      const grid = () => $(el, '[part~="category-items"] [part~="library-grid"]');
      await waitUntil(() => grid() && cards(grid()!).length === 12, '12 cards');
      expect(rails(el)).to.have.length(0);
      expect(requests('vod-media-items').map((r) => r.query)).to.deep.include({
        vod_media_category_id: '1',
        limit: '12',
        offset: '0',
        api_key: 'ak-123',
      });
      expect($(el, '[part~="count"]')!.textContent).to.equal('14 videos');
      expect(chips[1]!.getAttribute('aria-pressed')).to.equal('true');
      await expect(el).shadowDom.to.be.accessible();
      $<HTMLButtonElement>(el, '[part~="more"]')!.click();
      await waitUntil(() => cards(grid()!).length === 14, 'all 14');
      expect(requests('vod-media-items').at(-1)!.query.offset).to.equal('12');
      expect($(el, '[part~="more"]')).to.equal(null);
      chips[0]!.click();
      await waitUntil(() => rails(el).length === 2, 'the rails again');
    });

    it('category="hockey" opens that category first (by alias)', async () => {
      const el = await fixture(html`<channel-schedule kind="library" category="hockey"></channel-schedule>`);
      await waitUntil(() => requests('vod-media-items').length > 0, 'the category asked for');
      expect(requests('vod-media-items')[0]!.query.vod_media_category_id).to.equal('2');
      await waitUntil(() => $(el, '[part~="category"][aria-pressed="true"]')?.textContent === 'Hockey');
    });
  });

  describe('search', () => {
    it('searches as you type: ONE request after the debounce, with title, limit, offset and sort_field', async () => {
      const el = await render();
      const input = searchInput(el);
      expect(input.labels?.[0]?.textContent).to.equal('Search videos');
      type(input, 'c');
      type(input, 'cl');
      type(input, 'cla');
      await new Promise((r) => setTimeout(r, 50));
      expect(requests('vod-media/search'), 'nothing before the debounce').to.have.length(0);
      expect(timers.live(SEARCH_DEBOUNCE_MS)).to.have.length(1);
      expect(SEARCH_DEBOUNCE_MS).to.equal(300);
      timers.fire(SEARCH_DEBOUNCE_MS);
      await waitUntil(() => requests('vod-media/search').length === 1, 'one search');
      const { api_key: _key, ...query } = requests('vod-media/search')[0]!.query;
      expect(query).to.deep.equal({ title: 'cla', limit: '10', offset: '0', sort_field: 'date' });
      await waitUntil(() => $(el, '[part~="results"] [part~="library-grid"]'), 'results');
      expect(rails(el), 'results replace the rails').to.have.length(0);
      expect(titles($(el, '[part~="results"]')!)).to.deep.equal(['Classic 1', 'Classic 2', 'Classic 3']);
      await waitUntil(() => $(el, '[part~="search-status"]')!.textContent === '3 videos found', 'announced');
      expect($(el, '[part~="search-status"]')!.getAttribute('aria-live')).to.equal('polite');
      await expect(el).shadowDom.to.be.accessible();
      // Clearing the field brings the rails back.
      type(input, '');
      await waitUntil(() => rails(el).length === 2, 'the rails again');
      expect(requests('vod-media/search')).to.have.length(1);
    });

    it('"Show more" loads the next 10 results', async () => {
      const el = await render();
      type(searchInput(el), 'game');
      timers.fire(SEARCH_DEBOUNCE_MS);
      await waitUntil(() => cards($(el, '[part~="results"]') ?? el.shadowRoot).length === 10, 'the first 10');
      $<HTMLButtonElement>(el, '[part~="results"] [part~="more"]')!.click();
      await waitUntil(() => cards($(el, '[part~="results"]')!).length === 14, 'all 14');
      const { api_key: _key, ...query } = requests('vod-media/search').at(-1)!.query;
      expect(query).to.deep.equal({ title: 'game', limit: '10', offset: '10', sort_field: 'date' });
      expect($(el, '[part~="results"] [part~="more"]')).to.equal(null);
      // The button is gone with the list complete: focus is on the first new card, not lost to the page.
      const eleventh = cards($(el, '[part~="results"]')!)[10]!;
      await waitUntil(() => el.shadowRoot!.activeElement === eleventh, 'focus on the first new card');
    });

    it('cancels a search the viewer has typed past, and never shows its answer', async () => {
      const el = await render();
      const late = searchAnswer(SEARCH_ITEMS);
      let first: Recorded | undefined;
      server.on('GET', `${API}/vod-media/search`, async (req: Recorded) => {
        if (!first) {
          first = req;
          await new Promise((r) => setTimeout(r, 300));
        }
        return late(req);
      });
      type(searchInput(el), 'classic');
      timers.fire(SEARCH_DEBOUNCE_MS);
      await waitUntil(() => first, 'the first search sent');
      type(searchInput(el), 'game 1');
      expect(first!.signal!.aborted, 'the stale request is cancelled').to.equal(true);
      timers.fire(SEARCH_DEBOUNCE_MS);
      await waitUntil(() => titles($(el, '[part~="results"]') ?? el.shadowRoot).length > 0, 'results');
      await new Promise((r) => setTimeout(r, 350));
      expect(titles($(el, '[part~="results"]')!).every((t) => t!.startsWith('Game 1'))).to.equal(true);
    });

    it('says when nothing matches, visibly and to screen readers', async () => {
      const el = await render();
      type(searchInput(el), 'zzz');
      timers.fire(SEARCH_DEBOUNCE_MS);
      await shows(el, 'No videos match “zzz”');
      expect($(el, '[part~="results"] [part~="empty"]')!.textContent).to.equal('No videos match “zzz”');
      expect($(el, '[part~="search-status"]')!.textContent).to.equal('No videos match “zzz”');
      await expect(el).shadowDom.to.be.accessible();
    });
  });

  describe('access changes', () => {
    it('a sign-in fetches the rails again and the register item unlocks; a purchase fetches them again', async () => {
      const el = await render();
      await waitUntil(() => text(el).includes('Sign in to watch'), 'locked');
      server.on('GET', `${API}/profile`, ok({ id: 7, email: 'fan@example.com', capabilities: ['watch'] }));
      signIn({ token: 'tok-fan', user: { id: 7, email: 'fan@example.com', capabilities: ['watch'] } as never });
      await waitUntil(() => requests('vod-media-rails').length === 2, 'rails again');
      expect(requests('vod-media-rails')[1]!.headers.authorization).to.equal('Bearer tok-fan');
      await waitUntil(() => !text(el).includes('Sign in to watch'), 'unlocked');
      expect(text(el)).to.not.include('Not available to your account');
      entitlementsChanged();
      await waitUntil(() => requests('vod-media-rails').length === 3, 'rails after a purchase');
    });
  });

  describe('states and language', () => {
    it('a failed rails call says so with Try again, which loads them', async () => {
      const down = { status: 500, body: { message: 'down' } };
      server.on('GET', `${API}/vod-media-rails`, down, down, ok(RAILS));
      const box = await fixture(html`<channel-schedule kind="library"></channel-schedule>`);
      // The client asks a 5xx once more after RETRY_DELAY_MS.
      await waitUntil(() => timers.live(RETRY_DELAY_MS).length === 1, 'the retry');
      timers.fire(RETRY_DELAY_MS);
      await waitUntil(() => $(box, '[part~="error"]'), 'the error');
      expect($(box, '[part~="error"]')!.textContent).to.contain('The library could not be loaded.');
      await expect(box).shadowDom.to.be.accessible();
      $<HTMLButtonElement>(box, '[part~="error"] button')!.click();
      await waitUntil(() => rails(box).length === 2, 'the rails');
    });

    it('lang="fr" speaks French', async () => {
      const el = await render('lang="fr"');
      await shows(el, 'Vidéothèque');
      expect(searchInput(el).labels?.[0]?.textContent).to.equal('Rechercher des vidéos');
      await shows(el, 'Abonnés et membres vidéo sur demande');
      await shows(el, 'Connectez-vous pour regarder');
      expect(cards(el.shadowRoot)[0]!.querySelector('time')!.textContent).to.equal('14 mars 2026');
      type(searchInput(el), 'zzz');
      timers.fire(SEARCH_DEBOUNCE_MS);
      await shows(el, 'Aucune vidéo ne correspond à « zzz »');
    });

    it('kind="library" leaves the events alone: no events request', async () => {
      await render();
      expect(server.to('GET', `${API}/events`)).to.have.length(0);
    });
  });
});
