// Subresource Integrity for the chunks (src/loader/integrity.ts): every chunk the loader fetches is checked against
// the hash the build wrote into it before it runs; a chunk whose bytes were changed (here by a Playwright route that
// alters the answer, as a compromised CDN would) is refused: a clear console error, a log entry, and a translated
// message where the element (or the lazy part) would be. The altered code never runs.
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { devSecret, expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN, builtBundle, chunkTables, expectEvents } from './helpers';

const built = builtBundle();

/** Answers a chunk with its real bytes plus a line that would mark the page, were it ever run. */
async function tampered(route: Route): Promise<void> {
  const response = await route.fetch();
  await route.fulfill({ response, body: `${await response.text()}\n;globalThis.__tampered = true;` });
}

/** Whether the altered code ran (it never may). */
const ranTampered = (page: Page) => page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered === true);

async function chunkLogs(request: APIRequestContext): Promise<{ service: string; message: string }[]> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/logs?channel_key=demo`, {
    headers: { 'X-Channel-Dev-Secret': devSecret() },
  });
  return ((await answer.json()) as { data: { service: string; message: string }[] }).data.filter(
    (row) => row.service === 'chunk',
  );
}

/** The log entries written since `before` include the schedule's refused code. */
async function expectRefusalLogged(request: APIRequestContext, before: number): Promise<void> {
  await expect
    .poll(async () =>
      (await chunkLogs(request))
        .slice(before)
        .map((row) => row.message)
        .join('\n'),
    )
    .toContain('the code of <channel-schedule> was refused');
}

test('every chunk runs verified: preloaded with the build’s integrity before it runs, and fetched once', async ({
  page,
}) => {
  const chunkRequests: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/chunks/')) chunkRequests.push(r.url());
  });
  // The site on the CMS host (another origin): the site's root and shared chunks, then a page loaded lazily.
  await page.goto(`${HOST_ORIGIN}/site/`);
  const app = page.locator('channel-app');
  await expect(app.locator('h1[part~="page-title"]')).toHaveCount(1, { timeout: 15_000 });
  await app.getByRole('link', { name: 'FAQ' }).first().click();
  await expect(app.locator('h1[part~="page-title"]')).toHaveText(/FAQ|Frequently/i, { timeout: 10_000 });

  const preloads = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
      (l) => [l.href, l.integrity] as const,
    ),
  );
  const integrityOf = new Map(preloads);
  expect(chunkRequests.some((url) => /\/chunks\/Faq-[\w-]{8}\.js$/.test(url))).toBe(true);
  expect(chunkRequests).toContain(`${BUNDLE_ORIGIN}/${built.tags['channel-app']}`);
  // No player here: the player's table file, which carries the early video's code, is never fetched (nor the early
  // video's module on its own, which no page fetches).
  const playerTable = `${BUNDLE_ORIGIN}/chunks/${chunkTables().fileOf('channel-player')}`;
  expect(chunkRequests.filter((url) => url === playerTable || /\/chunks\/early-video-/.test(url))).toEqual([]);
  for (const url of new Set(chunkRequests)) {
    // Each chunk that was fetched was fetched by its integrity preload, with the build's hash, and never again.
    const path = new URL(url).pathname.slice(1);
    expect(integrityOf.get(url), url).toBe(built.chunks[path]);
    expect(
      chunkRequests.filter((u) => u === url),
      url,
    ).toHaveLength(1);
  }
});

test('a page fetches its own tags’ files of the table, each once: the schedule’s alone, the site’s alone, and with the player, the checkout and the profile the schedule’s, the site’s and the player’s', async ({
  page,
}) => {
  const { firsts, rest, fileOf } = chunkTables();
  const [schedule, site, player] = ['channel-schedule', 'channel-app', 'channel-player'].map(fileOf);
  expect(new Set([schedule, site, player]).size, 'three files').toBe(3);
  expect([...firsts].sort()).toEqual([schedule, site, player].sort());
  // The checkout and the profile share the site's file (the site shows both); the early video's code is the player's.
  expect(['channel-checkout', 'channel-profile', 'early-video'].map(fileOf)).toEqual([site, site, player]);
  const tables: string[] = [];
  page.on('request', (r) => {
    const name = /\/chunks\/(integrity-[\w-]{8}\.js)$/.exec(r.url())?.[1];
    if (name) tables.push(name);
  });
  // The schedule alone (the CMS page, another origin): its own file only.
  await page.goto(`${HOST_ORIGIN}/cms.html`);
  await expectEvents(page.locator('channel-schedule'));
  expect(tables).toEqual([schedule]);
  // The site, whose home shows schedules: its own file only (the schedules' chunks are in it), and perhaps the whole
  // table after its first content.
  tables.length = 0;
  await page.goto(`${HOST_ORIGIN}/site/`);
  await expectEvents(page.locator('channel-app'));
  expect(tables.filter((t) => t !== rest)).toEqual([site]);
  // A schedule, a checkout, a profile and a player: the schedule's file, the site's (the checkout's and the
  // profile's) and the player's, each once; every element starts.
  tables.length = 0;
  await page.goto(`${BUNDLE_ORIGIN}/checkout.html?package=1`);
  await expectEvents(page.locator('#checkout-schedule'));
  await expect(page.locator('#account [part~="sign-in"]')).toBeVisible({ timeout: 10_000 });
  await expect(page.locator('#checkout-player [part~="frame"]')).toBeVisible();
  expect(tables.filter((t) => t !== rest).sort()).toEqual([schedule, site, player].sort());
});

test.describe('a chunk whose bytes were changed', () => {
  // The browser's own line, and ours (one pattern: Playwright reads a two-item option as [value, options]).
  test.use({
    allowConsoleErrors: [
      /Failed to find a valid digest in the 'integrity' attribute|SRI's integrity checks failed|could not load <channel-(schedule|player)>: Error: the code of <channel-(schedule|player)> was refused/,
    ],
  });

  for (const [what, pattern] of [
    ['the tag’s own chunk', /\/chunks\/channel-schedule-[\w-]{8}\.js$/],
    ['a chunk it imports (the shared session)', /\/chunks\/session-[\w-]{8}\.js$/],
  ] as const) {
    test(`${what}: refused with a console error naming it, a log entry and a message in the element`, async ({
      page,
      request,
    }) => {
      const before = (await chunkLogs(request)).length;
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.route(pattern, tampered);
      await page.goto(`${HOST_ORIGIN}/cms.html`);
      const note = page.locator('channel-schedule [data-channel-unloaded]');
      await expect(note).toHaveText(
        'This part of the page was blocked: its code did not pass a security check. Please try again later.',
        { timeout: 10_000 },
      );
      await expect(note).toHaveAttribute('role', 'alert');
      const ours = errors.find((e) => e.startsWith('channel-elements: could not load <channel-schedule>'));
      expect(ours).toMatch(pattern.source.includes('session') ? /chunks\/session-/ : /chunks\/channel-schedule-/);
      expect(ours).toContain('does not match its integrity hash (expected sha256-');
      expect(ours).toContain("serve this build's chunks/ unchanged");
      // The changed code never ran, and the element never started.
      expect(await ranTampered(page)).toBe(false);
      await expect(page.locator('channel-schedule [part~="schedule"]')).toHaveCount(0);
      await expectRefusalLogged(request, before);
    });
  }

  test('the table of hashes the loader fetches: nothing it names runs, the message and the log name the table', async ({
    page,
    request,
  }) => {
    const before = (await chunkLogs(request)).length;
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const table = /\/chunks\/integrity-[\w-]{8}\.js$/;
    await page.route(table, async (route) => {
      // A table that would let a changed chunk through: every hash replaced by another.
      const response = await route.fetch();
      await route.fulfill({
        response,
        body: (await response.text()).replace(/"[\w+/]{43}="/g, `"${'A'.repeat(43)}="`),
      });
    });
    const chunks: string[] = [];
    page.on('request', (r) => /\/chunks\/(?!integrity-)[^/]+\.js$/.test(r.url()) && chunks.push(r.url()));
    await page.goto(`${HOST_ORIGIN}/cms.html`);
    await expect(page.locator('channel-schedule [data-channel-unloaded]')).toHaveText(
      'This part of the page was blocked: its code did not pass a security check. Please try again later.',
      { timeout: 10_000 },
    );
    // No chunk was even asked for: the table was refused before any of its names was read.
    expect(chunks).toEqual([]);
    const ours = errors.find((e) => e.startsWith('channel-elements: could not load <channel-schedule>'));
    expect(ours).toMatch(/chunks\/integrity-[\w-]{8}\.js does not match its integrity hash \(expected sha256-/);
    await expectRefusalLogged(request, before);
  });

  test('in French on a French page', async ({ page }) => {
    await page.route(/\/chunks\/session-[\w-]{8}\.js$/, tampered);
    await page.goto(`${BUNDLE_ORIGIN}/french.html`);
    await expect(page.locator('channel-player [data-channel-unloaded]')).toHaveText(
      'Cette partie de la page a été bloquée : son code n’a pas passé un contrôle de sécurité. Réessayez plus tard.',
      { timeout: 10_000 },
    );
    expect(await ranTampered(page)).toBe(false);
  });
});

test.describe('a lazily loaded chunk whose bytes were changed', () => {
  // The browser's line, and React's of the error its boundary caught.
  test.use({
    allowConsoleErrors: [
      /Failed to find a valid digest in the 'integrity' attribute|SRI's integrity checks failed|ChunkLoadError: the code of the faq page was refused/,
    ],
  });

  test('a site page: refused with the panel, the menu still works, Retry loads the real one', async ({ page }) => {
    let tamper = true;
    await page.route(/\/chunks\/Faq-[\w-]{8}\.js$/, (route) => (tamper ? tampered(route) : route.continue()));
    await page.goto(`${HOST_ORIGIN}/site/`);
    const app = page.locator('channel-app');
    await expect(app.locator('h1[part~="page-title"]')).toHaveCount(1, { timeout: 15_000 });
    await app.getByRole('link', { name: 'FAQ' }).first().click();
    const panel = app.locator('main [part~="error"]');
    await expect(panel).toContainText(
      'This part was blocked: its code did not pass a security check. Please try again later.',
    );
    expect(await ranTampered(page)).toBe(false);
    await expect(app.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    tamper = false;
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect(app.locator('h1[part~="page-title"]')).toHaveText(/FAQ|Frequently/i, { timeout: 10_000 });
    expect(await ranTampered(page)).toBe(false);
  });

  test('the whole table (the later parts’ hashes): a changed one is refused like a chunk, Retry fetches it again', async ({
    page,
  }) => {
    // The file the loader's files name in `n` (scripts/integrity.mjs), fetched only when a later part is asked for.
    const { rest } = chunkTables();
    let tamper = true;
    const asked: string[] = [];
    await page.route(`${BUNDLE_ORIGIN}/chunks/${rest}`, async (route) => {
      asked.push(route.request().url());
      if (!tamper) return route.continue();
      // Every hash replaced: a Faq chunk changed to match it would pass, were this file trusted.
      const response = await route.fetch();
      await route.fulfill({
        response,
        body: (await response.text()).replace(/"[\w+/]{43}="/g, `"${'A'.repeat(43)}="`),
      });
    });
    const faq: string[] = [];
    page.on('request', (r) => /\/chunks\/Faq-[\w-]{8}\.js$/.test(r.url()) && faq.push(r.url()));
    await page.goto(`${HOST_ORIGIN}/site/`);
    const app = page.locator('channel-app');
    await expect(app.locator('h1[part~="page-title"]')).toHaveCount(1, { timeout: 15_000 });
    expect(asked, 'the home page needs only its group’s file').toEqual([]);
    await app.getByRole('link', { name: 'FAQ' }).first().click();
    const panel = app.locator('main [part~="error"]');
    await expect(panel).toContainText(
      'This part was blocked: its code did not pass a security check. Please try again later.',
    );
    expect(faq, 'no chunk the refused file names was asked for').toEqual([]);
    tamper = false;
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect(app.locator('h1[part~="page-title"]')).toHaveText(/FAQ|Frequently/i, { timeout: 10_000 });
    expect(asked.length, 'fetched again after the refusal').toBeGreaterThanOrEqual(2);
  });
});

test('a page that pins the release: the versioned loader with integrity and crossorigin, from another origin', async ({
  page,
}) => {
  const loader = page.waitForResponse(`${BUNDLE_ORIGIN}/${built.loader.file}`);
  await page.goto(`${HOST_ORIGIN}/partner.html`);
  const script = page.locator(`script[src="${BUNDLE_ORIGIN}/${built.loader.file}"]`);
  await expect(script).toHaveAttribute('integrity', built.loader.integrity);
  await expect(script).toHaveAttribute('crossorigin', 'anonymous');
  expect((await loader).headers()['access-control-allow-origin']).toBe('*');
  await expectEvents(page.locator('channel-schedule'));
});
