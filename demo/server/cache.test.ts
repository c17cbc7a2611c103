/**
 * The cache headers of the bundle (static.ts bundleCacheControl): in production what a CDN in front of the server
 * should keep (content-hashed chunks a year and immutable, the loader 5 minutes, each tag's chunk under its own
 * name revalidated); in dev mode, where builds reuse the names, always fresh. Needs the build (npm test builds first).
 * Run: node --import tsx --test demo/server/cache.test.ts
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServer } from './server.js';

const CHUNKS = join(process.cwd(), 'dist', 'chunks');

test('production: hashed chunks a year and immutable, the loader 5 minutes, tag chunks revalidated; dev: all fresh', async () => {
  assert.ok(existsSync(CHUNKS), 'dist/chunks is missing: run `npm run build` first (npm test does)');
  const hashed = readdirSync(CHUNKS).find((f) => /^session-[\w-]{8}\.js$/.test(f));
  assert.ok(hashed, 'a content-hashed shared chunk in dist/chunks');
  const dir = mkdtempSync(join(tmpdir(), 'channel-cache-'));
  const prod = await startServer({ port: 0, dataDir: join(dir, 'prod') });
  const dev = await startServer({ mode: 'dev', port: 0, dataDir: join(dir, 'dev') });
  try {
    const cache = async (origin: string, path: string) => {
      const res = await fetch(`${origin}${path}`);
      assert.equal(res.status, 200, path);
      return res.headers.get('cache-control');
    };
    assert.equal(await cache(prod.origin, `/chunks/${hashed}`), 'public, max-age=31536000, immutable');
    assert.equal(await cache(prod.origin, '/channel-elements.js'), 'public, max-age=300');
    for (const tag of ['channel-schedule', 'channel-player', 'channel-checkout', 'channel-profile', 'channel-app'])
      assert.equal(await cache(prod.origin, `/chunks/${tag}.js`), 'no-cache', tag);
    assert.equal(await cache(prod.origin, '/index.js'), 'no-cache');
    assert.equal(await cache(dev.origin, `/chunks/${hashed}`), 'no-cache');
    assert.equal(await cache(dev.origin, '/channel-elements.js'), 'no-cache');
  } finally {
    await Promise.all([prod.stop(), dev.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the settings' stored copy: a minute in production (the spec's store cache), fresh in dev mode", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'channel-cache-'));
  const prod = await startServer({ port: 0, dataDir: join(dir, 'prod') });
  const dev = await startServer({ mode: 'dev', port: 0, dataDir: join(dir, 'dev') });
  try {
    for (const [server, expected] of [
      [prod, 'public, max-age=60'],
      [dev, 'no-cache'],
    ] as const) {
      const res = await fetch(`${server.origin}/storage/settings/demo.json`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), expected);
      assert.equal(((await res.json()) as { name: string }).name, 'Demo Sports Network');
    }
  } finally {
    await Promise.all([prod.stop(), dev.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
});
