// The two packages of this repository: the elements' (the root package.json, what a page installs) and the channel
// server's (server/package.json, a workspace with its `channel-server` command). The server declares every package
// its code imports at run time; the elements' package declares none of the server's own (its database drivers).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { builtinModules } from 'node:module';

const ROOT = join(import.meta.dirname, '..', '..');
const manifest = (path: string) =>
  JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    bin?: Record<string, string>;
  };

/** The server's code that runs (not its tests, nor the test harness). */
function serverCode(dir = join(ROOT, 'server')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['testing', 'fixtures', 'pages'].includes(entry.name) ? [] : serverCode(path);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The package a bare specifier names (`pg`, `@electric-sql/pglite`, `zod` for `zod/mini`). */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

test('the server declares every package its code imports at run time', () => {
  const server = manifest('server/package.json');
  const imported = new Map<string, string>();
  for (const file of serverCode()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^import(?!\s+type\b)[^'"]*?from\s*|import\(\s*)['"]([^'".][^'"]*)['"]/gm)) {
      const name = packageOf(m[1]!);
      if (!name.startsWith('node:') && !builtinModules.includes(name)) imported.set(name, relative(ROOT, file));
    }
  }
  for (const name of ['pg', '@electric-sql/pglite', 'sql.js', 'zod', 'tsx'])
    assert.ok(imported.has(name), `the scan finds ${name}`);
  for (const [name, file] of imported)
    assert.ok(server.dependencies?.[name], `${file} imports ${name}, which server/package.json does not declare`);
  assert.deepEqual(server.bin, { 'channel-server': './bin/channel-server.mjs' });
});

test("the elements' package declares none of the server's database packages", () => {
  const elements = manifest('package.json');
  for (const name of ['pg', '@electric-sql/pglite', 'sql.js', '@types/pg', '@types/sql.js']) {
    assert.equal(elements.dependencies?.[name], undefined, name);
    assert.equal(elements.devDependencies?.[name], undefined, name);
  }
});
