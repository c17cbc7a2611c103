// The XSS corpus (test/faults/xss-vectors.ts) through every place where API text reaches the screen, by rewriting the
// reference server's answers in flight (`page.route`): event, team, school and category names, the site's menu,
// slides, footer blocks, FAQ and content pages, clips, the library, offers, the server's error messages and the host
// page's own attributes. Each page load carries many vectors at once (a different one in each event, item or block).
//
// A vector executes when it calls the detector the test planted (`__xssHit(n)`); a dialog, a popup, a navigation to
// a script URL, an uncaught error (the fixtures fail on page errors), a surviving `on*` attribute, script or frame
// in our shadow roots, or a `javascript:`/`data:` URL left in a link or source also count against it. Each sink's
// texts must be seen on the screen too (as text, or as sanitized HTML whose marker shows), so a sink that stopped
// rendering fails rather than passes. The negative control puts the same corpus through unsanitized `innerHTML`,
// `href` and a naive template on a page of its own and proves the detector sees executions there.
//
// Every page here bypasses the demo pages' Content-Security-Policy (`bypassCSP`): the policy would block inline
// handlers and `javascript:` URLs by itself, and what is under test is our sanitizing, not the host's policy.
//
// `npm test` runs a sample of the corpus on every sink (untagged); `npm run test:faults` adds the whole corpus
// (`@full`).
import type { BrowserContext, Locator, Page, Route } from '@playwright/test';
import { expect, test } from '../e2e/fixtures.js';
import { BUNDLE_ORIGIN, demoEventIds, HOST_ORIGIN, registerViewer } from '../e2e/helpers.js';
import { DETECTOR, XSS_VECTORS, vectorsFor, type XssVector } from './xss-vectors.js';

