// The embed contract: one script tag on any page, any origin, any way of loading it.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  BUNDLE_ORIGIN,
  HOST_ORIGIN,
  builtBundle,
  cspViolations,
  eventLinks,
  expectEvents,
  recordRequests,
  undefinedTags,
  watchCsp,
} from './helpers';

const SCHEDULE_CHUNK = `${BUNDLE_ORIGIN}/${builtBundle().tags['channel-schedule']}`;

/** Computed styles of the first few elements matching `selector` inside a schedule's shadow root. */
function styles(schedule: Locator, selector: string, props: string[]) {
  return schedule.evaluate(
    (el, [sel, names]) =>
      [...el.shadowRoot!.querySelectorAll(sel)].slice(0, 5).map((node) => {
        const s = getComputedStyle(node);
        return Object.fromEntries(names.map((n) => [n, s.getPropertyValue(n)]));
      }),
    [selector, props] as const,
  );
}

test.describe('cross-origin CMS page with a <base href> and hostile CSS', () => {
  test('renders, loading chunks and data from the bundle origin', async ({ page }) => {
    const urls = recordRequests(page);
    await page.goto(`${HOST_ORIGIN}/cms.html`);
    const schedule = page.locator('channel-schedule');
    await expectEvents(schedule);
    expect(await eventLinks(schedule).count()).toBeLessThanOrEqual(8);

    const chunks = urls.filter((u) => u.includes('/chunks/'));
    expect(chunks).toContain(SCHEDULE_CHUNK);
    for (const u of chunks) expect(u.startsWith(`${BUNDLE_ORIGIN}/chunks/`), u).toBe(true);
    // Never resolved against the page origin or its <base href="/articles/2026/">.
    expect(urls.filter((u) => u.startsWith(HOST_ORIGIN) && /chunks|\/api\/|channel-elements/.test(u))).toEqual([]);
    expect(urls.filter((u) => u.includes('/articles/2026/'))).toEqual([]);
    expect(
      urls.filter((u) => u.includes('/api/events')).every((u) => u.startsWith(`${BUNDLE_ORIGIN}/api/events`)),
    ).toBe(true);
  });

  test("the host's CSS does not leak into the element", async ({ page }) => {
    await page.goto(`${HOST_ORIGIN}/cms.html`);
    const schedule = page.locator('channel-schedule');
    await expectEvents(schedule);

    // The hostile rules do reach the host page itself (so the checks below can fail).
    const hostLink = await page.evaluate(() => {
      const a = document.createElement('a');
      a.href = '#';
      a.textContent = 'x';
      document.querySelector('.cms-column')!.append(a);
      const s = getComputedStyle(a);
      return { color: s.color, textTransform: s.textTransform };
    });
    expect(hostLink).toEqual({ color: 'rgb(255, 0, 0)', textTransform: 'uppercase' });

    const links = await styles(schedule, '[part~="event-link"]', [
      'color',
      'text-transform',
      'letter-spacing',
      'line-height',
    ]);
    for (const s of links) {
      expect(s['color']).not.toBe('rgb(255, 0, 0)');
      expect(s['text-transform']).toBe('none');
      expect(s['letter-spacing']).toBe('normal');
    }
    const names = await styles(schedule, '[part~="event-name"]', ['text-transform', 'font-family']);
    for (const s of names) {
      expect(s['text-transform']).toBe('none');
      expect(s['font-family']).not.toContain('Georgia');
    }
    const divs = await styles(schedule, 'div', ['border-top-style', 'border-top-color', 'padding-top']);
    expect(divs.length).toBeGreaterThan(0);
    for (const s of divs) {
      expect(s['border-top-style']).not.toBe('dashed');
      expect(s['border-top-color']).not.toBe('rgb(255, 0, 255)');
      expect(s['padding-top']).not.toBe('11px');
    }
    const buttons = await styles(schedule, 'button', ['background-color']);
    for (const s of buttons) expect(s['background-color']).not.toBe('rgb(255, 255, 0)');
    const lists = await styles(schedule, 'ul, li', ['list-style-type', 'margin-top']);
    for (const s of lists) {
      expect(s['list-style-type']).not.toBe('square');
      expect(s['margin-top']).not.toBe('20px');
    }
  });

  test('the element looks the same on the CMS page as on a plain page', async ({ page }) => {
    async function look(url: string) {
      await page.goto(url);
      const schedule = page.locator('channel-schedule').first();
      await expectEvents(schedule);
      const [title] = await styles(schedule, '[part~="title"]', [
        'font-size',
        'font-family',
        'text-transform',
        'letter-spacing',
      ]);
      const [name] = await styles(schedule, '[part~="event-name"]', [
        'font-size',
        'line-height',
        'color',
        'text-transform',
      ]);
      const [card] = await styles(schedule, '[part~="card"]', [
        'border-top-style',
        'border-top-width',
        'padding-top',
        'border-radius',
      ]);
      return { title, name, card };
    }
    // Same channel, same attributes (kind="upcoming"), on a page with only the snippet.
    const plain = await look('/test-defer.html');
    const cms = await look(`${HOST_ORIGIN}/cms.html`);
    expect(cms).toEqual(plain);
  });
});

