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

/** Launch options for Playwright and @web/test-runner-playwright: `{ executablePath, args }`. Throws if no Chromium. */
export function launchOptions() {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error(
      'No Chromium found. Run `node scripts/ensure-chromium.mjs` (or `sudo apt-get install -y chromium`), ' +
        'or set CHROME_PATH=/path/to/chrome.',
    );
  }
  return { executablePath, args: [...chromiumArgs] };
}
