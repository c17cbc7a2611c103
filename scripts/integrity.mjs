/**
 * Subresource Integrity for the bundle (rollup plugins of rollup.config.mjs). The elements build names every chunk by
 * its content and records, once the files are written, each chunk's sha256 and the chunks it imports statically (the
 * early-video build adds its one module). That table is written beside the chunks in files named by their content
 * (`chunks/integrity-<hash>.js`, cached for good like them): one per group of tags, with what their first render
 * needs, each naming the whole table, fetched for the later parts (see `integrityTable`). Each is a module exporting its
 * table as `__T`, verified like a chunk; the player's group's file also carries the early video's code, so that one
 * request, asked for with the first tag, brings both. The loader build embeds only
 * each root's file name and sha256 (`__CHUNK_TABLE__`, read by src/loader/integrity.ts), which keeps the loader small
 * and a page's first fetch to its own tags' hashes, and writes
 * dist/integrity.json: the release's version, the versioned loader's own `integrity` value (what a page puts on its
 * script tag) and every chunk's and table file's, the inventory a payment page's script policy asks for.
 *
 * A chunk's dynamic imports (a site page, hls.js, a language's texts) are rendered as a call to the loader's verifier
 * before the import itself, so those chunks are checked too; without the loader on the page (the npm entry, bundled
 * by the host's own tools) the call is absent and the import runs as written, a literal path a bundler can follow.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The registered symbol under which the loader installs its verifier (src/loader/integrity.ts VERIFY_HOOK). */
const VERIFY_HOOK = 'channel-elements.verify';

