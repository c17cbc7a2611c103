// Finds a Chromium for the test runners (web-test-runner and Playwright) and the flags to launch it with.
// Playwright's own browser download cannot reach its CDN on our machines, so Debian's `chromium` package is the
// usual answer; CHROME_PATH lets anyone point at another build. docs/development.md ("The two commands") says what
// `npm test` does when none is found.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Flags for headless Chromium as root with no network (no sandbox, no GPU, no background fetches). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--autoplay-policy=no-user-gesture-required',
];

/** System locations tried after CHROME_PATH and Playwright's own download, in order. */
export const systemChromiumPaths = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * Where Debian's `chromium-headless-shell` package puts the headless shell: the same Blink and V8 as `chromium` in a
 * build without the browser's user interface. Playwright runs its headless tests in it by default. Measured here
 * (2026-11-28, site.spec, two workers): 2.9 min against 3.6 min in the full browser, whose new headless mode starts
 * a renderer for its own user interface beside every page.
 */
export const headlessShellPath = '/usr/bin/chromium-headless-shell';

/** Path of Playwright's downloaded Chromium if that file exists, else null (it never throws). */
function playwrightChromium() {
  for (const pkg of ['playwright-core', '@playwright/test']) {
    try {
      const { chromium } = require(pkg);
      const path = chromium.executablePath();
      if (path && existsSync(path)) return path;
    } catch {
      // Package missing or no browser registry entry: try the next source.
    }
  }
  return null;
}

/**
 * The Chromium executable to test with, or null when none is found.
 * Order: CHROME_PATH, Playwright's own browser, /usr/bin/chromium, /usr/bin/chromium-browser, /usr/bin/google-chrome.
 */
export function findChromium() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    // An explicit choice that does not exist is a mistake worth reporting, not something to paper over.
    if (!existsSync(fromEnv)) {
      throw new Error(`CHROME_PATH is set to ${fromEnv}, but no file exists there. Fix or unset CHROME_PATH.`);
    }
    return fromEnv;
  }
  return playwrightChromium() ?? systemChromiumPaths.find((path) => existsSync(path)) ?? null;
}

/**
 * The Chromium the test runners use: CHROME_PATH when set, else the headless shell (Debian's package, which
 * scripts/ensure-chromium.mjs installs beside `chromium` when it can), else findChromium(). The benches keep the
 * full browser (launchOptions), as a viewer's.
 */
export function findTestChromium() {
  if (process.env.CHROME_PATH) return findChromium();
  return existsSync(headlessShellPath) ? headlessShellPath : findChromium();
}

/** Launch options for the test runners (Playwright, @web/test-runner-playwright), in findTestChromium()'s browser. */
export function testLaunchOptions() {
  return launchOptions(findTestChromium());
}

/**
 * Launch options for Playwright: `{ executablePath, args }`, in findChromium()'s browser unless given one.
 * Throws if no Chromium.
 */
export function launchOptions(executablePath = findChromium()) {
  if (!executablePath) {
    throw new Error(
      'No Chromium found. Run `node scripts/ensure-chromium.mjs` (or `sudo apt-get install -y chromium`), ' +
        'or set CHROME_PATH=/path/to/chrome.',
    );
  }
  return { executablePath, args: [...chromiumArgs] };
}
