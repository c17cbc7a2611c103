// The npm entry in plain Node, as a server-side renderer (Next.js, Nuxt) imports it: no DOM at all. Every DOM
// global reads as undefined (a getter), so code that used one at import time (rather than checking for it) would
// throw; importing must work, export what the types promise, and configure() and consent() must do nothing there.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';

const ENTRY = new URL('../../dist/index.js', import.meta.url).href;
const DOM_GLOBALS = [
  'window',
  'document',
  'location',
  'localStorage',
  'sessionStorage',
  'customElements',
  'HTMLElement',
  'MutationObserver',
  'navigator',
  'self',
  'matchMedia',
];

const PROBE = `
for (const name of ${JSON.stringify(DOM_GLOBALS)}) {
  Object.defineProperty(globalThis, name, { configurable: true, get: () => undefined });
}
const m = await import(${JSON.stringify(ENTRY)});
m.configure({ channelKey: 'demo' });
m.consent(true);
const event = new m.ChannelPurchaseCompleteEvent({ orderId: 7, product: { type: 'event', id: 12 } });
console.log(JSON.stringify({ exports: Object.keys(m).sort(), type: event.type, detail: event.detail }));
`;

test('the npm entry imports in plain Node without a DOM, and configure() there does nothing', () => {
  assert.ok(existsSync(new URL(ENTRY)), 'dist/index.js is missing: run `npm run build` first (npm test does)');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE], { encoding: 'utf8' });
  const result = JSON.parse(out.trim().split('\n').pop()!) as { exports: string[]; type: string; detail: unknown };
  assert.deepEqual(result.exports, [
    'ChannelEventSelectEvent',
    'ChannelLoginEvent',
    'ChannelLoginRequestEvent',
    'ChannelLogoutEvent',
    'ChannelPurchaseCompleteEvent',
    'ChannelPurchaseRequestEvent',
    'ChannelVodSelectEvent',
    'configure',
    'consent',
  ]);
  assert.equal(result.type, 'channel-purchase-complete');
  assert.deepEqual(result.detail, { orderId: 7, product: { type: 'event', id: 12 } });
});
