// The rest of the fault matrices (`npm run test:faults`, also run by .ci/run): the cases of test/faults/*.spec.ts
// tagged `@full`, which `npm test` leaves out. `npm test` runs the other cases of the same files
// (playwright.config.ts), so the two runs together cover every case once.
//
// Four workers, not two: these cases spend most of their time waiting on the clock (timeouts, retries with their
// delays, stalled streams, a live edge moving in real time), not on the CPU; on the 2-core machine the run took
// 12 minutes with four workers in the headless shell (scripts/chromium.mjs), against 26 to 36 in the full browser
// with a trace of every case, where cases that wait on real time failed under the load.
// The other share alone: npx playwright test test/faults (the base config).
import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';

export default defineConfig({
  ...base,
  testDir: 'test/faults',
  testMatch: '*.spec.ts',
  grep: /@full/,
  grepInvert: undefined,
  workers: 4,
  outputDir: 'test-results/faults',
});
