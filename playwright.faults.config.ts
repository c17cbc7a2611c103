// The full fault matrices (`npm run test:faults`, also run by .ci/run): every case in test/faults/*.spec.ts, the
// `@full` ones included. `npm test` runs the same files without the `@full` cases (playwright.config.ts).
import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';

export default defineConfig({
  ...base,
  testDir: 'test/faults',
  testMatch: '*.spec.ts',
  grepInvert: undefined,
  outputDir: 'test-results/faults',
});
