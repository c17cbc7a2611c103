// Helpers shared by the e2e specs (not a spec itself: playwright.config.ts only runs *.spec.ts).
import fs from 'node:fs';
import path from 'node:path';
import {
  expect,
  type APIRequestContext,
  type BrowserContext,
  type FrameLocator,
  type Locator,
  type Page,
  type Request,
} from '@playwright/test';
import { E2E_HOST_PORT, E2E_PORT } from './ports.js';

/** The reference server (bundle, API, demo pages) and its second listener, the cross-origin "CMS host". */
export const BUNDLE_ORIGIN = `http://localhost:${E2E_PORT}`;
export const HOST_ORIGIN = `http://localhost:${E2E_HOST_PORT}`;

/** Every demo page, read from disk so a new page is covered without editing the specs. */
export const DEMO_PAGES = fs
  .readdirSync(path.join(process.cwd(), 'demo', 'site'))
  .filter((f) => f.endsWith('.html'))
  .sort();

/** The build under test, as dist/integrity.json describes it (scripts/integrity.mjs). */
export interface BuiltBundle {
  version: string;
  /** The loader at its release's own URL (`channel-elements@<version>.js`) and its `integrity` value. */
  loader: { file: string; integrity: string };
  /** Each tag's root chunk, `chunks/<tag>-<hash>.js`. */
  tags: Record<string, string>;
  /** Every chunk and table file (`chunks/…`) and its integrity value. */
  chunks: Record<string, string>;
}

/** Reads dist/integrity.json (the e2e run serves the built bundle: `npm run test:e2e` builds first). */
export function builtBundle(): BuiltBundle {
  return JSON.parse(fs.readFileSync(path.join(process.cwd(), 'dist', 'integrity.json'), 'utf8')) as BuiltBundle;
}

/**
 * The files of the built chunks' table (scripts/integrity.mjs), under chunks/: `firsts`, those the loader names (one
 * per group of tags), `rest`, the whole table, which each of them names in `n` (read this way, not by listing
 * dist/chunks/, where earlier builds' files stay), and `fileOf(root)`, the file the loader fetches for a tag.
 */
export function chunkTables(): { firsts: string[]; rest: string; fileOf(root: string): string } {
  const dist = path.join(process.cwd(), 'dist');
  const loader = fs.readFileSync(path.join(dist, 'channel-elements.js'), 'utf8');
  const firsts = [...new Set(loader.match(/integrity-[\w-]{8}\.js\b/g))];
  // The loader's list: root -> [file, sha256]; the roots it does not list have the file under ''.
  const listed = new Map(
    [...loader.matchAll(/"([\w-]*)":\["(integrity-[\w-]{8}\.js)"/g)].map((m) => [m[1]!, m[2]!] as const),
  );
  const fileOf = (root: string) => listed.get(root) ?? listed.get('')!;
  if (!firsts.length) throw new Error('the loader names no chunks table');
  const wholes = new Set(
    firsts.map((first) => {
      const table = tableOf(fs.readFileSync(path.join(dist, 'chunks', first), 'utf8')) as { n?: [string, string] };
      if (!table.n) throw new Error(`${first} names no whole table`);
      return table.n[0];
    }),
  );
  if (wholes.size !== 1) throw new Error(`the loader's tables name ${wholes.size} whole tables`);
  return { firsts, rest: [...wholes][0]!, fileOf };
}

/** The table a table file (a module: scripts/integrity.mjs) exports as `__T`. */
export function tableOf(module: string): unknown {
  const start = module.lastIndexOf('export const __T=');
  if (start < 0 || !module.endsWith(';')) throw new Error('not a table file');
  return JSON.parse(module.slice(start + 'export const __T='.length, -1));
}

/** Custom element tags in the light DOM of the page that are not defined yet. */
export async function undefinedTags(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...new Set([...document.querySelectorAll('*')].map((e) => e.localName).filter((n) => n.includes('-')))].filter(
      (n) => !customElements.get(n),
    ),
  );
}

/** Custom element tags used in the light DOM. */
export async function usedTags(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...new Set([...document.querySelectorAll('*')].map((e) => e.localName).filter((n) => n.includes('-'))),
  ]);
}

/** The event links of a schedule (locators pierce its open shadow root). */
export const eventLinks = (schedule: Locator) => schedule.locator('[part~="event-link"]');

/** Waits until a schedule has left its loading state and shows events. */
export async function expectEvents(schedule: Locator): Promise<void> {
  await expect(eventLinks(schedule).first()).toBeVisible({ timeout: 10_000 });
  await expect(schedule.locator('[part~="loading"]')).toHaveCount(0);
}

/** Waits until every element on the page has finished starting up (no loading panel or skeleton left). */
export async function expectSettled(page: Page): Promise<void> {
  await expect(page.locator('[part~="frame"]').first()).toBeVisible({ timeout: 10_000 });
  await expect(page.locator('[part~="loading"]')).toHaveCount(0, { timeout: 10_000 });
}

