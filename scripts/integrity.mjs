/**
 * Subresource Integrity for the bundle (rollup plugins of rollup.config.mjs). The elements build names every chunk by
 * its content and records, once the files are written, each chunk's sha256 and the chunks it imports statically (the
 * early-video build adds its one module). That table is written beside the chunks in two files named by their content
 * (`chunks/integrity-<hash>.json`, cached for good like them): the first holds what a first render needs and names the
 * second, which holds the later parts (see `integrityTable`). The loader build embeds only the first file's name and
 * sha256 (`__CHUNK_TABLE__`, read by src/loader/integrity.ts), which keeps the loader small, and writes
 * dist/integrity.json: the release's version, the versioned loader's own `integrity` value (what a page puts on its
 * script tag) and every chunk's, the inventory a payment page's script policy asks for.
 *
 * A chunk's dynamic imports (a site page, hls.js, a language's texts) are rendered as a call to the loader's verifier
 * before the import itself, so those chunks are checked too; without the loader on the page (the npm entry, bundled
 * by the host's own tools) the call is absent and the import runs as written, a literal path a bundler can follow.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The registered symbol under which the loader installs its verifier (src/loader/integrity.ts VERIFY_HOOK). */
const VERIFY_HOOK = 'channel-elements.verify';

/** The base64 sha384 of a file's bytes (an integrity value without its `sha384-` prefix): the loader's own. */
const sha384 = (file) => createHash('sha384').update(readFileSync(file)).digest('base64');
/**
 * The base64 sha256 of a file's bytes: the chunks' and the table's. SRI's sha256 holds against a changed file as well
 * as sha384 does (no second preimage is known for either); its shorter values keep the table, which every page
 * fetches and which is mostly hashes, 1 KB smaller.
 */
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('base64');

/**
 * Renders `import('./x.js')` in a chunk as "ask the verifier, then import": `verify('./x.js', import.meta.url)`
 * preloads x and its static imports with their integrity (the loader's table) and settles once they are in the
 * module map, verified, or rejects and the import never runs.
 */
export function verifiedDynamicImports() {
  return {
    name: 'verified-dynamic-imports',
    renderDynamicImport({ chunk, targetChunk }) {
      // Only between chunks: the npm entry (index.js) is the host bundler's to load.
      if (!targetChunk || !chunk.fileName.startsWith('chunks/') || !targetChunk.fileName.startsWith('chunks/'))
        return null;
      const target = JSON.stringify(`./${targetChunk.fileName.slice('chunks/'.length)}`);
      return {
        left: `Promise.resolve(globalThis[Symbol.for(${JSON.stringify(VERIFY_HOOK)})]?.(`,
        right: `,import.meta.url)).then(()=>import(${target}))`,
      };
    },
  };
}

/**
 * The elements build's chunks: `plugin` records them (names, static imports and modules when the bundle is
 * generated, hashes once it is written), and so does `plugin` in any later build of one more module fetched through
 * the table (the early video: its entry's name is a key of `t` like a tag's).
 *
 * The table comes in two files, so that a page fetches before its first content only the hashes it may need then:
 * - the first, `{ t: { tag: index }, c: [[file, sha256, [imports]]], n: [file, sha256] }`: each tag's root (and the
 *   early video's module), the chunks `first(moduleId)` names (the parts a first render fetches at once: the site's
 *   home page, the French texts, hls.js) and every chunk those import statically;
 * - the rest, `{ c: [...] }`, named with its sha256 by the first's `n`: the loader fetches it when a chunk it is asked
 *   to verify is not in the first (a site page, the checkout's parts), after the first content.
 * Files are sorted by name within each file and `c` indexes run on from the first file into the rest, so imports
 * are indexes into the two lists joined. `writeTable(dir)` writes both as `chunks/integrity-<hash>.json` and answers
 * the first's `[file, sha256]`.
 */
