// The analytics layer end to end, as a channel's numbers arrive at the reference server: the datalake session, page
// views with the previous page, sign-ins, the outer tracker, the API request tracker's batches, the tag manager's
// page_view, login and view_item_list, the localhost rule, and consent mode. Pages on the CMS host (another origin)
// load the elements by the script tag; what went over the wire is read back from the server's dev endpoints.
import type { APIRequestContext, Page } from '@playwright/test';
import { devSecret, expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN } from './helpers';

interface Row {
  id: number;
  at: number;
  kind: string;
  body: Record<string, unknown>;
}

const headers = () => ({ 'X-Channel-Dev-Secret': devSecret() });
let serial = 0;
/** A tracker value of this test alone: the rows of parallel tests are told apart by it. */
const uniqueTrk = (tag: string) => `${tag}-${Date.now().toString(36)}-${process.pid}-${serial++}`;

async function datalake(request: APIRequestContext, kind?: string): Promise<Row[]> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/datalake${kind ? `?kind=${kind}` : ''}`, {
    headers: headers(),
  });
  return ((await answer.json()) as { data: Row[] }).data;
}

async function gtag(request: APIRequestContext): Promise<Row[]> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/gtag?kind=event`, { headers: headers() });
  return ((await answer.json()) as { data: Row[] }).data;
}

/** Every datalake row carrying this test's tracker. */
async function mine(request: APIRequestContext, trk: string, kind?: string): Promise<Row[]> {
  return (await datalake(request, kind)).filter((row) => row.body.trk === trk);
}