test.describe('ways of loading the script', () => {
  test('the script twice on one page: no error, one chunk load, one definition', async ({ page }) => {
    const urls = recordRequests(page);
    await page.goto('/test-double.html');
    expect(await page.locator('script[src$="/channel-elements.js"]').count()).toBe(2);
    const schedule = page.locator('channel-schedule');
    await expectEvents(schedule);
    expect(urls.filter((u) => u === SCHEDULE_CHUNK)).toHaveLength(1);
    expect(urls.filter((u) => new URL(u).pathname === '/api/get_api_key')).toHaveLength(1);
  });

  for (const file of ['test-module.html', 'test-defer.html']) {
    test(`${file} works`, async ({ page }) => {
      await page.goto(`/${file}`);
      const schedule = page.locator('channel-schedule');
      await expectEvents(schedule);
      expect(await eventLinks(schedule).count()).toBeLessThanOrEqual(4);
      await expect(schedule.locator('[part~="error"]')).toHaveCount(0);
    });
  }

  test('a tag added later by the host loads its chunk only then', async ({ page }) => {
    const urls = recordRequests(page);
    await page.goto('/dynamic.html');
    // The loader ran (it sets its guard), and there is no tag yet.
    await page.waitForFunction(
      () => (window as unknown as Record<symbol, unknown>)[Symbol.for('channel-elements.loader')] === true,
    );
    await page.waitForLoadState('networkidle');
    expect(urls.filter((u) => u.includes('/chunks/'))).toEqual([]);
    expect(urls.filter((u) => u.includes('/api/'))).toEqual([]);

    const chunk = page.waitForRequest(SCHEDULE_CHUNK);
    await page.getByRole('button', { name: 'Add a live schedule' }).click();
    await chunk;
    const schedule = page.locator('#slot channel-schedule');
    await expectEvents(schedule);
    await expect(schedule.locator('[part~="title"]')).toHaveText('Live now');
    expect(urls.filter((u) => u === SCHEDULE_CHUNK)).toHaveLength(1);

    // A second one reuses the loaded chunk.
    await page.getByRole('button', { name: 'Add a live schedule' }).click();
    await expectEvents(page.locator('#slot channel-schedule').nth(1));
    expect(urls.filter((u) => u === SCHEDULE_CHUNK)).toHaveLength(1);
    expect(await undefinedTags(page)).toEqual([]);
  });
});

test.describe('strict Content-Security-Policy', () => {
  async function openUnderCsp(page: Page, url: string) {
    await watchCsp(page);
    const response = await page.goto(url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    // The pages really are strict: no inline script or style, no eval.
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  }

  test('schedule.html (all five schedules, filters, the calendar) runs with no violation', async ({ page }) => {
    await openUnderCsp(page, '/schedule.html');
    for (const s of await page.locator('channel-schedule').all()) await expectEvents(s);
    const filtered = page.locator('channel-schedule[kind="upcoming"]:not(#calendar)');
    await filtered.getByRole('combobox', { name: /^Sport\b/ }).selectOption({ label: 'Soccer' });
    await expectEvents(filtered);
    await page.locator('channel-schedule#calendar [part~="calendar-next"]').click();
    expect(await cspViolations(page)).toEqual([]);
  });

  test('french.html and the cross-origin cms.html run with no violation', async ({ page }) => {
    await openUnderCsp(page, '/french.html');
    await expectEvents(page.locator('channel-schedule[kind="upcoming"]'));
    expect(await cspViolations(page)).toEqual([]);
    await openUnderCsp(page, `${HOST_ORIGIN}/cms.html`);
    await expectEvents(page.locator('channel-schedule'));
    expect(await cspViolations(page)).toEqual([]);
  });

  test.describe('the violation detector itself', () => {
    test.use({ allowConsoleErrors: [/Content Security Policy/] });
    test('sees an inline style being refused (so the checks above can fail)', async ({ page }) => {
      await openUnderCsp(page, '/test-single.html');
      await page.evaluate(() => {
        const style = document.createElement('style');
        style.textContent = 'body { color: red }';
        document.head.append(style);
      });
      await expect.poll(() => cspViolations(page)).toEqual([expect.stringContaining('style-src')]);
    });
  });
});

test('the loader asks for the start-up data while the code loads, and the session takes those answers: each request once', async ({
  page,
}) => {
  const requests: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/keys/'))
      requests.push(`${r.method()} ${url.pathname}`);
  });
  // The player page has <channel-player event-id="21"> in its HTML: its event is asked for early too.
  await page.goto(`${BUNDLE_ORIGIN}/player.html`);
  await expect(page.locator('#player [part~="stage"]')).toBeVisible({ timeout: 10_000 });
  await page.waitForTimeout(500);
  const count = (entry: string) => requests.filter((r) => r === entry).length;
  for (const entry of [
    'GET /keys/demo.json',
    'POST /api/get_api_key',
    'GET /api/settings',
    'GET /api/color-settings/web',
    'GET /api/geo',
    'GET /api/events/21',
  ]) {
    expect(count(entry), entry).toBe(1);
  }
  // The preroll list comes with the settings: no call of its own.
  expect(count('GET /api/prerolls')).toBe(0);
});
