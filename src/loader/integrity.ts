/**
 * Subresource Integrity for every chunk the loader fetches: the build writes each chunk's sha256 and static imports
 * into a table beside the chunks, in modules named by their content (scripts/integrity.mjs): one per group of tags,
 * whose sha256 is in the loader, covering what their first render needs, and the whole table, whose sha256 each of
 * those holds, fetched only when a later part is asked for. The loader verifies and imports each as it does a chunk,
 * and no chunk runs before it and every module it imports statically are in the browser's module map, verified. The
 * player's group's file also carries the early video's code (its exports are that module's).
 *
 * `import()` takes no integrity, so each chunk is first fetched by a `<link rel="modulepreload" integrity>`: the
 * browser checks the bytes and keeps the module, and the `import()` that follows takes it from the module map
 * without fetching again. Measured in Chromium: a module whose preload failed its check is not remembered as
 * failed, and an `import()` would fetch it afresh, unchecked; a static import that was not preloaded is fetched
 * unchecked too. Hence the rules here: preload the chunk and all its static imports (the build's graph), wait until
 * every one has loaded, and import only then; on any failure, never import.
 *
 * The chunks' own dynamic imports (a site page, hls.js, a language's texts) ask the verifier installed on the global
 * object first (`verifiedDynamicImports` in scripts/integrity.mjs renders them so). Part of the tiny loader:
 * dependency-free apart from the chunk-load errors.
 */
import { ChunkIntegrityError } from '../lib/chunks.js';

/**
 * One file of the build's table: `t` gives the file of each root it holds (a tag's);
 * `c` lists chunks: each one's file under chunks/, its sha256 (base64) and the indexes (into this file's `c`) of
 * the chunks it imports statically; `n` names the whole table (file and sha256), fetched only when a chunk outside
 * the files already joined is asked for (scripts/integrity.mjs).
 */
export interface ChunkTable {
  t: Record<string, string>;
  c: [file: string, sha256: string, imports: number[]][];
  n?: TableRef;
}

/** A table file under chunks/ and its sha256 (base64). */
export type TableRef = [file: string, sha256: string];

/** A table file as imported: its table under `__T` (scripts/integrity.mjs), and the player's group's early video. */
export interface TableModule {
  __T: ChunkTable;
}

/** Where the loader installs the verifier the chunks' dynamic imports call: `(specifier, importerUrl) => Promise`. */
export const VERIFY_HOOK = Symbol.for('channel-elements.verify');

/** Verifies chunks of the table under `chunkBase` (the loader's `chunks/` URL, with its trailing slash). */
export interface ChunkVerifier {
  /** The URL of a tag's root chunk; rejects when its table file cannot be had. */
  tagUrl(tag: string): Promise<string>;
  /** Settles once the chunk at `url` and its static imports are in the module map, verified; rejects otherwise. */
  verify(url: string): Promise<void>;
  /**
   * The table file of a root's group, verified, imported and joined: for `early-video`, the player's group's file,
   * whose exports are the early video's module's.
   */
  group(name: string): Promise<TableModule>;
}

/**
 * What a failed preload was: the file fetched again without the check answers, so its bytes were refused (a
 * ChunkIntegrityError); else the fetch itself failed. (A connection that fails once and then answers reads as a
 * refusal: rare, and the smaller loader is worth it.)
 */
function diagnose(href: string, file: string, expected: string): Promise<Error> {
  return fetch(href, { credentials: 'omit' }).then(
    (response) =>
      response.ok ? new ChunkIntegrityError(file, expected) : new Error(`${file} answered HTTP ${response.status}`),
    () => new Error(`${file} could not be fetched`),
  );
}

/**
 * A verifier of the chunks under `chunkBase`, also installed as the chunks' VERIFY_HOOK. `tables` names, for each
 * root (a tag, the early video), the table file that holds it with what its first render fetches (under '', the file
 * of the roots it does not list): a page fetches
 * only its own tags' files, each once (again after a failure: a later insertion of a tag, or Retry), and joins them.
 * Where the browser has no `modulepreload` (Safari before 17, Firefox before 115) neither the table files nor the
 * chunks can be verified: they load as they did before integrity, and the console says so once.
 */
