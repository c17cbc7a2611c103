// french.html: the demo-fr channel on a page in French, with its own currency and colours.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectEvents } from './helpers';

const live = (page: Page) => page.locator('channel-schedule[kind="live"]');
const upcoming = (page: Page) => page.locator('channel-schedule[kind="upcoming"]');

/** Computed style values of an element inside a shadow root. */
const styleOf = (locator: Locator, ...props: string[]) =>
  locator.evaluate((el, names) => {
    const s = getComputedStyle(el);
    return Object.fromEntries(names.map((n) => [n, s.getPropertyValue(n)]));
  }, props);

/** Any whitespace (incl. the narrow no-break space Intl puts in French numbers) as a plain space. */
const spaces = (s: string) => s.replace(/\s/g, ' ');

test('French texts: titles, badges and filter labels', async ({ page }) => {
  await page.goto('/french.html');
  await expectEvents(live(page));
  await expectEvents(upcoming(page));
  await expect(live(page).locator('[part~="title"]')).toHaveText('En direct');
  await expect(upcoming(page).locator('[part~="title"]')).toHaveText('Événements à venir');
  await expect(live(page).locator('[part~="badge-live"]').first()).toHaveText('En direct');
  await expect(live(page).locator('[part~="frame"]')).toHaveAttribute('lang', 'fr');
  const filters = upcoming(page).getByRole('search', { name: 'Filtrer les événements' });
  for (const label of ['Genre', 'Sport', 'Ville', 'État']) {
    await expect(filters.getByRole('combobox', { name: new RegExp(`^${label}\\b`) })).toHaveCount(1);
  }
  await expect(filters.getByRole('button', { name: 'Effacer les filtres' })).toBeVisible();
  // Dates in French ("sam. 21 nov." style), not English weekday names.
  const date = await upcoming(page).locator('time').first().textContent();
  expect(date).not.toMatch(/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/);
  expect(date).toMatch(/\b(lun|mar|mer|jeu|ven|sam|dim)\./);
});

test('the calendar speaks French: its labels, the days, a day chosen', async ({ page }) => {
  await page.goto('/french.html');
  const schedule = upcoming(page);
  await expectEvents(schedule);
  const calendar = schedule.getByRole('group', { name: 'Calendrier' });
  await expect(calendar.getByRole('radio', { name: 'Tous les jours' })).toHaveAttribute('aria-checked', 'true');
  await expect(calendar.getByRole('button', { name: 'Semaine suivante' })).toBeVisible();
  const today = calendar.locator('[aria-current="date"]');
  await expect(today).toHaveAttribute(
    'aria-label',
    /^Aujourd'hui, (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d+ \S+ \d{4}$/,
  );
  const day = (await today.getAttribute('data-day'))!;
  const asked = page.waitForRequest((r) => new URL(r.url()).searchParams.has('start_date'));
  await today.click();
  expect(new URL((await asked).url()).searchParams.get('end_date')).not.toBeNull();
  await expect(today).toHaveAttribute('aria-checked', 'true');
  // Today's events, or the sentence that there are none on that day.
  await expect(schedule.locator('[part~="loading"]')).toHaveCount(0);
  if (!(await schedule.locator('[part~="event-link"]').count()))
    await expect(schedule.locator('[part~="empty"]')).toHaveText(/^Aucun événement le .+ \d{4}\.$/);
  expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

test("prices are in the channel's currency, in the spec's form with French digits", async ({ page, request }) => {
  const settings = (await (await request.get('/api/settings?channel_key=demo-fr')).json()) as {
    data: { currency: string };
  };
  const currency = settings.data.currency;
  expect(currency).toBe('CAD');
  await page.goto('/french.html');
  await expectEvents(live(page));
  await expectEvents(upcoming(page));
  const paid = page.locator('[part~="badge-paid"], [part~="badge-ppv"]');
  await expect(paid.first()).toBeVisible();
  const texts = (await paid.allTextContents()).map(spaces);
  for (const text of texts) {
    // The code, the dollar sign and the amount with a decimal comma: "CAD $4,99" (not "4,99 $ CA").
    expect(/· (.+)$/.exec(text)?.[1], `a price in "${text}"`).toMatch(/^CAD \$\d+,\d{2}$/);
  }
});

test("the demo-fr colours are applied, not demo's", async ({ page }) => {
  async function look(path: string) {
    await page.goto(path);
    const schedule = page.locator('channel-schedule[kind="live"]');
    await expectEvents(schedule);
    const card = schedule.locator('[part~="card"]').first();
    const text = await styleOf(card, 'color');
    await card.hover();
    // The card's hover border is the channel's primary colour; its text is the channel's body text colour.
    await expect
      .poll(async () => (await styleOf(card, 'border-top-color'))['border-top-color'])
      .not.toBe('rgb(213, 216, 222)');
    const hovered = await styleOf(card, 'border-top-color');
    const primary = await schedule.evaluate((el) =>
      getComputedStyle(el).getPropertyValue('--channel-primary-color').trim(),
    );
    return { text: text.color, accent: hovered['border-top-color'], primary };
  }
  const fr = await look('/french.html');
  const demo = await look('/schedule.html');
  // From server/fixtures: demo-fr primary #b91c1c, body text #2b1d16; demo primary #1d4ed8, body text #1b2430.
  expect(fr).toEqual({ text: 'rgb(43, 29, 22)', accent: 'rgb(185, 28, 28)', primary: '#b91c1c' });
  expect(demo).toEqual({ text: 'rgb(27, 36, 48)', accent: 'rgb(29, 78, 216)', primary: '#1d4ed8' });
});
