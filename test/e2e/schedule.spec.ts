// <channel-schedule> on schedule.html against the reference server: kinds, views, filters, links, the
// channel-event-select contract, keyboard and an axe audit.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { eventLinks, eventsRequest, expectEvents } from './helpers';

const live = (page: Page) => page.locator('channel-schedule[kind="live"]');
// The page's other upcoming schedule is the calendar's (#calendar, below).
const upcoming = (page: Page) => page.locator('channel-schedule[kind="upcoming"]:not(#calendar)');
const vod = (page: Page) => page.locator('channel-schedule[kind="vod"]');
const intercepted = (page: Page) => page.locator('channel-schedule#intercepted');
const withCalendar = (page: Page) => page.locator('channel-schedule#calendar');

/** The `datetime` of every event time in a schedule, as epoch ms. */
const times = (schedule: Locator) =>
  schedule.locator('time[datetime]').evaluateAll((nodes) => nodes.map((n) => Date.parse(n.getAttribute('datetime')!)));

/** The meta line (category · city, state) of every card. */
const metas = (schedule: Locator) => schedule.locator('[part~="event"] .meta').allTextContents();

test.beforeEach(async ({ page }) => {
  await page.goto('/schedule.html');
});

test.describe('kinds and views', () => {
  test('kind="live" shows only live events, each with a LIVE badge', async ({ page }) => {
    const schedule = live(page);
    await expectEvents(schedule);
    await expect(schedule.locator('[part~="title"]')).toHaveText('Live now');
    const cards = await schedule.locator('[part~="event"]').count();
    expect(cards).toBeGreaterThan(0);
    await expect(schedule.locator('[part~="badge-live"]')).toHaveCount(cards);
    const badge = schedule.locator('[part~="badge-live"]').first();
    await expect(badge).toHaveText('Live');
    // Shown in capitals by the element's own stylesheet.
    expect(await badge.evaluate((b) => getComputedStyle(b).textTransform)).toBe('uppercase');
    // Live events started in the past.
    for (const t of await times(schedule)) expect(t).toBeLessThan(Date.now());
  });

  test('kind="upcoming" shows future events without LIVE badges', async ({ page }) => {
    const schedule = upcoming(page);
    await expectEvents(schedule);
    await expect(schedule.locator('[part~="title"]')).toHaveText('Upcoming events');
    await expect(schedule.locator('[part~="count"]')).toHaveText(/^\d+ events$/);
    await expect(schedule.locator('[part~="badge-live"]')).toHaveCount(0);
    const starts = await times(schedule);
    expect(starts.length).toBeGreaterThan(0);
    for (const t of starts) expect(t).toBeGreaterThan(Date.now());
    // Oldest first.
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  test('kind="vod" view="table" limit="10" shows a table of at most 10 past events', async ({ page }) => {
    const schedule = vod(page);
    await expectEvents(schedule);
    await expect(schedule.locator('table[part~="table"]')).toBeVisible();
    await expect(schedule.locator('table thead th')).toHaveText(['Event', 'Date', 'Time', 'Access', 'Actions']);
    const rows = schedule.locator('tbody tr[part~="row"]');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await rows.count()).toBeLessThanOrEqual(10);
    await expect(schedule.locator('ul[part~="list"]')).toHaveCount(0);
    await expect(schedule.locator('[part~="badge-live"]')).toHaveCount(0);
    // The row's date column names a day before today.
    const first = await schedule.locator('tbody tr').first().locator('td').nth(1).textContent();
    expect(first).toMatch(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}$/);
  });

  test('layout="list" lays cards out as rows', async ({ page }) => {
    const schedule = intercepted(page);
    await expectEvents(schedule);
    await expect(schedule.locator('[part~="schedule"]')).toHaveClass('list');
    const boxes = await Promise.all([0, 1].map((i) => schedule.locator('[part~="event"]').nth(i).boundingBox()));
    // One card per row: the second is below the first, not beside it.
    expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height - 1);
    expect(boxes[1]!.x).toBe(boxes[0]!.x);
    // sport="soccer" went into the request: every card is a soccer game.
    for (const meta of await metas(schedule)) expect(meta).toContain('Soccer');
  });

  test('event links point at /watch/{id}', async ({ page }) => {
    for (const schedule of [live(page), upcoming(page), vod(page)]) {
      await expectEvents(schedule);
      const hrefs = await eventLinks(schedule).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs.length).toBeGreaterThan(0);
      for (const href of hrefs) expect(href).toMatch(/^\/watch\/\d+$/);
    }
  });
});