/** The base64 sha384 of a file's bytes (an integrity value without its `sha384-` prefix): the loader's own. */
const sha384 = (file) => createHash('sha384').update(readFileSync(file)).digest('base64');
/**
 * The base64 sha256 of a file's bytes: the chunks' and the table files'. SRI's sha256 holds against a changed file as well
 * as sha384 does (no second preimage is known for either); its shorter values keep the table, which every page
 * fetches and which is mostly hashes, 1 KB smaller.
 */
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('base64');
/** The name under which a table file exports its table (src/loader/integrity.ts `TableModule`). */
const TABLE_EXPORT = '__T';

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
 * The elements build's chunks: `plugin` records them (names, static and dynamic imports and modules when the bundle
 * is generated, hashes once it is written), and so does `plugin` in any later build of one more module fetched
 * through the table (the early video: its entry's name is a root like a tag's).
 *
 * The table comes in several files, so that a page fetches before its first content only the hashes it may need
 * then, each `{ t: { root: file }, c: [[file, sha256, [imports]]], n?: [file, sha256] }` (imports index the same
 * file's `c`):
 * - one per group of roots (`groups`: tags that share most of their chunks share a file): the group's roots, the
 *   chunks `first(moduleId)` names that those reach by dynamic imports (the parts a first render fetches at once: the
 *   site's home page, the French texts, hls.js, each through chunks already in the file), and every chunk those import
 *   statically; `n` names the whole table;
 * - the whole table, every chunk (and no `t` entry): the loader fetches it when a chunk it is asked to verify is in
 *   none of the files it has (a site page, the checkout's parts), after the first content.
 * `writeTable(dir)` writes them as modules, `chunks/integrity-<hash>.js`, each exporting its table as `__T`, and answers,
 * for each root, its group's `[file, sha256]` (what the loader embeds), but for the last group's roots: its file is
 * under '', the loader's default for a root it does not list (a few bytes less in the loader). The last group's file
 * (the player's and the early video's) begins with the early video's module, whose exports it keeps: the loader
 * imports that file for the early video, and its table comes in the same request, where the module alone would have
 * been asked for only once the table was in.
 */
export function integrityTable(tags, extras, groups) {
  /** file (under chunks/) -> its static imports (files under chunks/) */
  const imports = new Map();
  /** file -> its dynamic imports (files under chunks/) */
  const dynamics = new Map();
  /** tag -> its root's file */
  const entries = {};
  /** file -> base64 sha256 */
  const hashes = new Map();
  /** file -> the ids of the modules it holds */
  const modules = new Map();
  /** table file (under chunks/) -> base64 sha256, once written */
  const written = new Map();
  const under = (fileName) => fileName.slice('chunks/'.length);
  const ours = (files) => files.filter((f) => f.startsWith('chunks/')).map(under);
  return {
    plugin: {
      name: 'chunk-integrity',
      generateBundle(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk') continue;
          // The table's own files are `chunks/integrity-<hash>.js`: no chunk may take such a name.
          if (chunk.fileName.startsWith('chunks/integrity-'))
            throw new Error(`integrity: ${chunk.fileName} would share the table files' names`);
          // The early video's module opens a table file, which must import nothing: its whole code is this one file.
          if (chunk.name === 'early-video' && (chunk.imports.length || chunk.dynamicImports.length))
            throw new Error('integrity: the early video module must import nothing');
          if (!chunk.fileName.startsWith('chunks/')) continue;
          imports.set(under(chunk.fileName), ours(chunk.imports));
          dynamics.set(under(chunk.fileName), ours(chunk.dynamicImports));
          modules.set(under(chunk.fileName), chunk.moduleIds);
          if (chunk.isEntry && [...tags, ...extras].includes(chunk.name)) entries[chunk.name] = under(chunk.fileName);
        }
      },
      writeBundle(options) {
        // The bytes as written: what a browser will hash.
        for (const file of imports.keys()) hashes.set(file, sha256(join(options.dir, 'chunks', file)));
      },
    },
    /** The files' contents: `{ groups: [{ names, table }], whole }` (without `n`, which is the whole's name). */
    table() {
      const names = [...tags, ...extras];
      const missing = names.filter((name) => !entries[name]);
      if (missing.length || hashes.size !== imports.size)
        throw new Error(`integrity: the elements build did not record ${missing.join(', ') || 'every chunk'}`);
      if (
        groups
          .flatMap((g) => g.roots)
          .sort()
          .join() !== [...names].sort().join()
      )
        throw new Error('integrity: the table groups must hold every root once');
      /** A file listing `files` (sorted by name), with `roots` (their own files): imports index its own `c`. */
      const listing = (files, roots = []) => {
        const sorted = [...files].sort();
        const index = new Map(sorted.map((f, i) => [f, i]));
        return {
          t: Object.fromEntries(roots.map((name) => [name, entries[name]])),
          c: sorted.map((f) => [f, hashes.get(f), imports.get(f).map((g) => index.get(g))]),
        };
      };
      /** A group's file: its roots, every chunk they import statically, and the first parts they reach, with theirs. */
      const group = ({ roots, first }) => {
        const held = new Set();
        const walk = (f) => {
          if (held.has(f)) return;
          held.add(f);
          for (const g of imports.get(f)) walk(g);
          for (const g of dynamics.get(f)) if (modules.get(g).some(first)) walk(g);
        };
        for (const name of roots) walk(entries[name]);
        return { names: roots, table: listing(held, roots) };
      };
      return { groups: groups.map(group), whole: listing(imports.keys()) };
    },
    writeTable(dir) {
      const { groups: files, whole } = this.table();
      mkdirSync(join(dir, 'chunks'), { recursive: true });
      /**
       * Writes one module named by its content, as the chunks are (a name holds the same bytes for as long as it
       * exists): `code`, then the table as its export. Its hash joins the chunks' in dist/integrity.json.
       */
      const write = (value, code = '') => {
        const bytes = `${code}export const ${TABLE_EXPORT}=${JSON.stringify(value)};`;
        const file = `integrity-${createHash('sha256').update(bytes).digest('base64url').slice(0, 8)}.js`;
        writeFileSync(join(dir, 'chunks', file), bytes);
        const sha = createHash('sha256').update(bytes).digest('base64');
        written.set(file, sha);
        return [file, sha];
      };
      const n = write(whole);
      const refs = {};
      // The early video's module: self-contained (one build of its own, checked in generateBundle), so its code can
      // open another module; its source map serves the file too (the code starts the file, the table follows it).
      const earlyFile = join(dir, 'chunks', entries['early-video']);
      const early = readFileSync(earlyFile, 'utf8');
      if (new RegExp(`\\b${TABLE_EXPORT}\\b`).test(early))
        throw new Error(`integrity: the early video module must leave the name ${TABLE_EXPORT} free`);
      if (!groups.at(-1).roots.includes('early-video'))
        throw new Error("integrity: the early video must be in the last group (the loader's default file)");
      files.forEach(({ names, table }, i) => {
        if (i < files.length - 1) {
          const ref = write({ ...table, n });
          for (const name of names) refs[name] = ref;
          return;
        }
        refs[''] = write({ ...table, n }, `${early}\n`);
        if (existsSync(`${earlyFile}.map`)) copyFileSync(`${earlyFile}.map`, join(dir, 'chunks', `${refs[''][0]}.map`));
      });
      return refs;
    },
    /** Each tag's root (`chunks/…`), for dist/integrity.json. */
    tags() {
      return Object.fromEntries(tags.map((tag) => [tag, `chunks/${entries[tag]}`]));
    },
    /** chunks/<file> -> `sha256-…`, for dist/integrity.json: every chunk and table file. */
    list() {
      return Object.fromEntries(
        [...hashes, ...written].sort(([a], [b]) => a.localeCompare(b)).map(([f, h]) => [`chunks/${f}`, `sha256-${h}`]),
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
