// A channel's operator goes from nothing to a sellable event with the command line only (docs/operating.md): a
// production server on a new, empty database; `channel-server channel create` and `operator add` against the database,
// then the catalogue through the operator API (a category, two teams, a free game and a pay-per-view one timed in
// Chicago, a package and a page). A host page on an origin of its own then shows what a viewer gets: the schedule lists
// both games at their Chicago times, the page opens in <channel-app>, a guest meets the pay-per-view paywall with its
// price, and a reschedule and a cancellation made by the command line reach the schedule within the store cache.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E_PORT } from './ports';
import { ProductionServer } from './production';

/**
 * The production server and the command line (production.ts), on this spec's own ports after the four the run reserves
 * (ports.ts): the server, its operator API, the host page's server; the server's operations listener at +10.
 */
const production = new ProductionServer('operating', {
  server: E2E_PORT + 4,
  operator: E2E_PORT + 5,
  metrics: E2E_PORT + 10,
});
const HOST_PORT = E2E_PORT + 6;
const SERVER = production.url;
const HOST = `http://localhost:${HOST_PORT}`;
const CHANNEL = 'prairie';
const ZONE = 'America/Chicago';

/** A week ahead (so the free game is upcoming whenever the run is). */
const FREE_DAY = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
/** The pay-per-view game started half an hour ago (to the minute): it is live, so a guest meets its paywall. */
const PPV_START = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000);

/** `at` as Chicago's wall clock reads it, as the command line's --starts takes it: 2026-12-07T13:05. */
function chicagoLocal(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** A time as the schedule's card writes it in a zone: 8:00 PM EST. */
const clock = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' }).format(at);

/** The free game's start at 19:00 in Chicago, and moved to 17:30. */
const zoned = (local: string) => {
  // The instant whose Chicago wall clock reads `local` (no change of offset within a day around it in December).
  const guess = new Date(`${local}:00Z`);
  const offset = new Date(`${chicagoLocal(guess)}:00Z`).getTime() - guess.getTime();
  return new Date(guess.getTime() - offset);
};
const FREE_START = zoned(`${FREE_DAY}T19:00`);
const FREE_MOVED = zoned(`${FREE_DAY}T17:30`);

let host: http.Server | undefined;
const ids: Record<string, number> = {};

const cli = (args: string[]) => production.cli(args);
const cliJson = <T = Record<string, unknown>>(args: string[]) => production.cliJson<T>(args);

const idOf = (record: Record<string, unknown>) => Number(record.id);

/** The host page: the script tag from the production server, one element in it. */
function hostPage(title: string, body: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
  <meta charset="utf-8">
  <link rel="icon" href="data:,">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <style>body { font-family: Georgia, serif; background: #fdf6e3; }</style>
  <script src="${SERVER}/channel-elements.js" data-channel-key="${CHANNEL}"
    data-lang="${lang}" async></script>
</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>`;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // Against the database, before anything serves it: the channel and its first owner (the token is printed once).
  await cli(['channel', 'create', '--key', CHANNEL, '--name', 'Prairie Sports Network', '--currency', 'USD']);
  await production.addOwner(CHANNEL, 'owner@prairie.example');
  await production.start();
  // Everything else through the operator API.
  ids.category = idOf(
    await cliJson(['categories', 'add', '--channel', CHANNEL, '--name', 'Basketball', '--sport', 'basketball']),
  );
  ids.hawks = idOf(
    await cliJson([
      'participants',
      'add',
      '--channel',
      CHANNEL,
      '--name',
      'Prairie Hawks',
      '--short-name',
      'PHK',
      '--sport',
      'basketball',
    ]),
  );
  ids.bison = idOf(
    await cliJson([
      'participants',
      'add',
      '--channel',
      CHANNEL,
      '--name',
      'River Bison',
      '--short-name',
      'RBS',
      '--sport',
      'basketball',
    ]),
  );
  const game = (name: string, starts: string, type: string, more: string[] = []) =>
    cli([
      'events',
      'add',
      '--channel',
      CHANNEL,
      '--name',
      name,
      '--starts',
      starts,
      '--tz',
      ZONE,
      '--type',
      type,
      '--category',
      String(ids.category),
      '--away',
      String(ids.bison),
      '--home',
      String(ids.hawks),
      ...more,
    ]);
  ids.free = Number(await game('Hawks open night', `${FREE_DAY}T19:00`, 'free'));
  ids.ppv = Number(await game('Hawks rivalry night', chicagoLocal(PPV_START), 'ppv', ['--price', '12.50']));
  ids.pass = idOf(
    await cliJson([
      'packages',
      'add',
      '--channel',
      CHANNEL,
      '--name',
      'Basketball season pass',
      '--price',
      '49.99',
      '--category',
      String(ids.category),
    ]),
  );
  const blocks = path.join(production.dataDir, 'tickets-blocks.json');
  fs.writeFileSync(
    blocks,
    JSON.stringify([{ type: 'paragraph', html: '<p>Season tickets are on sale at the arena box office.</p>' }]),
  );
  ids.page = idOf(
    await cliJson([
      'pages',
      'add',
      '--channel',
      CHANNEL,
      '--name',
      'Tickets',
      '--page-url',
      '/tickets',
      '--blocks',
      blocks,
    ]),
  );
  host = http
    .createServer((req, res) => {
      const url = new URL(req.url ?? '/', HOST);
      const body =
        url.pathname === '/schedule.html'
          ? hostPage('Prairie schedule', '<channel-schedule kind="all"></channel-schedule>')
          : url.pathname.startsWith('/site')
            ? hostPage('Prairie site', '<channel-app base="/site"></channel-app>', url.searchParams.get('lang') ?? 'en')
            : undefined;
      res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(body ?? 'not found');
    })
    .listen(HOST_PORT);
});

test.afterAll(async () => {
  host?.close();
  await production.stop();
});

/** The schedule's card of an event, by its id (a match reads away @ home by short names, not by the event's name). */
const card = (page: Page, id: number) =>
  page.locator('channel-schedule [part~="event"]').filter({ has: page.locator(`a[href$="/watch/${id}"]`) });

test('the schedule lists both games at their times in Chicago, viewed from New York', async ({ page }) => {
  await page.goto(`${HOST}/schedule.html`);
  const free = card(page, ids.free!);
  const ppv = card(page, ids.ppv!);
  await expect(free).toBeVisible({ timeout: 15_000 });
  await expect(ppv).toBeVisible();
  // The viewer's own time (the browser is in New York), and the venue's when it differs: 19:00 in Chicago.
  await expect(free).toContainText(clock(FREE_START, 'America/New_York'));
  await expect(free).toContainText(`${clock(FREE_START, ZONE)} at the venue`);
  await expect(ppv).toContainText(clock(PPV_START, 'America/New_York'));
  await expect(ppv).toContainText(`${clock(PPV_START, ZONE)} at the venue`);
  // Away team at home team, by short names; the free game free, the pay-per-view one live at its price.
  await expect(free).toContainText('RBS @ PHK');
  await expect(free).toContainText('Free');
  await expect(ppv).toContainText('Pay-per-view · USD $12.50');
  await expect(ppv.locator('[part~="badge-live"]')).toBeVisible();
  // Teams without logos show their short names in round badges of the card's proportions (not squeezed to a letter).
  const badge = await free.locator('[part~="event-team-logo"]').first().boundingBox();
  expect(badge!.width).toBeGreaterThan(40);
  expect(Math.abs(badge!.width - badge!.height)).toBeLessThan(2);
});

test('the page the command line made opens in <channel-app>', async ({ page }) => {
  await page.goto(`${HOST}/site/tickets`);
  await expect(page.locator('channel-app')).toContainText('Season tickets are on sale at the arena box office.', {
    timeout: 15_000,
  });
});

test('on a phone, in French, the site sells the season pass the command line made', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${HOST}/site/packages?lang=fr`);
  const pass = page.locator('channel-app [part~="offer"]', { hasText: 'Basketball season pass' });
  await expect(pass).toBeVisible({ timeout: 15_000 });
  await expect(pass).toContainText('49,99');
});