test.describe('filters', () => {
  /** Chooses a filter value and waits for the request carrying it and the list it brings. */
  async function choose(
    page: Page,
    label: string,
    option: { value?: string; label?: string },
    param: Record<string, string>,
  ) {
    const schedule = upcoming(page);
    const request = page.waitForRequest(eventsRequest({ stream_status: 'upcoming', ...param }));
    const response = page.waitForResponse((r) => eventsRequest({ stream_status: 'upcoming', ...param })(r.request()));
    await schedule.getByRole('combobox', { name: new RegExp(`^${label}\\b`) }).selectOption(option);
    await request;
    await response;
    await expectEvents(schedule);
  }

  test('Sport, Gender, City and State each change the request and the list', async ({ page }) => {
    const schedule = upcoming(page);
    await expectEvents(schedule);
    const all = Number((await schedule.locator('[part~="count"]').textContent())!.split(' ')[0]);
    const filters = schedule.getByRole('search', { name: 'Filter events' });
    await expect(filters).toBeVisible();

    await choose(page, 'Sport', { label: 'Volleyball' }, { sport: 'volleyball' });
    for (const meta of await metas(schedule)) expect(meta).toMatch(/Volleyball/);
    const volleyball = Number((await schedule.locator('[part~="count"]').textContent())!.split(' ')[0]);
    expect(volleyball).toBeLessThan(all);

    // Sport and gender combine.
    await choose(page, 'Gender', { label: 'Women' }, { sport: 'volleyball', gender: 'female' });
    for (const meta of await metas(schedule)) expect(meta).toMatch(/^Women's Volleyball/);

    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(schedule.locator('[part~="count"]')).toHaveText(`${all} events`);

    await choose(page, 'City', { value: 'Denver' }, { city: 'Denver' });
    for (const meta of await metas(schedule)) expect(meta).toContain('Denver, CO');
    // Back to "All": the unfiltered answer comes from the client's 60 s cache, without a request.
    await schedule.getByRole('combobox', { name: /^City\b/ }).selectOption('');
    await expect(schedule.locator('[part~="count"]')).toHaveText(`${all} events`);

    await choose(page, 'State', { value: 'MA' }, { state: 'MA' });
    const ma = await metas(schedule);
    expect(ma.length).toBeGreaterThan(0);
    for (const meta of ma) expect(meta).toMatch(/, MA$/);
  });
});

test("the schools' properties (conference, division) narrow the list to their teams' events", async ({
  page,
  request,
}) => {
  const schedule = upcoming(page);
  await expectEvents(schedule);
  const asked = page.waitForRequest(eventsRequest({ stream_status: 'upcoming', conference: 'Great Lakes' }));
  await schedule.getByRole('combobox', { name: /^Conference\b/ }).selectOption('Great Lakes');
  const url = new URL((await asked).url());
  await expect(schedule.locator('[part~="loading"]')).toHaveCount(0);
  // What the reference server counts for that query (its school property filter) is what the list says.
  const key = url.searchParams.get('api_key')!;
  const answer = (await (
    await request.get(`/api/events?stream_status=upcoming&conference=Great%20Lakes&limit=1&api_key=${key}`)
  ).json()) as { meta: { total: number } };
  expect(answer.meta.total).toBeGreaterThan(0);
  await expect(schedule.locator('[part~="count"]')).toHaveText(
    answer.meta.total === 1 ? '1 event' : `${answer.meta.total} events`,
  );
  await expect(schedule.getByRole('combobox', { name: /^Division\b/ })).toBeVisible();
});

test.describe('channel-event-select and navigation', () => {
  // The reference server has no /watch page: following a link lands on its JSON 404.
  test.use({ allowConsoleErrors: [/404 \(Not Found\)/] });

  test('clicking a card of a normal schedule follows its link to /watch/{id}', async ({ page }) => {
    const schedule = upcoming(page);
    await expectEvents(schedule);
    const link = eventLinks(schedule).first();
    const href = await link.getAttribute('href');
    const id = href!.split('/').pop();
    await link.click();
    await page.waitForURL(`**/watch/${id}`);
  });

  test('the #intercepted schedule (the host cancels channel-event-select) stays on the page', async ({ page }) => {
    const schedule = intercepted(page);
    await expectEvents(schedule);
    const link = eventLinks(schedule).first();
    const id = (await link.getAttribute('href'))!.split('/').pop();
    await link.click();
    await expect(page.locator('#event-log')).toHaveText(
      `channel-event-select: event ${id} (navigation cancelled by the host page)`,
    );
    expect(new URL(page.url()).pathname).toBe('/schedule.html');
  });

  test('Tab reaches the first card link and Enter follows it', async ({ page }) => {
    const schedule = live(page);
    await expectEvents(schedule);
    const first = eventLinks(schedule).first();
    const href = await first.getAttribute('href');
    // Tab from the top of the page until focus lands in the first schedule's first card.
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await first.evaluate((a) => (a.getRootNode() as ShadowRoot).activeElement === a);
    }
    expect(reached, 'Tab reaches the first card link').toBe(true);
    // The focused link shows a focus ring.
    expect(await first.evaluate((a) => getComputedStyle(a).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${href}`);
  });
});

test.describe('accessibility', () => {
  test('axe finds no WCAG 2.1 A/AA violations on schedule.html', async ({ page, makeAxeBuilder }) => {
    for (const schedule of [live(page), upcoming(page), vod(page), intercepted(page), withCalendar(page)])
      await expectEvents(schedule);
    const results = await makeAxeBuilder().analyze();
    expect(results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }))).toEqual([]);
  });
});

test.describe('calendar', () => {
  /** The New York day (the pinned zone) of an instant, YYYY-MM-DD. */
  const nyDay = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(ms);
  /** A New York day's midnight as UNIX seconds, from the zone's offset that day. */
  const nyMidnight = (day: string) => {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'longOffset' })
      .formatToParts(Date.parse(`${day}T12:00:00Z`))
      .find((p) => p.type === 'timeZoneName')!
      .value.replace('GMT', '');
    return Date.parse(`${day}T00:00:00${offset}`) / 1000;
  };
  const dayButton = (schedule: Locator, day: string) => schedule.locator(`[part~="calendar-day"][data-day="${day}"]`);
  /** Brings a day into the strip with the next-week button. */
  async function showDay(schedule: Locator, day: string): Promise<void> {
    for (let i = 0; i < 6 && !(await dayButton(schedule, day).count()); i++)
      await schedule.locator('[part~="calendar-next"]').click();
    await expect(dayButton(schedule, day)).toHaveCount(1);
  }
  const dates = (url: string) => {
    const params = new URL(url).searchParams;
    return [params.get('start_date'), params.get('end_date')];
  };

  test("a day lists that day's events, asked for from its New York midnight for the spec's 86,400 s; by keyboard too", async ({
    page,
  }) => {
    const schedule = withCalendar(page);
    await expectEvents(schedule);
    await expect(schedule.getByRole('radio', { name: 'All days' })).toHaveAttribute('aria-checked', 'true');
    await expect(schedule.locator('[part~="calendar-day"]')).toHaveCount(7);
    await expect(schedule.locator('[aria-current="date"]')).toHaveAttribute('data-day', nyDay(Date.now()));
    const day = nyDay((await times(schedule))[0]!);
    await showDay(schedule, day);
    const asked = page.waitForRequest(eventsRequest({ start_date: String(nyMidnight(day)) }));
    await dayButton(schedule, day).click();
    expect(dates((await asked).url())).toEqual([String(nyMidnight(day)), String(nyMidnight(day) + 86_399)]);
    await expect(dayButton(schedule, day)).toHaveAttribute('aria-checked', 'true');
    await expect(schedule.locator('[part~="loading"]')).toHaveCount(0);
    const shown = await times(schedule);
    expect(shown.length).toBeGreaterThan(0);
    for (const t of shown) expect(nyDay(t)).toBe(day);

    // The arrow key chooses the next day and keeps focus on it.
    const next = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const nextAsked = page.waitForRequest(eventsRequest({ start_date: String(nyMidnight(next)) }));
    await page.keyboard.press('ArrowRight');
    expect(dates((await nextAsked).url())[1]).toBe(String(nyMidnight(next) + 86_399));
    await expect(schedule.locator(`[data-day="${next}"]`)).toHaveAttribute('aria-checked', 'true');
    expect(
      await schedule
        .locator(`[data-day="${next}"]`)
        .evaluate((b) => (b.getRootNode() as ShadowRoot).activeElement === b),
    ).toBe(true);
  });

  test('fits a 390 px phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const schedule = withCalendar(page);
    await expectEvents(schedule);
    const element = (await schedule.boundingBox())!;
    for (const button of await schedule.locator('[part~="calendar"] button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(element.x + element.width + 0.5);
      expect(box.width).toBeGreaterThanOrEqual(24);
    }
  });
});
