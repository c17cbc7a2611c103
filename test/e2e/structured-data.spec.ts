// `<channel-schedule structured-data>` on a partner's page (the cross-origin CMS host): the schema.org JSON-LD it
// writes into the page's head, checked against what search engines require of events and against the API's events.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { eventsRequest, expectEvents, HOST_ORIGIN } from './helpers';

const ISO_WITH_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const SCHEMA = 'https://schema.org/';

interface Node {
  '@type': string;
  [key: string]: unknown;
}

/** The JSON-LD scripts in the page's head, parsed. */
async function jsonLd(page: Page): Promise<{ '@context': string; '@graph': Node[] }[]> {
  const texts = await page.locator('head script[type="application/ld+json"]').allTextContents();
  return texts.map((text) => JSON.parse(text) as { '@context': string; '@graph': Node[] });
}

interface ApiEvent {
  id: number;
  name: string;
  type: string;
  price?: number | null;
  event_utc_ts: number;
  participants: { name: string }[];
}

test('the schedule writes a SportsEvent and its BroadcastEvent per event shown, with the price of paid events, and removes them with the element', async ({
  page,
}) => {
  const answer = page.waitForResponse((r) => eventsRequest({})(r.request()));
  await page.goto(`${HOST_ORIGIN}/cms.html`);
  const schedule = page.locator('channel-schedule');
  await expectEvents(schedule);
  const events = ((await (await answer).json()) as { data: ApiEvent[] }).data;
  expect(events.length).toBeGreaterThan(0);

  await expect.poll(async () => (await jsonLd(page)).length).toBe(1);
  const [data] = await jsonLd(page);
  expect(data!['@context']).toBe('https://schema.org');
  const sports = data!['@graph'].filter((n) => n['@type'] === 'SportsEvent');
  const broadcasts = data!['@graph'].filter((n) => n['@type'] === 'BroadcastEvent');
  expect(sports).toHaveLength(events.length);
  expect(broadcasts).toHaveLength(events.length);
  expect(data!['@graph'].every((n) => n['@type'] === 'SportsEvent' || n['@type'] === 'BroadcastEvent')).toBe(true);

  // What search engines require of an event (name, start with its zone, location) and recommend (end, status,
  // attendance mode, offers with price, currency, url and availability), for every event the list shows.
  for (const [i, event] of events.entries()) {
    const node = sports[i]!;
    const url = `${HOST_ORIGIN}/watch/${event.id}`;
    expect(node).toMatchObject({
      '@id': `${url}#event`,
      name: event.name,
      url,
      startDate: new Date(event.event_utc_ts * 1000).toISOString(),
      eventStatus: `${SCHEMA}EventScheduled`,
      eventAttendanceMode: `${SCHEMA}OnlineEventAttendanceMode`,
      location: { '@type': 'VirtualLocation', url },
    });
    expect(node.startDate).toMatch(ISO_WITH_ZONE);
    if (node.endDate !== undefined) expect(String(node.endDate) > String(node.startDate)).toBe(true);
    const teams = [
      node.homeTeam,
      ...((node.awayTeam as unknown[] | undefined) ?? []),
      ...((node.competitor as unknown[] | undefined) ?? []),
    ]
      .filter(Boolean)
      .map((team) => (team as Node).name);
    expect(teams.sort()).toEqual(event.participants.map((p) => p.name).sort());
    const paid = event.type === 'paid' || event.type === 'ppv';
    expect(node.isAccessibleForFree).toBe(!paid);
    if (paid && event.price) {
      expect(node.offers).toEqual({
        '@type': 'Offer',
        price: event.price,
        priceCurrency: 'USD',
        url,
        availability: `${SCHEMA}InStock`,
      });
    } else {
      expect(node.offers).toBeUndefined();
    }
    const broadcast = broadcasts[i]!;
    expect(broadcast).toMatchObject({ broadcastOfEvent: { '@id': `${url}#event` }, name: event.name, url });
    expect(typeof broadcast.isLiveBroadcast).toBe('boolean');
  }
  expect(sports.some((n) => n.offers)).toBe(true);

  // Removed with the element, and with the attribute.
  await schedule.evaluate((el) => el.removeAttribute('structured-data'));
  await expect.poll(async () => (await jsonLd(page)).length).toBe(0);
  await schedule.evaluate((el) => el.setAttribute('structured-data', ''));
  await expect.poll(async () => (await jsonLd(page)).length).toBe(1);
  await schedule.evaluate((el) => el.remove());
  await expect.poll(async () => (await jsonLd(page)).length).toBe(0);
});

test('without the attribute, a schedule writes nothing into the page', async ({ page }) => {
  await page.goto(`${HOST_ORIGIN}/cms.html`);
  const schedule = page.locator('channel-schedule');
  await schedule.evaluate((el) => el.removeAttribute('structured-data'));
  await expectEvents(schedule);
  await page.waitForTimeout(500);
  expect(await jsonLd(page)).toEqual([]);
});