/** Registers a viewer through the API (not signed in on the page). */
async function register(request: APIRequestContext): Promise<string> {
  const key = (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const email = `analytics-${Date.now().toString(36)}-${process.pid}-${serial++}@example.com`;
  await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/register`, {
    data: {
      api_key: key,
      email,
      password: 'stats-pass-1',
      password_confirmation: 'stats-pass-1',
      first_name: 'Ada',
      last_name: 'Stats',
      terms: true,
    },
  });
  return email;
}

const heading = (page: Page) => page.locator('channel-app').locator('h1[part~="page-title"]');

test('the site: one session, a visit_page per navigation with the previous page, login, trk everywhere, the tag manager events', async ({
  page,
  request,
}) => {
  const trk = uniqueTrk('site');
  const email = await register(request);
  await page.goto(`${HOST_ORIGIN}/site/?trk=${trk}`);
  await expect(heading(page)).toHaveCount(1, { timeout: 15_000 });
  const nav = page.locator('channel-app').getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('link', { name: 'Live' }).click();
  await expect(heading(page)).toHaveText('Live');
  await nav.getByRole('link', { name: 'On Demand' }).click();
  await expect(heading(page)).not.toHaveText('Live');
  // Sign in by email on the site's login page.
  await page.locator('channel-app').getByRole('link', { name: 'Sign in' }).first().click();
  const form = page.locator('channel-app').locator('[part~="sign-in"]');
  await form.getByLabel(/^Email/).fill(email);
  await form.getByLabel(/^Password/).fill('stats-pass-1');
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.locator('channel-app').getByRole('button', { name: 'Sign out' }).first()).toBeVisible({
    timeout: 10_000,
  });

  await expect
    .poll(async () => (await mine(request, trk, 'event')).filter((r) => r.body.event === 'login').length, {
      timeout: 15_000,
    })
    .toBe(1);
  const events = await mine(request, trk, 'event');
  const views = events.filter((r) => r.body.event === 'visit_page').map((r) => [r.body.page, r.body.previous_page]);
  expect(views.slice(0, 4)).toEqual([
    ['/', null],
    ['/live', '/'],
    ['/vod', '/live'],
    ['/login', '/vod'],
  ]);
  const login = events.find((r) => r.body.event === 'login')!;
  expect(login.body).toMatchObject({ method: 'email', user_email: email, profile: 'demo-analytics-profile' });
  expect(typeof login.body.user_id).toBe('number');
  // One session for this visitor, and every call of it carries the same one, the page and the tracker.
  const sessions = await mine(request, trk, 'session');
  expect(sessions).toHaveLength(1);
  expect(sessions[0]!.body).toMatchObject({ platform: 'web', device_type: 'desktop' });
  for (const row of events) {
    expect(row.body.session_uuid).toBe(sessions[0]!.body.session);
    expect(String(row.body.origin_url)).toMatch(new RegExp(`^${HOST_ORIGIN}/site`));
  }

  // The tag manager (the server's stand-in) got the page views, the login and the Live list.
  await expect
    .poll(async () =>
      (await gtag(request))
        .filter((r) =>
          String((r.body.params as { page_location?: string } | null)?.page_location ?? '').includes('/site'),
        )
        .map((r) => r.body.name),
    )
    .toEqual(expect.arrayContaining(['page_view']));
  const pushes = (await gtag(request)).map((r) => r.body as { name: string; params: Record<string, unknown> });
  expect(
    pushes.some((p) => p.name === 'page_view' && p.params.page_path === '/vod' && p.params.page_referrer === '/live'),
  ).toBe(true);
  expect(pushes.some((p) => p.name === 'login' && p.params.method === 'email')).toBe(true);
  const lists = pushes.filter((p) => p.name === 'view_item_list' && p.params.item_list_id === 'schedule-live');
  expect(lists.length).toBeGreaterThanOrEqual(1);
  const items = lists[0]!.params.items as { item_id: string; item_name: string; index: number }[];
  expect(items[0]).toMatchObject({ index: 0 });
  expect(typeof items[0]!.item_name).toBe('string');

  // The library's rails are lists too: each is reported once it shows.
  await nav.getByRole('link', { name: 'Library' }).click();
  await expect(page.locator('channel-app [part~="library-rail"]').first()).toBeVisible({ timeout: 10_000 });
  await expect
    .poll(async () =>
      (await gtag(request)).some((r) => {
        const body = r.body as { name?: string; page?: string; params?: { item_list_id?: string; items?: unknown[] } };
        return (
          body.name === 'view_item_list' &&
          /^library-rail-\d+$/.test(body.params?.item_list_id ?? '') &&
          (body.params?.items?.length ?? 0) > 0
        );
      }),
    )
    .toBe(true);

  // Leaving the page sends what the API request tracker holds, by beacon.
  await page.goto('about:blank');
  await expect
    .poll(async () => (await mine(request, trk, 'event')).filter((r) => r.body.event === 'api_request').length, {
      timeout: 10_000,
    })
    .toBeGreaterThanOrEqual(1);
  const tracked = (await mine(request, trk, 'event')).filter((r) => r.body.event === 'api_request');
  const entries = tracked.flatMap((r) => r.body.requests as { service: string; url: string; status: number }[]);
  expect(entries.map((e) => e.service)).toEqual(expect.arrayContaining(['settings', 'login']));
  const wire = JSON.stringify(tracked);
  expect(wire).not.toMatch(/api_key=|"api_key"|token|stats-pass-1|channel_key=/);
  expect(wire).not.toContain(encodeURIComponent(email));
});

test('a page with all five elements sends one tracker request per flush, with every element’s calls', async ({
  page,
  request,
}) => {
  const trk = uniqueTrk('five');
  await page.goto(`${HOST_ORIGIN}/test-analytics.html?trk=${trk}`);
  await expect(page.locator('channel-schedule [part~="event-link"]').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('channel-profile [part~="sign-in"]')).toBeVisible();
  // Wait for the page's own analytics (session, page views) so the tracker has a session to send with.
  await expect.poll(async () => (await mine(request, trk, 'session')).length, { timeout: 15_000 }).toBe(1);
  await page.goto('about:blank');
  await expect
    .poll(async () => (await mine(request, trk, 'event')).filter((r) => r.body.event === 'api_request').length, {
      timeout: 10_000,
    })
    .toBeGreaterThanOrEqual(1);
  // A moment for anything else to arrive: still one request.
  await page.waitForTimeout(500);
  const tracked = (await mine(request, trk, 'event')).filter((r) => r.body.event === 'api_request');
  expect(tracked).toHaveLength(1);
  const services = new Set((tracked[0]!.body.requests as { service: string }[]).map((e) => e.service));
  for (const service of ['settings', 'colors', 'events', 'vodItem']) expect([...services]).toContain(service);
});

test('nothing goes to the analytics service from a localhost page unless the analytics URL is given', async ({
  page,
  request,
}) => {
  const trk = uniqueTrk('local');
  // The schedule page on the bundle's own origin (localhost) has no data-analytics-url.
  await page.goto(`${BUNDLE_ORIGIN}/schedule.html?trk=${trk}`);
  await expect(page.locator('channel-schedule [part~="event-link"]').first()).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(2_500);
  await page.goto('about:blank');
  await page.waitForTimeout(500);
  expect(await mine(request, trk)).toEqual([]);
  expect((await datalake(request)).filter((r) => String(r.body.origin_url ?? '').includes('/schedule.html'))).toEqual(
    [],
  );
});

test('consent mode: nothing is sent or loaded before channelElements.consent(true); then it all arrives', async ({
  page,
  request,
}) => {
  const trk = uniqueTrk('consent');
  const analytics: string[] = [];
  page.on('request', (r) => {
    if (/\/datalake\/|gtag/.test(r.url())) analytics.push(r.url());
  });
  await page.goto(`${HOST_ORIGIN}/consent.html?trk=${trk}`);
  await expect(page.locator('channel-schedule [part~="event-link"]').first()).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(2_500);
  expect(analytics).toEqual([]);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('analytics')))).toEqual([]);

  await page.getByRole('button', { name: 'Accept analytics' }).click();
  await expect(page.locator('#consent-status')).toHaveText(/accepted/);
  await expect
    .poll(async () => (await mine(request, trk, 'event')).filter((r) => r.body.event === 'visit_page').length, {
      timeout: 10_000,
    })
    .toBe(1);
  const view = (await mine(request, trk, 'event')).find((r) => r.body.event === 'visit_page')!;
  expect(view.body).toMatchObject({ page: '/consent.html', elements: ['channel-schedule'] });
  await expect
    .poll(async () =>
      (await gtag(request)).some(
        (r) =>
          (r.body as { name?: string; params?: { item_list_id?: string } }).name === 'view_item_list' &&
          String((r.body as { page?: string }).page).endsWith('/consent.html'),
      ),
    )
    .toBe(true);
});

test('the dev page shows the channel’s numbers as they arrive, and passes axe', async ({
  page,
  request,
  makeAxeBuilder,
}) => {
  const path = `/dev-page-${Date.now().toString(36)}`;
  const partner = `dev-partner-${Date.now().toString(36)}`;
  const viewer = { session_uuid: 'd'.repeat(32), user_id: null, user_email: null };
  await page.goto(`${BUNDLE_ORIGIN}/analytics.html#dev-secret=${devSecret()}`);
  // The secret leaves the address at once.
  await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
  await expect(page.locator('#analytics-status')).toContainText('records kept', { timeout: 10_000 });
  const answer = await request.post(`${BUNDLE_ORIGIN}/datalake/event/`, {
    headers: { 'Content-Type': 'text/plain' },
    data: JSON.stringify({
      profile: 'demo-analytics-profile',
      ...viewer,
      event: 'visit_page',
      page: path,
      previous_page: '/',
      partner,
    }),
  });
  expect(answer.status()).toBe(200);
  // Refreshed within a few seconds, without reloading the page.
  await expect(
    page.getByRole('table', { name: /Page views by page/ }).getByRole('rowheader', { name: path }),
  ).toBeVisible({
    timeout: 10_000,
  });
  // The partner's row among the sales and viewers per partner: one page view, nothing sold.
  const row = page.getByRole('table', { name: 'Sales and viewers per partner' }).getByRole('row', { name: partner });
  await expect(row.getByRole('cell')).toHaveText(['0', '1', '0', '0', '0', '—']);
  await expect(
    page
      .getByRole('table', { name: /API requests per endpoint/ })
      .or(page.getByText('No API requests reported yet', { exact: false })),
  ).toBeVisible();
  expect((await makeAxeBuilder().analyze()).violations).toEqual([]);
  // French channel: its own numbers.
  await page.getByLabel('Channel').selectOption('demo-fr');
  await expect(page.locator('#analytics-status')).toContainText('demo-fr');
});
