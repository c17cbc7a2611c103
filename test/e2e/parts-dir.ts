/** Where the end-to-end tests' workers write the CSS parts their pages rendered (playwright.config.ts empties it). */
export const PARTS_E2E_DIR = 'test-results/parts-e2e';