export function integrityTable(tags, extras = [], first = () => false) {
  /** file (under chunks/) -> its static imports (files under chunks/) */
  const imports = new Map();
  /** tag -> its root's file */
  const entries = {};
  /** file -> base64 sha256 */
  const hashes = new Map();
  /** Files of the chunks that hold a module `first` names. */
  const firsts = new Set();
  const under = (fileName) => fileName.slice('chunks/'.length);
  return {
    plugin: {
      name: 'chunk-integrity',
      generateBundle(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunk.fileName.startsWith('chunks/')) continue;
          imports.set(under(chunk.fileName), chunk.imports.filter((f) => f.startsWith('chunks/')).map(under));
          if (chunk.moduleIds.some((id) => first(id))) firsts.add(under(chunk.fileName));
          if (chunk.isEntry && [...tags, ...extras].includes(chunk.name)) entries[chunk.name] = under(chunk.fileName);
        }
      },
      writeBundle(options) {
        // The bytes as written (the source map comment included): what a browser will hash.
        for (const file of imports.keys()) hashes.set(file, sha256(join(options.dir, 'chunks', file)));
      },
    },
    /** The two files' contents: `{ first, rest }` (rest without its name, which is the hash of its bytes). */
    table() {
      const names = [...tags, ...extras];
      const missing = names.filter((name) => !entries[name]);
      if (missing.length || hashes.size !== imports.size)
        throw new Error(`integrity: the elements build did not record ${missing.join(', ') || 'every chunk'}`);
      // The first file: the roots, the named first parts and, transitively, what they import statically.
      const early = new Set();
      const walk = (file) => {
        if (early.has(file)) return;
        early.add(file);
        for (const f of imports.get(file)) walk(f);
      };
      for (const name of names) walk(entries[name]);
      for (const file of firsts) walk(file);
      const files = [...[...early].sort(), ...[...imports.keys()].filter((f) => !early.has(f)).sort()];
      const index = new Map(files.map((file, i) => [file, i]));
      const entry = (file) => [file, hashes.get(file), imports.get(file).map((f) => index.get(f))];
      return {
        first: {
          t: Object.fromEntries(names.map((name) => [name, index.get(entries[name])])),
          c: files.slice(0, early.size).map(entry),
        },
        rest: { c: files.slice(early.size).map(entry) },
      };
    },
    writeTable(dir) {
      const { first, rest } = this.table();
      mkdirSync(join(dir, 'chunks'), { recursive: true });
      /** Writes one file named by its content, as the chunks are (a name holds the same bytes for as long as it exists). */
      const write = (value) => {
        const bytes = JSON.stringify(value);
        const file = `integrity-${createHash('sha256').update(bytes).digest('base64url').slice(0, 8)}.json`;
        writeFileSync(join(dir, 'chunks', file), bytes);
        return [file, createHash('sha256').update(bytes).digest('base64')];
      };
      return write(rest.c.length ? { ...first, n: write(rest) } : first);
    },
    /** Each tag's root (`chunks/…`), for dist/integrity.json. */
    tags() {
      return Object.fromEntries(tags.map((tag) => [tag, `chunks/${entries[tag]}`]));
    },
    /** chunks/<file> -> `sha256-…`, for dist/integrity.json. */
    list() {
      return Object.fromEntries(
        [...hashes].sort(([a], [b]) => a.localeCompare(b)).map(([f, h]) => [`chunks/${f}`, `sha256-${h}`]),
      );
    },
  };
}

/**
 * Writes dist/integrity.json once the versioned loader is written: `{ version, loader: { file, integrity }, alias,
 * tags, chunks }` (tags: each tag's root chunk). The alias (channel-elements.js) has no integrity there on purpose: it changes with every release, so a
 * page that pinned its hash would break at the next one.
 */
export function writeIntegrityJson(chunks, version) {
  return {
    name: 'integrity-json',
    writeBundle(options) {
      const file = basename(options.file);
      if (file !== `channel-elements@${version}.js`) return;
      const out = {
        version,
        loader: { file, integrity: `sha384-${sha384(options.file)}` },
        alias: 'channel-elements.js',
        tags: chunks.tags(),
        chunks: chunks.list(),
      };
      writeFileSync(join(dirname(options.file), 'integrity.json'), `${JSON.stringify(out, null, 2)}\n`);
    },
  };
}