test.use({
  bypassCSP: true,
  // A link or icon that keeps an http(s) address of the corpus (example.com) cannot load offline; nothing else.
  // The sign-in form's answers are 422s on purpose; a content page's image or link to a site path of the corpus
  // (`/x"...`, `/\tjavascript:...`, which are paths, not scripts) is a 404 of the server.
  // (One pattern: Playwright would read a list of two as a value and its options.)
  allowConsoleErrors: [
    /net::ERR_NAME_NOT_RESOLVED|net::ERR_INTERNET_DISCONNECTED|status of 422|status of 404 \(Not Found\) \(http:\/\/localhost:\d+\/(x%|javascript:)/,
  ],
});

// ---------------------------------------------------------------- the detector

/** What the watchers saw: detector calls (vector numbers), dialogs, popups and script navigations. */
interface Watch {
  hits: number[];
  dialogs: string[];
  navigations: string[];
}

/** Plants `__xssHit` in every frame of the context and watches for dialogs, popups and script navigations. */
async function plantDetector(context: BrowserContext, page: Page): Promise<Watch> {
  const watch: Watch = { hits: [], dialogs: [], navigations: [] };
  await context.exposeBinding(DETECTOR, (_source, n: unknown) => {
    watch.hits.push(Number(n));
  });
  const follow = (p: Page) => {
    p.on('dialog', (dialog) => {
      watch.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    p.on('framenavigated', (frame) => {
      if (!/^(https?:|about:blank)/.test(frame.url())) watch.navigations.push(frame.url());
    });
  };
  follow(page);
  context.on('page', (p) => {
    watch.navigations.push(`a new page opened: ${p.url()}`);
    follow(p);
  });
  return watch;
}

/** What one look at the page found: texts per sink, and anything live that should not be. */
interface Look {
  texts: Record<string, string>;
  live: string[];
}

/**
 * Walks the document and every shadow root inside it: the normalized text (and labels) of the elements each sink's
 * selector matches, and what could run: `on*` attributes, script, frame and object elements in shadow roots, and
 * script or data URLs in any link, form or source.
 */
async function look(page: Page, sinks: Record<string, string>): Promise<Look> {
  return page.evaluate((selectors) => {
    const norm = (s: string) => s.replace(/[\s\p{Cc}]+/gu, ' ').trim();
    const roots: (Document | ShadowRoot)[] = [document];
    for (let i = 0; i < roots.length; i++) {
      for (const el of roots[i]!.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    const texts: Record<string, string> = {};
    for (const [sink, selector] of Object.entries(selectors)) {
      const parts: string[] = [];
      for (const root of roots) {
        for (const el of root.querySelectorAll(selector)) {
          parts.push(el.textContent ?? '');
          for (const name of ['label', 'title', 'aria-label', 'alt']) {
            const value = el.getAttribute(name);
            if (value) parts.push(value);
          }
        }
      }
      texts[sink] = norm(parts.join(' \u241e '));
    }
    const live: string[] = [];
    const urlAttributes = ['href', 'xlink:href', 'src', 'action', 'formaction', 'data', 'poster', 'background', 'ping'];
    roots.forEach((root, i) => {
      const where = i === 0 ? 'page' : `shadow root of <${(root as ShadowRoot).host.localName}>`;
      for (const el of root.querySelectorAll('*')) {
        const tag = el.localName;
        if (i > 0 && ['script', 'iframe', 'frame', 'object', 'embed', 'base', 'meta', 'applet'].includes(tag))
          live.push(`<${tag}> in the ${where}`);
        if (tag === 'script' && i === 0 && !el.getAttribute('src') && el.getAttribute('type') !== 'application/ld+json')
          live.push(`an inline <script> in the page: ${el.textContent?.slice(0, 80)}`);
        for (const attr of el.attributes) {
          const name = attr.name.toLowerCase();
          if (name.startsWith('on')) live.push(`<${tag} ${name}="${attr.value.slice(0, 60)}"> in the ${where}`);
          if (name === 'srcdoc') live.push(`<${tag} srcdoc> in the ${where}`);
          if (!urlAttributes.includes(name)) continue;
          // What a browser reads: leading and trailing controls and spaces dropped, tabs and newlines anywhere.
          let url = attr.value.replace(/[\t\n\r]/g, '').toLowerCase();
          while (url && url.charCodeAt(0) <= 0x20) url = url.slice(1);
          // Inline data is a document only where a browser would open or run it (not an image, icon or media).
          const inert = ['img', 'link', 'source', 'video', 'audio', 'track', 'picture'].includes(tag);
          if (/^(javascript|vbscript):/.test(url) || (url.startsWith('data:') && !inert))
            live.push(`<${tag} ${name}="${attr.value.slice(0, 60)}"> in the ${where}`);
        }
      }
    });
    return { texts, live };
  }, sinks);
}

/**
 * Looks while scrolling the page from top to bottom, a viewport at a time: long lists render only the cards near
 * the viewport (the schedule's windowing), so each sink's texts are gathered over the whole way down.
 */
async function lookAll(page: Page, sinks: Record<string, string>): Promise<Look> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const all: Look = { texts: {}, live: [] };
  for (let step = 0; step < 400; step++) {
    const found = await look(page, sinks);
    for (const [sink, text] of Object.entries(found.texts)) all.texts[sink] = `${all.texts[sink] ?? ''} ${text}`;
    all.live.push(...found.live.filter((l) => !all.live.includes(l)));
    const moved = await page.evaluate(async () => {
      const before = window.scrollY;
      window.scrollBy(0, window.innerHeight);
      // Two frames: the window's scroll listener commits the next blocks.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return window.scrollY > before;
    });
    if (!moved) break;
  }
  return all;
}

const norm = (s: string) => s.replace(/[\s\p{Cc}]+/gu, ' ').trim();

/** The vectors whose text (or marker) a sink does not show. */
function missing(look: Look, sink: string, vectors: readonly XssVector[], shown = (v: XssVector) => v.text): string[] {
  const text = look.texts[sink] ?? '';
  return vectors.filter((v) => !text.includes(norm(shown(v)))).map((v) => `#${v.n} ${v.label}`);
}

/** Waits for late handlers (image errors, animations, focus), then asserts that nothing ran. */
async function expectNothingRan(page: Page, watch: Watch, found: Look): Promise<void> {
  await page.waitForTimeout(800);
  const after = await look(page, {});
  expect(watch.hits, 'vectors that called the detector (their numbers)').toEqual([]);
  expect(watch.dialogs, 'dialogs opened').toEqual([]);
  expect(watch.navigations, 'script navigations or new pages').toEqual([]);
  expect([...new Set([...found.live, ...after.live])], 'live markup or script URLs in the page').toEqual([]);
  // The detector itself was not clobbered away by a vector's id or name.
  expect(await page.evaluate((name) => typeof (window as unknown as Record<string, unknown>)[name], DETECTOR)).toBe(
    'function',
  );
}

/** Records the figure of a case: vectors x sinks, and what ran. */
function report(vectorsBySink: Record<string, number>): void {
  const sinks = Object.keys(vectorsBySink).length;
  const total = Object.values(vectorsBySink).reduce((a, b) => a + b, 0);
  const line = `${total} vector placements over ${sinks} sinks (${Object.entries(vectorsBySink)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ')}), 0 executions`;
  test.info().annotations.push({ type: 'xss', description: line });
  console.log(`xss: ${test.info().title}: ${line}`);
}

// ---------------------------------------------------------------- rewriting answers

/** Answers requests whose path matches with the real answer's JSON changed by `change`. */
async function rewrite(
  page: Page,
  path: RegExp,
  change: (json: Record<string, unknown>, url: URL) => unknown,
  method = 'GET',
): Promise<void> {
  await page.route(
    (url) => url.origin === BUNDLE_ORIGIN && path.test(url.pathname),
    async (route: Route) => {
      if (route.request().method() !== method) return route.fallback();
      const response = await route.fetch();
      const json = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: change(json, new URL(route.request().url())) });
    },
  );
}

/**
 * Opens the demo page whose tags come later (dynamic.html, the loader alone) and puts our elements in it: the
 * host's own markup, the elements' code loading as they appear.
 */
async function openHostPage(page: Page, body: string): Promise<void> {
  await page.goto(`${BUNDLE_ORIGIN}/dynamic.html`);
  await page.evaluate((markup) => {
    document.querySelector('#slot')!.innerHTML = markup;
  }, body);
}

/** Signs a fresh viewer in before any page script runs. */
async function signedIn(page: Page, request: Parameters<typeof registerViewer>[0]): Promise<void> {
  const { token } = await registerViewer(request, 'xss');
  await page.addInitScript(
    (value) => localStorage.setItem('rudy_token.demo', JSON.stringify({ v: value, e: Date.now() + 3_600_000 })),
    token,
  );
}

const NOW = Math.floor(Date.now() / 1000);

/** Whether a text is an absolute http(s) URL: what the navigation rule lets through (src/lib/url-rules.ts). */
function absoluteHttp(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}
const id = (base: number, v: XssVector) => base + v.n;

// ---------------------------------------------------------------- the sinks

for (const full of [false, true]) {
  const scope = full ? 'the whole corpus' : 'a sample';
  const details = full ? { tag: '@full' } : {};
  const text = vectorsFor('text', !full);
  const html = vectorsFor('html', !full);
  const urls = vectorsFor('url', !full);
  /** The URL vector for the i-th item (the URL vectors are fewer than the items they go with). */
  const urlAt = (i: number) => urls[i % urls.length]!;

  test.describe(`XSS corpus, ${scope}`, () => {
    test.describe.configure({ timeout: full ? 180_000 : 60_000 });
    // Tall pages take fewer steps to look through.
    test.use({ viewport: { width: 1280, height: 2400 } });

    test(
      `schedule: event, team, category and venue names and the filters' options`,
      details,
      async ({ page, context }) => {
        const watch = await plantDetector(context, page);
        await rewrite(page, /^\/api\/events$/, (json) => {
          const list = json as { data: Record<string, unknown>[]; meta: Record<string, number> };
          const template = list.data[0]!;
          const base = {
            ...template,
            type: 'free',
            stream_status: 'upcoming',
            media: [],
            image: null,
            has_access: true,
          };
          const data = text.flatMap((v, i) => [
            {
              ...base,
              id: id(100_000, v),
              event_utc_ts: NOW + 86_400 + i * 60,
              name: v.text,
              description: v.text,
              participants: [],
              category: { id: 900_000 + v.n, name: v.text },
              location: { id: 900_000 + v.n, name: v.text, city: v.text, state: null, time_zone: null },
            },
            {
              ...base,
              id: id(200_000, v),
              event_utc_ts: NOW + 86_400 + i * 60 + 30,
              name: `teams ${v.n}`,
              participants: [
                { id: id(300_000, v), name: v.text, short_name: null },
                { id: id(400_000, v), name: v.text, short_name: null },
              ],
              home_team_id: id(400_000, v),
              category: null,
              location: null,
            },
          ]);
          return { data, meta: { ...list.meta, total: data.length, offset: 0, limit: data.length } };
        });
        await rewrite(page, /^\/api\/events-categories$/, () => ({
          data: text.map((v) => ({ id: id(500_000, v), name: v.text, sport: `sport-${v.n}`, children: [] })),
        }));
        await rewrite(page, /^\/api\/events-locations$/, () => ({
          data: text.map((v) => ({ id: id(600_000, v), name: v.text, city: v.text, state: `state ${v.n}` })),
        }));
        await rewrite(page, /^\/api\/participant-group-properties$/, () => ({
          data: [{ name: 'conference', values: text.map((v) => v.text) }],
        }));
        await openHostPage(
          page,
          '<channel-schedule kind="all" limit="5000" show-filters structured-data></channel-schedule>',
        );
        const schedule = page.locator('channel-schedule');
        await expect(schedule.locator('[part~="event-link"]').first()).toBeVisible({ timeout: 20_000 });
        await expect(schedule.locator('[part~="filters"] select').first()).toBeVisible();
        await expect
          .poll(async () => schedule.locator('[part~="filters"] option').count(), { timeout: 10_000 })
          .toBeGreaterThan(text.length * 2);
        const found = await lookAll(page, {
          names: '[part~="event-name"]',
          meta: '[part~="event"] .meta',
          filters: '[part~="filters"]',
        });
        expect(missing(found, 'names', text), 'event names not shown').toEqual([]);
        expect(
          missing(found, 'names', text, (v) => `${norm(v.text)} @ ${norm(v.text)}`),
          'team names not shown',
        ).toEqual([]);
        expect(
          missing(found, 'meta', text, (v) => `${norm(v.text)} · ${norm(v.text)}`),
          'category and city',
        ).toEqual([]);
        expect(missing(found, 'filters', text), "filters' options (sport, city, conference)").toEqual([]);
        // The names also went into the host page's head as JSON-LD (structured-data): as data, whole, never as markup.
        // (Written at an idle moment after the events show.)
        await expect(page.locator('head script[type="application/ld+json"]')).not.toHaveCount(0);
        const graphs = await page.evaluate(() =>
          [...document.head.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent ?? ''),
        );
        const strings = new Set<string>();
        const collect = (value: unknown): void => {
          if (typeof value === 'string') strings.add(value);
          else if (value && typeof value === 'object') Object.values(value).forEach(collect);
        };
        graphs.forEach((json) => collect(JSON.parse(json)));
        expect(
          text.filter((v) => !strings.has(v.text)).map((v) => `#${v.n} ${v.label}`),
          'JSON-LD names',
        ).toEqual([]);
        await expectNothingRan(page, watch, found);
        report({
          'event name': text.length,
          'team name': text.length,
          'category name': text.length,
          'venue city': text.length,
          'sport filter': text.length,
          'city filter': text.length,
          'school property filter': text.length,
        });
      },
    );

    test(
      `profile favourites: team, school and sport names in the pickers and the favourites' names`,
      details,
      async ({ page, context, request }) => {
        const watch = await plantDetector(context, page);
        await signedIn(page, request);
        const named = (base: number) => text.map((v) => ({ id: id(base, v), name: v.text }));
        await rewrite(page, /^\/api\/participants$/, () => ({
          data: named(300_000).map((t) => ({ ...t, short_name: null, children: [] })),
        }));
        await rewrite(page, /^\/api\/participant-groups$/, () => ({ data: named(310_000) }));
        await rewrite(page, /^\/api\/events-categories$/, () => ({ data: named(320_000) }));
        await rewrite(page, /^\/api\/favorites$/, () => {
          const of = (type: string, base: number) =>
            text.map((v) => ({ id: id(base, v), favoritable_id: id(base, v), favoritable_type: type, name: v.text }));
          return {
            data: {
              participant: of('participant', 330_000),
              participant_group: of('group', 340_000),
              event_category: of('category', 350_000),
              favorite_event: [],
              event_location: [],
            },
          };
        });
        await openHostPage(page, '<channel-profile section="favourites"></channel-profile>');
        const profile = page.locator('channel-profile');
        await expect(profile.locator('[part~="favourite"]')).toHaveCount(text.length * 3, { timeout: 20_000 });
        const kind = (k: string) => `[part~="favourite-group"][data-kind="${k}"]`;
        // Each picker fills from its own answer: all three before they are read.
        for (const picker of ['participant', 'participant_group', 'event_category'])
          await expect
            .poll(() => profile.locator(`${kind(picker)} option`).count(), { timeout: 10_000 })
            .toBeGreaterThan(text.length);
        const found = await look(page, {
          teams: `${kind('participant')} select`,
          schools: `${kind('participant_group')} select`,
          sports: `${kind('event_category')} select`,
          favourites: '[part~="favourite"]',
        });
        for (const sink of ['teams', 'schools', 'sports', 'favourites'])
          expect(missing(found, sink, text), `${sink} not shown`).toEqual([]);
        await expectNothingRan(page, watch, found);
        report({
          'team picker': text.length,
          'school picker': text.length,
          'sport picker': text.length,
          'favourite names': text.length * 3,
        });
      },
    );

    test(`profile clips: clip names and their events' names`, details, async ({ page, context, request }) => {
      const watch = await plantDetector(context, page);
      await signedIn(page, request);
      await rewrite(page, /^\/api\/clips\/user$/, () => ({
        data: text.map((v, i) => ({
          id: id(800_000, v),
          uuid: null,
          event_id: 1,
          name: v.text,
          start_time: 0,
          duration: 10,
          tags: [v.text],
          status: 'failed',
          created_at: NOW - i,
          event: { id: 1, name: v.text, event_utc_ts: NOW - 86_400, image: null },
          media: [],
        })),
      }));
      await openHostPage(page, '<channel-profile section="clips"></channel-profile>');
      const profile = page.locator('channel-profile');
      await expect(profile.locator('[part~="clip"]')).toHaveCount(text.length, { timeout: 20_000 });
      const found = await look(page, { names: '[part~="clip"] .row-name', events: '[part~="clip"] .row-kind' });
      expect(missing(found, 'names', text), 'clip names not shown').toEqual([]);
      expect(missing(found, 'events', text), "clips' event names not shown").toEqual([]);
      await expectNothingRan(page, watch, found);
      report({ 'clip name': text.length, "clip's event name": text.length });
    });

    test(`library: rail titles, item titles and category names`, details, async ({ page, context }) => {
      const watch = await plantDetector(context, page);
      const item = (v: XssVector, i: number) => ({
        id: id(810_000, v),
        title: v.text,
        date: '2026-01-01',
        type: 'free',
        has_access: true,
        duration: 90,
        description: v.text,
        // Its picture and preview loop: URL vectors, which a card must not load.
        assets: [
          { type: 'image', path: urlAt(i).text },
          { type: 'preview', path: urlAt(i + 1).text },
        ],
        media: [],
      });
      await rewrite(page, /^\/api\/vod-media-rails$/, () => ({
        data: text.map((v, i) => ({ id: id(0, v), title: v.text, vod_media_items: [item(v, i)] })),
      }));
      await rewrite(page, /^\/api\/vod-media-categories$/, () => ({
        data: text.map((v) => ({ id: id(820_000, v), name: v.text, alias: null, items_count: 1 })),
      }));
      await openHostPage(page, '<channel-schedule kind="library"></channel-schedule>');
      const library = page.locator('channel-schedule');
      await expect(library.locator('[part~="library-card"]').first()).toBeVisible({ timeout: 20_000 });
      await expect(library.locator('[part~="category"]')).toHaveCount(text.length + 1);
      // The library renders every rail and card at once (no windowing), so one look sees them all.
      const found = await look(page, {
        rails: '[part~="library"] section h3, [part~="library"] section h2',
        cards: '[part~="library-card-title"]',
        categories: '[part~="categories"]',
      });
      expect(missing(found, 'cards', text), 'item titles not shown').toEqual([]);
      expect(missing(found, 'categories', text), 'category names not shown').toEqual([]);
      expect(missing(found, 'rails', text), 'rail titles not shown').toEqual([]);
      await expectNothingRan(page, watch, found);
      report({
        'rail title': text.length,
        'item title': text.length,
        'library category': text.length,
        'item picture': text.length,
      });
    });

    test(`checkout's offers: package and subscription names`, details, async ({ page, context }) => {
      const watch = await plantDetector(context, page);
      await rewrite(page, /^\/api\/packages$/, () => ({
        data: text.map((v) => ({
          id: id(830_000, v),
          name: v.text,
          description: v.text,
          price: 9.99,
          event_categories: [],
          participants: [],
          is_team_pass: false,
          type: 'category',
        })),
      }));
      await rewrite(page, /^\/api\/subscriptions$/, () => ({
        data: text.map((v) => ({ id: id(840_000, v), name: v.text, price: 4.99, offer: 'monthly', period: 'month' })),
      }));
      await openHostPage(page, '<channel-checkout></channel-checkout>');
      const checkout = page.locator('channel-checkout');
      await expect(checkout.locator('[part~="offers"] li')).toHaveCount(text.length * 2, { timeout: 20_000 });
      const found = await look(page, { offers: '[part~="offers"]' });
      expect(missing(found, 'offers', text), 'offer names not shown').toEqual([]);
      await expectNothingRan(page, watch, found);
      report({ 'package name': text.length, 'subscription name': text.length });
    });

    test(
      `site: menu names, links and icons, slides, footer blocks, FAQ and a content page's blocks`,
      details,
      async ({ page, context }) => {
        const watch = await plantDetector(context, page);
        const blocks = Object.fromEntries(text.map((v) => [`k${v.n}`, v.text]));
        await rewrite(page, /^\/api\/settings$/, (json) => {
          const settings = json as { data: Record<string, unknown> };
          return { data: { ...settings.data, static_blocks: { xss: blocks } } };
        });
        await rewrite(page, /^\/api\/menu$/, () => ({
          data: text.map((v, i) => ({
            id: id(850_000, v),
            name: v.text,
            url: urlAt(i).text,
            custom_icon: urlAt(i + 1).text,
            type: 'link',
          })),
        }));
        await rewrite(page, /^\/api\/slides\/web$/, () => ({
          data: text.map((v, i) => ({
            id: id(860_000, v),
            title: v.text,
            link: urlAt(i).text,
            image: urlAt(i + 2).text,
            slidable_type: 'main',
          })),
        }));
        await rewrite(page, /^\/api\/faq$/, () => ({
          data: text.map((v) => ({
            id: id(870_000, v),
            question: v.text,
            answer: `<p>answer ${v.n}</p>${v.shape === 'url' ? '' : v.text}`,
          })),
        }));
        await rewrite(page, /^\/api\/pages$/, (json) => ({
          data: [...(json.data as unknown[]), { id: 99_999, name: 'XSS corpus', alt_name: null, url: '/xss-corpus' }],
        }));
        await page.route(`${BUNDLE_ORIGIN}/api/pages/xss-corpus?*`, (route) =>
          route.fulfill({
            json: {
              data: {
                id: 99_999,
                name: 'XSS corpus',
                url: '/xss-corpus',
                blocks: [
                  ...html.map((v) => ({ type: 'paragraph', html: `<p>block ${v.n}</p>${v.text}` })),
                  ...urls.map((v) => ({ type: 'image', url: v.text, alt: `image ${v.n}` })),
                  ...text.map((v) => ({ type: 'static-block', ref: `xss:k${v.n}` })),
                ],
              },
            },
          }),
        );

        await page.goto(`${BUNDLE_ORIGIN}/site/`);
        const app = page.locator('channel-app');
        await expect(app.locator('[part~="slide"]')).toHaveCount(text.length, { timeout: 20_000 });
        const home = await look(page, {
          menu: 'header nav',
          slides: '[part~="slide"]',
          footer: '[part~="static-block"]',
        });
        expect(missing(home, 'menu', text), 'menu names not shown').toEqual([]);
        expect(missing(home, 'slides', text), 'slide titles not shown').toEqual([]);
        expect(missing(home, 'footer', text), 'static blocks in the footer not shown').toEqual([]);
        await expectNothingRan(page, watch, home);

        await page.goto(`${BUNDLE_ORIGIN}/site/faq`);
        await expect(app.locator('[part~="faq-item"]')).toHaveCount(text.length, { timeout: 20_000 });
        const faq = await look(page, { faq: '[part~="faq"]' });
        expect(missing(faq, 'faq', text), 'FAQ questions not shown').toEqual([]);
        expect(
          missing(faq, 'faq', text, (v) => `answer ${v.n}`),
          'FAQ answers not shown',
        ).toEqual([]);
        await expectNothingRan(page, watch, faq);

        await page.goto(`${BUNDLE_ORIGIN}/site/xss-corpus`);
        await expect(app.locator('.block.paragraph')).toHaveCount(html.length, { timeout: 20_000 });
        const content = await look(page, { paragraphs: '.block.paragraph', statics: '.block.static' });
        expect(
          missing(content, 'paragraphs', html, (v) => `block ${v.n}`),
          'paragraphs not shown',
        ).toEqual([]);
        expect(missing(content, 'statics', text), 'static blocks of the page not shown').toEqual([]);
        await expectNothingRan(page, watch, content);
        report({
          'menu name': text.length,
          'menu link': text.length,
          'menu icon': text.length,
          'slide title': text.length,
          'slide link': text.length,
          'slide image': text.length,
          'footer static block': text.length,
          'FAQ question': text.length,
          'FAQ answer (HTML)': text.filter((v) => v.shape !== 'url').length,
          'page paragraph (HTML)': html.length,
          'page image': urls.length,
          'page static block': text.length,
        });
      },
    );

    test(
      `player: event titles and posters, and the paywall's offer names`,
      details,
      async ({ page, context, request }) => {
        const watch = await plantDetector(context, page);
        // A reload of the player per title: the whole corpus takes minutes.
        if (full) test.setTimeout(480_000);
        const paid = (await demoEventIds(request))['paid-finished'];
        expect(paid, 'the seeded paid finished event').toBeDefined();
        const byId = new Map(text.map((v, i) => [id(100_000, v), { v, image: urlAt(i).text }]));
        await page.route(
          (url) => url.origin === BUNDLE_ORIGIN && /^\/api\/events\/\d+$/.test(url.pathname),
          async (route) => {
            const url = new URL(route.request().url());
            const wanted = byId.get(Number(url.pathname.split('/').pop()));
            if (!wanted) return route.fallback();
            url.pathname = `/api/events/${paid}`;
            const response = await route.fetch({ url: url.toString() });
            const event = ((await response.json()) as { data: Record<string, unknown> }).data;
            const data = { ...event, id: id(100_000, wanted.v), name: wanted.v.text, participants: [] };
            await route.fulfill({
              response,
              json: {
                data: {
                  ...data,
                  description: wanted.v.text,
                  image: wanted.image,
                  media: [{ type: 'image', url: wanted.image }],
                  has_access: false,
                },
              },
            });
          },
        );
        // First the paywall with the corpus as its subscriptions' names; then, in a page of its own with the
        // channel's few offers (hundreds re-rendered at each reload would slow the titles' loop down), the titles.
        let offersOfCorpus = true;
        await rewrite(page, /^\/api\/subscriptions$/, (json) =>
          offersOfCorpus
            ? {
                data: text.map((v) => ({
                  id: id(840_000, v),
                  name: v.text,
                  price: 4.99,
                  offer: 'monthly',
                  period: 'month',
                })),
              }
            : json,
        );
        const player = page.locator('channel-player');
        const open = async () => {
          await openHostPage(page, `<channel-player event-id="${id(100_000, text[0]!)}"></channel-player>`);
          await expect(player.locator('[part~="offer"]').first()).toBeVisible({ timeout: 20_000 });
        };
        await open();
        const offers = await look(page, { offers: '[part~="paywall"]' });
        expect(missing(offers, 'offers', text), "the paywall's offer names").toEqual([]);
        await expectNothingRan(page, watch, offers);
        offersOfCorpus = false;
        await open();
        const titles: string[] = [];
        let live = [...offers.live];
        // Each title is a new event for the player (a reload); the sample takes every tenth of its share.
        const events = full ? text : text.filter((_, i) => i % 10 === 0);
        for (const v of events) {
          await page.evaluate(
            (eventId) => {
              document.querySelector('channel-player')!.setAttribute('event-id', String(eventId));
            },
            id(100_000, v),
          );
          await expect
            .poll(async () => (await look(page, { title: '[part~="title"]' })).texts.title, {
              intervals: [20, 50, 100],
            })
            .toBe(norm(v.text));
          const found = await look(page, { title: '[part~="title"]' });
          titles.push(found.texts.title!);
          live = [...live, ...found.live];
        }
        expect(missing({ texts: { title: titles.join(' ') }, live }, 'title', events), 'event titles').toEqual([]);
        await expectNothingRan(page, watch, { texts: {}, live });
        report({ 'player title': events.length, 'player poster': events.length, 'paywall offer name': text.length });
      },
    );

    // ------------------------------------------------------------ URLs from answers (src/lib/url-rules.ts)
    // Each sink gets the URL vectors, a URL elsewhere that would run or serve something if it were followed, and a
    // control: a URL its rule lets through must still work (the script loads, the browser goes, the file comes).

    test(`URLs from answers: the tag manager's script (settings gtag_url)`, details, async ({ page, context }) => {
      const watch = await plantDetector(context, page);
      const warnings: string[] = [];
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
      const requested: string[] = [];
      page.on('request', (r) => /[?&]id=G-XSS/.test(r.url()) && requested.push(r.url()));
      // A script of another origin, which calls the detector if it runs; the control, of the origin the page allows.
      const elsewhere = 'https://tags.invalid/gtag.js';
      const control = `${HOST_ORIGIN}/__xss/gtag.js`;
      await page.route(`${elsewhere}*`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: `${DETECTOR}(0)` }),
      );
      await page.route(`${control}*`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: 'window.gtagControl = true;' }),
      );
      await page.route(`${BUNDLE_ORIGIN}/__xss/gtag.html`, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html lang="en"><title>gtag</title><script src="${BUNDLE_ORIGIN}/channel-elements.js" data-channel-key="demo" data-analytics-url="${BUNDLE_ORIGIN}" data-script-origins="${HOST_ORIGIN}" async></script><channel-schedule kind="upcoming" limit="2"></channel-schedule>`,
        }),
      );
      let gtagUrl = '';
      await rewrite(page, /^\/api\/settings$/, (json) => ({
        data: { ...(json as { data: object }).data, 'google-analytics': 'G-XSS', gtag_url: gtagUrl },
      }));
      for (const url of [...urls.map((v) => v.text), elsewhere]) {
        gtagUrl = url;
        const before = warnings.length;
        await page.goto(`${BUNDLE_ORIGIN}/__xss/gtag.html`);
        await expect
          .poll(() => warnings.slice(before).some((w) => w.includes('is not loaded')), {
            message: `the tag manager's refusal of ${JSON.stringify(url)}`,
            timeout: 15_000,
          })
          .toBe(true);
        // Settings are kept between pages: the next page must get its own.
        await page.evaluate(() => localStorage.clear());
      }
      expect(requested, 'no script requested').toEqual([]);
      gtagUrl = control;
      await page.goto(`${BUNDLE_ORIGIN}/__xss/gtag.html`);
      await expect.poll(() => page.evaluate(() => 'gtagControl' in window), { timeout: 15_000 }).toBe(true);
      expect(requested, 'the control, loaded').toEqual([`${control}?id=G-XSS`]);
      await expectNothingRan(page, watch, await look(page, {}));
      report({ 'tag manager script': urls.length + 1 });
    });

    test(
      `URLs from answers: navigations (social sign-in's authorize and start URLs, the customer portal)`,
      details,
      async ({ page, context, request }) => {
        const watch = await plantDetector(context, page);
        const landed = `${HOST_ORIGIN}/__xss/landed.html`;
        await page.route(`${landed}*`, (route) =>
          route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>landed</title>' }),
        );
        // Social sign-in: a provider whose authorize URL is a vector is not offered; the other, whose URL is the
        // control, is, and takes the viewer there.
        let authorize = '';
        await rewrite(page, /^\/api\/settings$/, (json) => ({
          data: {
            ...(json as { data: object }).data,
            social: {
              google: { client_id: 'xss-google', authorize_url: authorize },
              facebook: { client_id: 'xss-facebook', authorize_url: landed },
            },
          },
        }));
        const profile = page.locator('channel-profile');
        for (const v of urls) {
          authorize = v.text;
          await openHostPage(page, '<channel-profile></channel-profile>');
          await expect(profile.locator('[part~="social-facebook"]')).toBeVisible({ timeout: 20_000 });
          // An absolute http(s) vector (a quote break-out on example.com) is an address like any other: offered.
          await expect(profile.locator('[part~="social-google"]'), `#${v.n} ${v.label}`).toHaveCount(
            absoluteHttp(v.text) ? 1 : 0,
          );
          await page.evaluate(() => localStorage.clear());
        }
        // The URL a sign-in goes to is the server's answer to its start: a vector there goes nowhere (the form says
        // the sign-in could not start); the control is gone to.
        let started = '';
        await page.route(
          (url) => url.origin === BUNDLE_ORIGIN && url.pathname === '/api/v2/auth/social/facebook/start',
          (route) => route.fulfill({ json: { data: { url: started } } }),
        );
        const facebook = profile.locator('[part~="social-facebook"]');
        for (const v of urls.filter((u) => !absoluteHttp(u.text))) {
          started = v.text;
          await facebook.click();
          await expect(profile.locator('[part~="social"] [part~="form-error"]'), `#${v.n} ${v.label}`).toBeVisible();
          await expect(facebook).toBeEnabled();
        }
        started = `${landed}?client_id=xss-facebook&state=s`;
        await facebook.click();
        await expect(page).toHaveURL(new RegExp(`^${landed}\\?client_id=xss-facebook&`));

        // The customer portal: each vector is the portal's failure message; the control goes there.
        await signedIn(page, request);
        await rewrite(page, /^\/api\/orders$/, () => ({
          data: [
            {
              id: 990_001,
              type: 'subscription',
              status: 'completed',
              activity_status: 'active',
              product: { id: 1, name: 'Season pass' },
              price: 9.99,
              currency: 'USD',
              created_at: NOW - 86_400,
              expires_at: NOW + 86_400 * 20,
              subscription_status: 'active',
              auto_renewal: 'active',
            },
          ],
        }));
        let portal = '';
        const asked: string[] = [];
        await page.route(
          (url) => url.origin === BUNDLE_ORIGIN && url.pathname === '/api/stripe/customer-portal',
          (route) => {
            asked.push(portal);
            return route.fulfill({ json: { data: { url: portal } } });
          },
        );
        await openHostPage(page, '<channel-profile section="orders"></channel-profile>');
        const button = profile.locator('[part~="customer-portal"]');
        await expect(button).toBeVisible({ timeout: 20_000 });
        const refused = urls.filter((v) => !absoluteHttp(v.text));
        for (const [i, v] of refused.entries()) {
          portal = v.text;
          await button.click();
          await expect.poll(() => asked.length, `#${v.n} ${v.label}`).toBe(i + 1);
          await expect(profile.locator('[part~="portal-error"]')).toBeVisible();
          await expect(button).toBeEnabled();
        }
        const found = await look(page, {});
        portal = landed;
        await button.click();
        await expect(page).toHaveURL(landed);
        await expectNothingRan(page, watch, found);
        report({
          'social authorize URL': urls.length,
          'social start URL': urls.filter((u) => !absoluteHttp(u.text)).length,
          'customer portal URL': refused.length,
        });
      },
    );

    test(`URLs from answers: the event's and the clip's downloads`, details, async ({ page, context, request }) => {
      const watch = await plantDetector(context, page);
      await signedIn(page, request);
      const downloads: string[] = [];
      page.on('download', (d) => downloads.push(d.url()));
      // A plain-http file elsewhere (not a media origin of the channel), and a file of the channel's own origin: the
      // control.
      // (The browser's downloads are seen as they start, whatever answers them.)
      const elsewhere = `${HOST_ORIGIN}/__xss/file.mp4`;
      const control = `${BUNDLE_ORIGIN}/__xss/file.mp4`;
      const capable = (json: Record<string, unknown>) => {
        const data = json.data as { capabilities?: string[] };
        return {
          ...json,
          data: { ...data, capabilities: [...(data.capabilities ?? []), 'download', 'download_clip'] },
        };
      };
      await rewrite(page, /^\/api\/profile$/, capable);
      await rewrite(page, /^\/api\/user\/access$/, capable);
      let file = '';
      const asked: string[] = [];
      await page.route(
        (url) => url.origin === BUNDLE_ORIGIN && /^\/api\/(download-event|clip\/download)\/\d+$/.test(url.pathname),
        (route) => {
          asked.push(file);
          return route.fulfill({ json: { data: { url: file } } });
        },
      );
      // An https URL is a download the API may name anywhere (a navigation, never a script sink): not a refusal.
      const cases = [...urls.map((v) => v.text).filter((url) => !url.startsWith('https://')), elsewhere];
      /** Clicks the button once per URL: each is its failure message, then the control downloads. */
      const tryAll = async (button: Locator, failure: Locator) => {
        for (const [i, url] of cases.entries()) {
          file = url;
          const before = asked.length;
          await button.click();
          await expect.poll(() => asked.length, JSON.stringify(url)).toBe(before + 1);
          await expect(failure).toBeVisible();
          await expect(button, `${i}`).toBeEnabled();
        }
        file = control;
        const started = downloads.length;
        await button.click();
        await expect.poll(() => downloads.slice(started)).toEqual([control]);
      };

      const free = (await demoEventIds(request))['free-finished'];
      expect(free, 'the seeded free finished event').toBeDefined();
      await openHostPage(page, `<channel-player event-id="${free}"></channel-player>`);
      const player = page.locator('channel-player');
      await tryAll(player.locator('[part~="download"]'), player.locator('[part~="actions"] [role="alert"]'));
      let found = await look(page, {});

      await rewrite(page, /^\/api\/clips\/user$/, () => ({
        data: [
          {
            id: 990_002,
            uuid: null,
            event_id: free,
            name: 'A clip',
            start_time: 0,
            duration: 10,
            tags: [],
            status: 'done',
            created_at: NOW,
            event: { id: free, name: 'Its event', event_utc_ts: NOW - 86_400, image: null },
            media: [{ type: 'hls', url: `${BUNDLE_ORIGIN}/media/clip/master.m3u8` }],
          },
        ],
      }));
      await openHostPage(page, '<channel-profile section="clips"></channel-profile>');
      const profile = page.locator('channel-profile');
      await tryAll(profile.locator('[part~="clip-download"]'), profile.locator('[part~="clip"]').getByRole('alert'));
      found = { texts: {}, live: [...found.live, ...(await look(page, {})).live] };
      expect(downloads, 'only the controls were downloaded').toEqual([control, control]);
      await expectNothingRan(page, watch, found);
      report({ 'event download URL': cases.length, 'clip download URL': cases.length });
    });

    test(`server error messages: the sign-in form's field and form messages`, details, async ({ page, context }) => {
      const watch = await plantDetector(context, page);
      let answer: Record<string, unknown> = {};
      await page.route(`${BUNDLE_ORIGIN}/api/v2/auth/login`, (route) => route.fulfill({ status: 422, json: answer }));
      await openHostPage(page, '<channel-profile></channel-profile>');
      const form = page.locator('channel-profile [part~="sign-in"]');
      await form.getByLabel(/^Email/).fill('viewer@example.com', { timeout: 20_000 });
      await form.getByLabel(/^Password/).fill('wrong-password-1');
      const shown: string[] = [];
      let live: string[] = [];
      for (let i = 0; i < text.length; i += 3) {
        const [a, b, c] = [text[i]!, text[i + 1] ?? text[0]!, text[i + 2] ?? text[1]!];
        answer = { message: c.text, errors: { email: [a.text], password: [b.text], coupon: [c.text] } };
        await form.getByRole('button', { name: 'Sign in', exact: true }).click();
        await expect
          .poll(async () => (await look(page, { form: '[part~="sign-in"]' })).texts.form, {
            intervals: [20, 50, 100],
            timeout: 15_000,
          })
          .toContain(norm(c.text));
        const found = await look(page, { form: '[part~="sign-in"]' });
        shown.push(found.texts.form!);
        live = [...live, ...found.live];
      }
      expect(missing({ texts: { form: shown.join(' ') }, live }, 'form', text), 'server messages not shown').toEqual(
        [],
      );
      await expectNothingRan(page, watch, { texts: {}, live });
      // Two of each three under the email and password fields, the third at the top of the form.
      report({ 'server message (field and form)': text.length });
    });

    test(`host attributes: watch-url and gender, shown in the element's notice`, details, async ({ page, context }) => {
      const watch = await plantDetector(context, page);
      await openHostPage(page, '<channel-schedule kind="upcoming" limit="3"></channel-schedule>');
      const schedule = page.locator('channel-schedule');
      await expect(schedule.locator('[part~="event-link"]').first()).toBeVisible({ timeout: 20_000 });
      const shown: string[] = [];
      let live: string[] = [];
      // Each value is a new parse of the attributes and a render; the sample takes every fourth of its share.
      const values = full ? text : text.filter((_, i) => i % 4 === 0);
      for (const [i, v] of values.entries()) {
        const url = v.shape === 'url' ? v.text : urlAt(i).text;
        await page.evaluate(
          ([gender, watchUrl]) => {
            const el = document.querySelector('channel-schedule')!;
            el.setAttribute('gender', gender!);
            el.setAttribute('watch-url', watchUrl!);
          },
          [v.text, url],
        );
        await expect
          .poll(async () => (await look(page, { notice: '[part~="notice"]' })).texts.notice, {
            intervals: [20, 50, 100],
          })
          .toContain(norm(v.text));
        const found = await look(page, { notice: '[part~="notice"]' });
        shown.push(found.texts.notice!);
        live = [...live, ...found.live];
        // Every event link kept a web address or fell back to its in-page anchor.
        const hrefs = await schedule
          .locator('[part~="event-link"]')
          .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).protocol));
        expect(
          hrefs.filter((p) => p !== 'http:' && p !== 'https:'),
          `watch-url="${url}"`,
        ).toEqual([]);
      }
      expect(missing({ texts: { notice: shown.join(' ') }, live }, 'notice', values), 'notices').toEqual([]);
      await expectNothingRan(page, watch, { texts: {}, live });
      report({ 'gender attribute (notice)': values.length, 'watch-url attribute': values.length });
    });
  });
}

