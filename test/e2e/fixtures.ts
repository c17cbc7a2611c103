// Shared Playwright fixtures. Specs import { test, expect } from here instead of from @playwright/test.
//
// Every page in a test's browser context is watched: an uncaught exception (`pageerror`) always fails the test,
// and so does a console error (including the browser's own "Failed to load resource" lines), unless the test
// opts out with `test.use({ allowConsoleErrors: true })` or lists the errors it expects:
//   test.use({ allowConsoleErrors: [/401 \(Unauthorized\)/] });
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test';
import { DEV_SECRET_HEADER } from '../../server/app/exposure.js';
import { installPartsProbe } from '../parts-probe-core.js';
import { PARTS_E2E_DIR } from './parts-dir.js';

/**
 * This run's dev secret: the reference server (started in dev mode by playwright.config.ts) writes it to its
 * DATA_DIR, and the `/__dev/` endpoints answer only requests that carry it.
 */
export function devSecret(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the specs through playwright.config.ts');
  return fs.readFileSync(path.join(dataDir, 'dev-secret'), 'utf8').trim();
}

/** Options for the fixtures below, set with `test.use({ ... })`. */
export interface ErrorOptions {
  /** true: ignore console errors; a list: ignore console errors whose text matches one of these. */
  allowConsoleErrors: boolean | (string | RegExp)[];
}

/** Extra fixtures. */
export interface Fixtures {
  /** An axe audit of the page with WCAG 2 A/AA rules: `expect((await makeAxeBuilder().analyze()).violations).toEqual([])`. */
  makeAxeBuilder: () => AxeBuilder;
}

function describeConsole(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location();
  return `console.error: ${message.text()}${url ? ` (${url}:${lineNumber + 1})` : ''}`;
}

function isAllowed(text: string, allowed: ErrorOptions['allowConsoleErrors'] | string | RegExp): boolean {
  if (allowed === true) return true;
  if (allowed === false) return false;
  // Playwright reads an option given as [value, options]: `[/x/]` arrives as the pattern itself.
  const patterns = Array.isArray(allowed) ? allowed : [allowed];
  return patterns.some((pattern) => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)));
}

/** The parts this worker's pages rendered (tag -> parts), written to test-results/parts-e2e/ after each test. */
const partsSeen = new Map<string, Set<string>>();
let partsChanged = false;
function partSeen(tag: string, part: string): void {
  if (typeof tag !== 'string' || typeof part !== 'string') return;
  const set = partsSeen.get(tag) ?? new Set<string>();
  if (!set.has(part)) partsChanged = true;
  partsSeen.set(tag, set.add(part));
}
function writeParts(): void {
  if (!partsChanged) return;
  partsChanged = false;
  const file = path.join(PARTS_E2E_DIR, `worker-${process.env.TEST_PARALLEL_INDEX ?? '0'}-${process.pid}.json`);
  fs.mkdirSync(PARTS_E2E_DIR, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries([...partsSeen].map(([t, p]) => [t, [...p].sort()]))));
}

/** `test` from @playwright/test whose pages fail the test on page errors and console errors. */
export const test = base.extend<ErrorOptions & Fixtures>({
  allowConsoleErrors: [false, { option: true }],

  context: async ({ context, allowConsoleErrors }, use) => {
    const problems: string[] = [];
    const watch = (page: Page) => {
      page.on('pageerror', (error) => problems.push(`pageerror on ${page.url()}: ${error.stack ?? error.message}`));
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const line = describeConsole(message);
        if (!isAllowed(line, allowConsoleErrors)) problems.push(line);
      });
    };
    context.pages().forEach(watch);
    context.on('page', watch);
    // The CSS parts our elements render (test/parts-probe-core.ts), for the check of the documented parts.
    await context.exposeBinding('__channelPartSeen', (_source, tag: string, part: string) => partSeen(tag, part));
    await context.addInitScript(installPartsProbe);

    await use(context);
    writeParts();

    expect(problems, 'the page reported errors (see test/e2e/fixtures.ts to allow expected ones)').toEqual([]);
  },

  // API calls of the specs (the `request` fixture) carry the dev secret, so they can drive `/__dev/`; pages do not.
  request: async ({ playwright }, use) => {
    const request = await playwright.request.newContext({ extraHTTPHeaders: { [DEV_SECRET_HEADER]: devSecret() } });
    await use(request);
    await request.dispose();
  },

  makeAxeBuilder: async ({ page }, use) => {
    await use(() => new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']));
  },
});

export { expect };
