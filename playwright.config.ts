// Playwright end-to-end tests: test/e2e/*.spec.ts over the demo pages, against the real reference server, plus the
// fast share of the fault matrices in test/faults/ (cases tagged `@full` run only in `npm run test:faults`, whose
// config, playwright.faults.config.ts, extends this one).
// The server serves the built bundle from dist/, so build first (`npm run test:e2e` does).
//
// Run all:   npx playwright test
// Run one:   npx playwright test test/e2e/schedule.spec.ts -g "shows the next event"
// Server logs: E2E_SERVER_LOGS=1 npx playwright test
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { PARTS_E2E_DIR } from './test/e2e/parts-dir.js';
import { E2E_HOST_PORT, E2E_LARAVEL_HOST_PORT, E2E_LARAVEL_PORT, E2E_PORT } from './test/e2e/ports.js';
// @ts-expect-error TS7016: chromium.mjs is plain JS shared with web-test-runner.config.mjs and ensure-chromium.mjs,
// and has no declaration file. Adding scripts/chromium.d.mts would make this line (and the cast below) unnecessary.
import { testLaunchOptions } from './scripts/chromium.mjs';

const launchOptions = testLaunchOptions as () => { executablePath: string; args: string[] };

/** Ports reserved for tests, so a dev server on the usual ports keeps running (E2E_PORT moves them). */
const PORT = E2E_PORT;
const HOST_PORT = E2E_HOST_PORT;

// A fresh, empty data directory per run. This file is evaluated again in every worker process; the workers
// inherit the environment, so `??=` keeps one directory for the whole run and specs can read it from there.
const createdDataDir = !process.env.E2E_DATA_DIR;
const dataDir = (process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'channel-e2e-')));
if (createdDataDir && process.env.E2E_KEEP_DATA !== '1') {
  // Removed when the runner exits (after the web server has been stopped). E2E_KEEP_DATA=1 keeps it to inspect.
  process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
}

// The parts the pages render are collected afresh each run (test/e2e/fixtures.ts); workers set TEST_WORKER_INDEX.
if (process.env.TEST_WORKER_INDEX === undefined) fs.rmSync(PARTS_E2E_DIR, { recursive: true, force: true });

const isCI = !!process.env.CI;

export default defineConfig({
  testDir: 'test',
  testMatch: /[\\/]test[\\/](e2e|faults)[\\/][^\\/]+\.spec\.ts$/,
  grepInvert: /@full/,
  outputDir: 'test-results/e2e',
  // Two workers on two cores. Three were tried (2026-11-28): 19.2 min with other work running, against 18.6 min for
  // two on a quiet machine, and three cases that wait on real-time video timed out under the load.
  workers: 2,
  fullyParallel: true,
  retries: isCI ? 1 : 0,
  forbidOnly: isCI,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    launchOptions: launchOptions(),
    baseURL: `http://localhost:${PORT}`,
    timezoneId: 'America/New_York',
    locale: 'en-US',
    viewport: { width: 1280, height: 720 },
    // A trace is recorded on CI's retry of a failed case only (npx playwright test --trace on records them all):
    // recording every case took a third of the run's time (site.spec 5.3 min with traces, 3.6 without, 2026-11-28).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      // Dev mode: the demo pages, stand-ins and /__dev/ endpoints the specs drive (they read its secret from DATA_DIR).
      command: 'node --import tsx server/main.ts --dev',
      url: `http://localhost:${PORT}/api/settings?channel_key=demo`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: process.env.E2E_SERVER_LOGS === '1' ? 'pipe' : 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST_PORT: String(HOST_PORT),
        METRICS_PORT: '0',
        DATA_DIR: dataDir,
        // A new data directory starts from a ready-made database (made once, kept in .cache/) instead of creating and
        // seeding one, which takes PGlite 10 to 40 s.
        DATABASE_TEMPLATES: path.join(import.meta.dirname, '.cache', 'db-templates'),
        // Specs sign in, buy and start fresh visitors many times from one address; keep the limiters out of the way.
        RATE_LIMIT_MAX: '100000',
        API_KEY_RATE_MAX: '100000',
        REGISTRATION_RATE_MAX: '100000',
        EMAIL_RATE_MAX: '100000',
        // Every failure the specs provoke posts a log entry from this one address, and some specs read theirs back.
        LOG_RATE_MAX: '100000',
        LOG_MAX_PER_CHANNEL: '100000',
      },
    },
    {
      // The second channel API (test/e2e/laravel-api.ts): the spec's calls with a Laravel/MySQL back end's habits, and
      // the host pages of the journeys against it (laravel.spec.ts) on an origin of their own, so that every call to it
      // is cross-origin (CORS, preflights); the bundle comes from the server above.
      command: 'node --import tsx test/e2e/laravel-api.ts',
      url: `http://localhost:${E2E_LARAVEL_PORT}/keys/laravel-demo.json`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        LARAVEL_PORT: String(E2E_LARAVEL_PORT),
        LARAVEL_HOST_PORT: String(E2E_LARAVEL_HOST_PORT),
        BUNDLE_ORIGIN: `http://localhost:${PORT}`,
      },
    },
  ],
});