// ---------------------------------------------------------------- the negative control

test('negative control: the same corpus through unsanitized innerHTML, href and a naive template executes, and the detector counts it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // A context of its own, without the fixtures' error watch: this page is meant to run broken scripts.
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    const watch = await plantDetector(context, page);
    await page.route(`${HOST_ORIGIN}/__xss/control.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>control</title><main></main>' }),
    );
    await page.goto(`${HOST_ORIGIN}/__xss/control.html`);
    // URLs first, in the page itself: a careless link with the URL as it came, followed (the script URLs only: the
    // others would take the page away).
    await page.evaluate((vectors) => {
      for (const v of vectors) {
        const a = document.createElement('a');
        a.href = v.text;
        if (a.protocol !== 'javascript:') continue;
        a.textContent = 'link';
        document.body.append(a);
        a.click();
        a.remove();
      }
    }, vectorsFor('url'));
    // A careless template: `{{ }}` and `${ }` evaluated as expressions.
    await page.evaluate(
      (vectors) => {
        for (const v of vectors) {
          const expression = /\{\{([^}]*)\}\}|\$\{([^}]*)\}/.exec(v.text);
          try {
            // eslint-disable-next-line no-eval -- the control is the careless template engine
            if (expression) (0, eval)(expression[1] ?? expression[2] ?? '');
          } catch {
            // a template of another engine: not JavaScript here
          }
        }
      },
      XSS_VECTORS.filter((v) => v.shape === 'template'),
    );
    // Markup: each vector in a document of its own (an iframe's srcdoc, parsed as a page parses its HTML), so a
    // vector that takes the whole document (base, refresh, plaintext) spoils only its own. In batches.
    const markup = XSS_VECTORS.filter((v) => v.shape !== 'url');
    for (let i = 0; i < markup.length; i += 100) {
      await page.evaluate(
        async (batch) => {
          const frames = batch.map((v) => {
            const frame = document.createElement('iframe');
            frame.srcdoc = v.text;
            document.body.append(frame);
            return new Promise((resolve) => {
              frame.onload = resolve;
              setTimeout(resolve, 10_000);
            });
          });
          await Promise.all(frames);
          await new Promise((resolve) => setTimeout(resolve, 500));
          for (const frame of document.querySelectorAll('iframe')) frame.remove();
        },
        markup.slice(i, i + 100),
      );
    }
    // Image errors, focus and animations fire a moment later.
    await expect.poll(() => new Set(watch.hits).size, { timeout: 10_000 }).toBeGreaterThan(100);
    await page.waitForTimeout(1000);
    const ran = new Set(watch.hits);
    const numbers = new Set(XSS_VECTORS.map((v) => v.n));
    // Every hit names a vector of the corpus, so a hit in a sink names the vector that got through.
    expect([...ran].filter((n) => !numbers.has(n))).toEqual([]);
    const byKind: Record<string, number> = {};
    for (const v of XSS_VECTORS) if (ran.has(v.n)) byKind[v.kind] = (byKind[v.kind] ?? 0) + 1;
    // Each kind that can run in a plain page runs there: handlers, URLs, SVG, MathML, mutation (the break-outs that
    // need a second parse of a sanitizer do not), clobbering pages' handlers and templates.
    for (const kind of ['handler', 'url', 'svg', 'mathml', 'mxss', 'clobbering', 'template', 'parser'])
      expect(byKind[kind] ?? 0, `${kind} vectors that ran unsanitized`).toBeGreaterThan(0);
    // The same watchers in a shadow root, as our elements render: a careless element's markup is seen live there
    // and its handlers reach the detector.
    const before = watch.hits.length;
    const careless = XSS_VECTORS.filter((v) => v.label.startsWith('img/onerror x ')).slice(0, 5);
    await page.evaluate((vectors) => {
      const host = document.createElement('careless-element');
      document.body.append(host);
      host.attachShadow({ mode: 'open' }).innerHTML = vectors.map((v) => v.text).join('');
    }, careless);
    const shadow = await look(page, {});
    expect(shadow.live.filter((l) => l.includes('careless-element')).length).toBe(careless.length);
    await expect.poll(() => watch.hits.slice(before).sort((a, b) => a - b)).toEqual(careless.map((v) => v.n));
    const line = `${ran.size} of ${XSS_VECTORS.length} vectors executed unsanitized (${Object.entries(byKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')})`;
    test.info().annotations.push({ type: 'xss', description: line });
    console.log(`xss: negative control: ${line}`);
  } finally {
    await context.close();
  }
});

test('the corpus has at least 370 vectors, numbered once each, of every kind', () => {
  expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(370);
  expect(new Set(XSS_VECTORS.map((v) => v.n)).size).toBe(XSS_VECTORS.length);
  expect(new Set(XSS_VECTORS.map((v) => v.text)).size).toBe(XSS_VECTORS.length);
  const kinds = new Set(XSS_VECTORS.map((v) => v.kind));
  expect([...kinds].sort()).toEqual(
    ['clobbering', 'handler', 'mathml', 'mxss', 'parser', 'script', 'svg', 'template', 'url'].sort(),
  );
});
