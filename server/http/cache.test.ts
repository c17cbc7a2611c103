/**
 * The cache headers of the bundle (static.ts bundleCacheControl): in production what a CDN in front of the server
 * should keep (every chunk, named by its content, and the loader at its release's own URL a year and immutable; the
 * loader's "latest" alias 5 minutes; the npm entry and integrity.json revalidated); in dev mode, always fresh. Both
 * loader URLs answer any origin (CORS), as a page that pins the loader with `integrity` and `crossorigin` needs. Each
 * script names its source map in a `SourceMap` header, not in a comment. Needs the build (npm test builds first).
 * Run: node --import tsx --test server/http/cache.test.ts
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestServer } from '../testing/harness.js';

const DIST = join(process.cwd(), 'dist');
const CHUNKS = join(DIST, 'chunks');
const YEAR = 'public, max-age=31536000, immutable';

test('production: chunks and the versioned loader a year and immutable, the alias 5 minutes, the rest revalidated; dev: all fresh', async () => {
  assert.ok(existsSync(join(DIST, 'integrity.json')), 'dist/integrity.json is missing: run `npm run build` first');
  const { version, loader, tags } = JSON.parse(readFileSync(join(DIST, 'integrity.json'), 'utf8')) as {
    version: string;
    loader: { file: string };
    tags: Record<string, string>;
  };
  assert.equal(loader.file, `channel-elements@${version}.js`);
  // This build's shared chunk (dist/chunks keeps the files of earlier builds too).
  const { chunks } = JSON.parse(readFileSync(join(DIST, 'integrity.json'), 'utf8')) as {
    chunks: Record<string, string>;
  };
  const shared = Object.keys(chunks)
    .map((file) => file.slice('chunks/'.length))
    .find((f) => /^session-[\w-]{8}\.js$/.test(f));
  assert.ok(shared, 'a content-hashed shared chunk in dist/chunks');
  const dir = mkdtempSync(join(tmpdir(), 'channel-cache-'));
  const prod = await startTestServer({ port: 0, dataDir: join(dir, 'prod') });
  const dev = await startTestServer({ mode: 'dev', port: 0, dataDir: join(dir, 'dev') });
  try {
    const get = async (origin: string, path: string, status = 200) => {
      const res = await fetch(`${origin}${path}`, { headers: { Origin: 'https://partner.example' } });
      assert.equal(res.status, status, path);
      return res.headers;
    };
    const cache = async (origin: string, path: string) => (await get(origin, path)).get('cache-control');
    assert.equal(await cache(prod.origin, `/chunks/${shared}`), YEAR);
    assert.equal(await cache(prod.origin, `/chunks/${shared}.map`), YEAR);
    // The integrity table the loader fetches is named by its content too.
    const table = readdirSync(CHUNKS).find((f) => /^integrity-[\w-]{8}\.js$/.test(f));
    assert.ok(table, 'the integrity table in dist/chunks');
    assert.equal(await cache(prod.origin, `/chunks/${table}`), YEAR);
    // Each tag's root is named by its content too: a new release never changes a file an older loader names.
    for (const [tag, file] of Object.entries(tags)) {
      assert.match(file, new RegExp(`^chunks/${tag}-[\\w-]{8}\\.js$`));
      assert.equal(await cache(prod.origin, `/${file}`), YEAR, tag);
    }
    assert.equal(await cache(prod.origin, `/${loader.file}`), YEAR);
    assert.equal(await cache(prod.origin, '/channel-elements.js'), 'public, max-age=300');
    assert.equal(await cache(prod.origin, '/index.js'), 'no-cache');
    assert.equal(await cache(prod.origin, '/integrity.json'), 'no-cache');
    // Another release's URL is not this build's: nothing there (a CDN keeps each release's file under its own name).
    await get(prod.origin, '/channel-elements@0.0.0-not-built.js', 404);
    // The loader may be fetched in CORS mode (crossorigin="anonymous" with integrity) from any page.
    for (const path of [`/${loader.file}`, '/channel-elements.js', `/chunks/${shared}`])
      assert.equal((await get(prod.origin, path)).get('access-control-allow-origin'), '*', path);
    // Both loader URLs are the same script, byte for byte: no file names its source map in a comment (bytes every
    // page would download); a header does, for developer tools.
    const [versioned, alias] = await Promise.all(
      [`/${loader.file}`, '/channel-elements.js'].map(async (path) => (await fetch(`${prod.origin}${path}`)).text()),
    );
    assert.equal(versioned, alias);
    assert.doesNotMatch(versioned!, /sourceMappingURL/);
    assert.doesNotMatch(readFileSync(join(CHUNKS, shared), 'utf8'), /sourceMappingURL/);
    assert.equal((await get(prod.origin, `/${loader.file}`)).get('sourcemap'), `${loader.file}.map`);
    assert.equal((await get(prod.origin, '/channel-elements.js')).get('sourcemap'), 'channel-elements.js.map');
    assert.equal((await get(prod.origin, `/chunks/${shared}`)).get('sourcemap'), `${shared}.map`);
    // A table of plain data has no map; the player group's table also carries a module, whose map a header names.
    // (Checked on each of this build's tables: which one sorts first depends on the content hashes.)
    const tables = Object.keys(chunks)
      .map((file) => file.slice('chunks/'.length))
      .filter((f) => /^integrity-[\w-]{8}\.js$/.test(f));
    for (const t of tables) {
      const map = existsSync(join(CHUNKS, `${t}.map`)) ? `${t}.map` : null;
      assert.equal((await get(prod.origin, `/chunks/${t}`)).get('sourcemap'), map, `${t}'s map`);
    }
    assert.ok(
      tables.some((t) => !existsSync(join(CHUNKS, `${t}.map`))),
      'a table of plain data, without a map',
    );
    // Validators: a revalidated file (no-cache) costs a 304, not its bytes, and HEAD and ranges work on the bundle.
    // (`max-age=0` as a browser's revalidation sends it: fetch() adds `no-cache` to a request with validators of its
    // own, which asks for the whole answer.)
    const entry = await fetch(`${prod.origin}/index.js`);
    const entryText = await entry.text();
    const validators = { etag: entry.headers.get('etag'), modified: entry.headers.get('last-modified') };
    assert.ok(validators.etag && validators.modified, 'an ETag and a Last-Modified');
    assert.equal(
      (
        await fetch(`${prod.origin}/index.js`, {
          headers: { 'If-None-Match': validators.etag, 'Cache-Control': 'max-age=0' },
        })
      ).status,
      304,
    );
    assert.equal(
      (
        await fetch(`${prod.origin}/index.js`, {
          headers: { 'If-Modified-Since': validators.modified, 'Cache-Control': 'max-age=0' },
        })
      ).status,
      304,
    );
    const head = await fetch(`${prod.origin}/index.js`, { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers.get('content-length')], [200, String(Buffer.byteLength(entryText))]);
    assert.equal(head.headers.get('content-type'), 'text/javascript; charset=utf-8', 'our type, not a guess');
    const part = await fetch(`${prod.origin}/index.js`, { headers: { Range: 'bytes=0-9' } });
    assert.deepEqual([part.status, await part.text()], [206, entryText.slice(0, 10)]);
    // A rendered page (placeholders filled in) has its content's ETag: the same page again is a 304, with its policy.
    const page = await fetch(`${dev.origin}/`);
    const pageTag = page.headers.get('etag');
    assert.ok(pageTag, 'a page has an ETag');
    const again = await fetch(`${dev.origin}/`, {
      headers: { 'If-None-Match': pageTag, 'Cache-Control': 'max-age=0' },
    });
    assert.equal(again.status, 304);
    assert.ok(again.headers.get('content-security-policy'), 'the 304 keeps the policy');
    assert.equal(await cache(dev.origin, `/chunks/${shared}`), 'no-cache');
    assert.equal(await cache(dev.origin, `/${loader.file}`), 'no-cache');
    assert.equal(await cache(dev.origin, '/channel-elements.js'), 'no-cache');
  } finally {
    await Promise.all([prod.stop(), dev.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the settings' stored copy: a minute in production (the spec's store cache), fresh in dev mode", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'channel-cache-'));
  const prod = await startTestServer({ port: 0, dataDir: join(dir, 'prod') });
  const dev = await startTestServer({ mode: 'dev', port: 0, dataDir: join(dir, 'dev') });
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
