/**
 * Injected into every test bundle of the web test runner (web-test-runner.config.mjs): the parts probe
 * (parts-probe-core.ts), and after each test file a report of what it saw to the test server (`/__parts`, which
 * writes test-results/parts.json).
 */
import { installPartsProbe } from './parts-probe-core.js';

installPartsProbe();

after(async () => {
  const seen = (window as unknown as { __channelParts?: Record<string, string[]> }).__channelParts ?? {};
  if (!Object.keys(seen).length) return;
  await fetch('/__parts', { method: 'POST', body: JSON.stringify(seen) }).catch(() => undefined);
});