test("a guest meets the pay-per-view game's paywall with its price", async ({ page }) => {
  await page.goto(`${HOST}/site/watch/${ids.ppv}`);
  const app = page.locator('channel-app');
  await expect(app).toContainText('Hawks rivalry night', { timeout: 15_000 });
  const paywall = app.locator('[part~="paywall"]');
  await expect(paywall).toBeVisible({ timeout: 10_000 });
  await expect(paywall).toContainText('12.50');
  // No stream for a guest: nothing plays.
  await expect(app.locator('video')).toHaveCount(0);
});

test('a reschedule and a cancellation reach the schedule within the store cache', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`${HOST}/schedule.html`);
  await expect(card(page, ids.free!)).toBeVisible({ timeout: 15_000 });
  // The free game moves to 17:30 in Chicago; the pay-per-view game is called off.
  await cli([
    'events',
    'update',
    String(ids.free),
    '--channel',
    CHANNEL,
    '--starts',
    `${FREE_DAY}T17:30`,
    '--tz',
    ZONE,
  ]);
  await cli(['events', 'cancel', String(ids.ppv), '--channel', CHANNEL]);
  // A viewer who comes back (a new visit) sees the change at once, or at the latest once the store cache (60 s) ends.
  await expect(async () => {
    await page.reload();
    await expect(card(page, ids.free!)).toContainText(`${clock(FREE_MOVED, ZONE)} at the venue`, {
      timeout: 5_000,
    });
    await expect(card(page, ids.ppv!)).toHaveCount(0);
  }).toPass({ timeout: 75_000, intervals: [1_000, 5_000, 10_000] });
  // The operator's own list still has it, as cancelled.
  const listed = await cliJson<Array<{ id: number; status: string }>>(['events', 'list', '--channel', CHANNEL]);
  expect(listed.find((event) => event.id === ids.ppv)?.status).toBe('cancelled');
});