/** Matches a GET /api/events request by its query parameters. */
export function eventsRequest(params: Record<string, string>) {
  return (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname !== '/api/events') return false;
    return Object.entries(params).every(([k, v]) => url.searchParams.get(k) === v);
  };
}

/** Every request the page makes, in order. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

/** Starts collecting `securitypolicyviolation` events in every document of the page, before any page script. */
export async function watchCsp(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
}

/** The CSP violations collected by watchCsp. */
export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

/** The seeded events' fixture keys to their ids on a channel (`paid-live`, `free-live`...), from the dev endpoint. */
export async function demoEventIds(request: APIRequestContext, channelKey = 'demo'): Promise<Record<string, number>> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/events?channel_key=${channelKey}`);
  return ((await answer.json()) as { data: Record<string, number> }).data;
}

let registered = 0;

/** Registers a fresh viewer on the demo channel through the API; answers their email, password and token. */
export async function registerViewer(
  request: APIRequestContext,
  tag: string,
): Promise<{ email: string; password: string; token: string }> {
  const keyAnswer = await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } });
  const apiKey = ((await keyAnswer.json()) as { data: { api_key: string } }).data.api_key;
  const email = `${tag}-${Date.now().toString(36)}-${process.pid}-${registered++}@example.com`;
  const password = 'viewer-pass-1';
  const answer = await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/register`, {
    data: {
      api_key: apiKey,
      email,
      password,
      password_confirmation: password,
      first_name: 'Hana',
      last_name: 'Host',
      terms: true,
    },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  return { email, password, token: ((await answer.json()) as { data: { token: string } }).data.token };
}

/** Stores a sign-in where the session reads it, in every page of the context from now on (before the bundle). */
export async function signInWith(context: BrowserContext | Page, token: string, channelKey = 'demo'): Promise<void> {
  await context.addInitScript(
    ([key, value]) => {
      // A new tab's about:blank has no storage of its own.
      if (location.protocol.startsWith('http'))
        localStorage.setItem(`rudy_token.${key}`, JSON.stringify({ v: value, e: Date.now() + 3_600_000 }));
    },
    [channelKey, token] as const,
  );
}

/** An order as GET /__dev/orders lists it (settled as of now), with its transactions. */
export interface DevOrder {
  id: number;
  reference: string | null;
  status: string;
  type: string;
  partner: string | null;
  transactions: { id: number; status: string; amount: number; label: string | null }[];
}

/** A viewer's orders as the server has them now (GET /__dev/orders; `request` carries the dev secret). */
export async function devOrders(request: APIRequestContext, email: string, channelKey = 'demo'): Promise<DevOrder[]> {
  const answer = await request.get(
    `${BUNDLE_ORIGIN}/__dev/orders?channel_key=${channelKey}&email=${encodeURIComponent(email)}`,
  );
  expect(answer.ok(), await answer.text()).toBe(true);
  return ((await answer.json()) as { data: DevOrder[] }).data;
}

/**
 * From a checkout's summary to its card step, then types a card into the (light DOM) Payment Element, whose labels
 * are in the checkout's language (English or French).
 */
export async function enterCard(checkout: Locator, number: string): Promise<void> {
  await checkout.locator('[part~="continue"]').click();
  await expect(checkout.locator('[part~="payment"]')).toBeVisible();
  await typeCard(checkout, number);
}

/** Types a card into the checkout's Payment Element (already shown), replacing what was there. */
export async function typeCard(checkout: Locator, number: string): Promise<void> {
  const field = checkout.locator('[slot="card"]');
  await field.getByLabel(/^(Card number|Numéro de carte)$/).fill(number);
  await field.getByLabel(/^(Expiry|Date d'expiration)/).fill('12 / 34');
  await field.getByLabel('CVC').fill('123');
}

/** Stripe's authentication test card: the payment asks for 3-D Secure (the bank's challenge) on the page. */
export const CARD_3DS = '4000 0025 0000 3155';

/** The bank's 3-D Secure challenge the Stripe double shows over the page: its dialog, and its page inside. */
export function stripeChallenge(page: Page): { dialog: Locator; frame: FrameLocator } {
  const dialog = page.locator('dialog.stripe-double-challenge');
  return { dialog, frame: page.frameLocator('dialog.stripe-double-challenge iframe') };
}

/** Completes the challenge shown over the page (its "Complete authentication" button), as the cardholder would. */
export async function completeChallenge(page: Page): Promise<void> {
  const { dialog, frame } = stripeChallenge(page);
  await expect(dialog).toBeVisible({ timeout: 10_000 });
  await frame.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(dialog).toHaveCount(0);
}

/** A channel's finished events as a guest sees them (`GET events?stream_status=finished`), newest first. */
export async function finishedEvents(
  request: APIRequestContext,
  channelKey = 'demo',
  limit = 200,
): Promise<{ id: number; type: string; has_recording: boolean }[]> {
  const key = (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: channelKey } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const list = (await (
    await request.get(`${BUNDLE_ORIGIN}/api/events?stream_status=finished&limit=${limit}&api_key=${key}`)
  ).json()) as { data: { id: number; type: string; has_recording: boolean }[] };
  return list.data;
}