export function installVerifier(tables: Record<string, TableRef>, chunkBase: string): ChunkVerifier {
  const doc = document;
  /** Every chunk of the files joined so far: file -> [sha256, files it imports statically]. */
  const known = new Map<string, [string, string[]]>();
  /** Each root of the files joined so far: name -> file. */
  const roots: Record<string, string> = {};
  /** The files asked for, by name: each fetched and joined once (again after a failure). */
  const joins = new Map<string, Promise<TableModule>>();
  /** The whole table's file, once a joined file has named it. */
  let whole: TableRef | undefined;
  const loads = new Map<string, Promise<void>>();
  const supported = doc.createElement('link').relList?.supports?.('modulepreload') === true;
  let warned = false;

  /** Preloads one chunk with its integrity (once; again after a failure). */
  const preload = (file: string): Promise<void> => {
    let load = loads.get(file);
    if (load) return load;
    const href = chunkBase + file;
    const expected = `sha256-${known.get(file)![0]}`;
    load = new Promise<void>((resolve, reject) => {
      const link = doc.createElement('link');
      link.rel = 'modulepreload';
      link.integrity = expected;
      link.href = href;
      link.onload = () => resolve();
      link.onerror = () => {
        link.remove();
        void diagnose(href, `chunks/${file}`, expected).then(reject);
      };
      doc.head.appendChild(link);
    });
    // A later insertion of the tag (or Retry) tries again with a fresh preload.
    load.catch(() => loads.delete(file));
    loads.set(file, load);
    return load;
  };

  // Asked for with the first tag's chunk (alongside the start-up requests), not before: a page with no tag yet
  // fetches nothing.
  const join = (ref: TableRef): Promise<TableModule> => {
    let joined = joins.get(ref[0]);
    if (!joined) {
      // A table file is a module that imports nothing, preloaded with its integrity like a chunk and imported only
      // once verified: a file whose bytes differ is refused like a chunk (a ChunkIntegrityError), so no chunk it
      // names is trusted. Without modulepreload it is imported unchecked, as the chunks are then.
      known.set(ref[0], [ref[1], []]);
      joined = (supported ? preload(ref[0]) : Promise.resolve())
        .then(() => import(/* webpackIgnore: true */ chunkBase + ref[0]) as Promise<TableModule>)
        .then((module) => {
          const { t, c, n } = module.__T;
          for (const [file, hash, imports] of c) known.set(file, [hash, imports.map((i) => c[i]![0])]);
          Object.assign(roots, t);
          if (n) whole = n;
          return module;
        });
      joined.catch(() => joins.delete(ref[0]));
      joins.set(ref[0], joined);
    }
    return joined;
  };
  /** The table file of a root's group (ChunkVerifier `group`). */
  const group = (name: string) => join(tables[name] ?? tables['']!);
  /** `url`: under `chunkBase` (a root's, or a chunk's dynamic import the hook below lets through). */
  const verify = (url: string): Promise<void> => {
    const file = url.slice(chunkBase.length);
    if (!known.has(file)) {
      // Not in the files joined so far: in the whole table, once that is fetched and joined (which every file names;
      // a file the whole table does not list either is refused).
      return join(whole!).then(() => (known.has(file) ? verify(url) : Promise.reject(new ChunkIntegrityError(url))));
    }
    if (!supported) {
      if (!warned) console.warn('channel-elements: no modulepreload, chunks unchecked');
      warned = true;
      return Promise.resolve();
    }
    // The chunk and every module it imports statically, each once.
    const all = new Set<string>();
    const walk = (f: string) => {
      if (all.has(f)) return;
      all.add(f);
      for (const g of known.get(f)![1]) walk(g);
    };
    walk(file);
    return Promise.all([...all].map(preload)) as Promise<unknown> as Promise<void>;
  };

  // The chunks' dynamic imports: those of this loader's chunks are verified; anything else is not ours to check.
  Object.defineProperty(globalThis, VERIFY_HOOK, {
    configurable: true,
    value: (specifier: string, importer: string) => {
      const url = new URL(specifier, importer).href;
      return url.startsWith(chunkBase) ? verify(url) : undefined;
    },
  });

  return {
    // Every root has a file: the build writes the loader's list from the table's groups, where the last group's roots
    // are not listed: its file is the default, under '' (scripts/integrity.mjs).
    tagUrl: (name) => group(name).then(() => chunkBase + roots[name]),
    group,
    verify,
  };
}
