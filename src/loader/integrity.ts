/**
 * Subresource Integrity for every chunk the loader fetches: the build writes each chunk's sha256 and static imports
 * into a table beside the chunks, two files named by their content (scripts/integrity.mjs): the first, whose own sha256
 * is in the loader, covers what a first render needs and holds the second's sha256, fetched only when a later part
 * is asked for. The loader fetches each with its integrity, and no chunk runs before it and every module it imports
 * statically are in the browser's module map, verified.
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
 * The build's table: `t` gives each tag's root as an index into `c`; `c` lists chunks: each one's file under chunks/,
 * its sha256 (base64) and the indexes of the chunks it imports statically. The file the loader names holds the roots
 * and what a first render needs; `n` names the rest of the table (file and sha256), whose `c` runs on from this one's
 * (scripts/integrity.mjs): it is fetched only when a chunk outside the first is asked for.
 */
export interface ChunkTable {
  t: Record<string, number>;
  c: [file: string, sha256: string, imports: number[]][];
  n?: [file: string, sha256: string];
}

/** Where the loader installs the verifier the chunks' dynamic imports call: `(specifier, importerUrl) => Promise`. */
export const VERIFY_HOOK = Symbol.for('channel-elements.verify');

/** Verifies chunks of the table under `chunkBase` (the loader's `chunks/` URL, with its trailing slash). */
export interface ChunkVerifier {
  /** The URL of a tag's root chunk (or of the early video's module); rejects when the table cannot be had. */
  tagUrl(tag: string): Promise<string>;
  /** Settles once the chunk at `url` and its static imports are in the module map, verified; rejects otherwise. */
  verify(url: string): Promise<void>;
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
 * The table at `chunkBase + file`, fetched with its integrity (`sha256`, base64): a table whose bytes differ is
 * refused like a chunk (a ChunkIntegrityError), so no chunk it names is trusted.
 */
export function fetchTable(chunkBase: string, [file, sha256]: [string, string]): Promise<ChunkTable> {
  const href = chunkBase + file;
  const expected = `sha256-${sha256}`;
  // Any failure is told as a chunk's is (refused bytes, an HTTP error, no answer): the table is fetched once more.
  return fetch(href, { integrity: expected, credentials: 'omit' })
    .then((response) => (response.ok ? response.json() : Promise.reject()))
    .catch(() => diagnose(href, `chunks/${file}`, expected).then((error) => Promise.reject(error)));
}

/**
 * A verifier of the chunks `load()` lists under `chunkBase`, also installed as the chunks' VERIFY_HOOK; `load` is
 * asked again after a failure (a later insertion of a tag, or Retry). Where the browser has no `modulepreload`
 * (Safari before 17, Firefox before 115) chunks cannot be verified: they load as they did before integrity, and the
 * console says so once.
 */
export function installVerifier(load: () => Promise<ChunkTable>, chunkBase: string): ChunkVerifier {
  const doc = document;
  let tableLoad: Promise<{ table: ChunkTable; index: Map<string, number> }> | undefined;
  const tabled = () =>
    (tableLoad ??= load().then(
      (table) => ({ table, index: new Map(table.c.map(([file], i) => [file, i])) }),
      (error: unknown) => {
        tableLoad = undefined;
        throw error;
      },
    ));
  // Asked for with the first tag's chunk (alongside the start-up requests), not before: a page with no tag yet
  // fetches nothing.
  const loads = new Map<number, Promise<void>>();
  const supported = doc.createElement('link').relList?.supports?.('modulepreload') === true;
  let warned = false;

  /** Preloads one chunk with its integrity (once; again after a failure). */
  const preload = (table: ChunkTable, i: number): Promise<void> => {
    let load = loads.get(i);
    if (load) return load;
    const [file, hash] = table.c[i]!;
    const href = chunkBase + file;
    const expected = `sha256-${hash}`;
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
    load.catch(() => loads.delete(i));
    loads.set(i, load);
    return load;
  };

  /** The rest of the table, joined to the first once (again after a failure). */
  let rest: Promise<void> | undefined;
  const verify = (url: string): Promise<void> =>
    tabled().then(({ table, index }): Promise<void> => {
      const file = url.startsWith(chunkBase) ? url.slice(chunkBase.length) : undefined;
      const root = file === undefined ? undefined : index.get(file);
      if (root === undefined) {
        // Not in the first file: in the rest, once that is fetched and joined (a URL outside chunks/ is in neither).
        const more = table.n;
        if (!more) return Promise.reject(new ChunkIntegrityError(url));
        return (rest ??= fetchTable(chunkBase, more).then(
          ({ c }) => {
            for (const entry of c) index.set(entry[0], table.c.push(entry) - 1);
            table.n = undefined;
          },
          (error: unknown) => {
            rest = undefined;
            throw error;
          },
        )).then(() => verify(url));
      }
      if (!supported) {
        if (!warned) console.warn('channel-elements: no modulepreload in this browser: chunks load unchecked.');
        warned = true;
        return Promise.resolve();
      }
      // The chunk and every module it imports statically, each once.
      const all = new Set<number>();
      const walk = (i: number) => {
        if (all.has(i)) return;
        all.add(i);
        for (const j of table.c[i]![2]) walk(j);
      };
      walk(root);
      return Promise.all([...all].map((i) => preload(table, i))).then(() => undefined);
    });

  // The chunks' dynamic imports: those of this loader's chunks are verified; anything else is not ours to check.
  Object.defineProperty(globalThis, VERIFY_HOOK, {
    configurable: true,
    value: (specifier: string, importer: string) => {
      const url = new URL(specifier, importer).href;
      return url.startsWith(chunkBase) ? verify(url) : undefined;
    },
  });

  return {
    tagUrl: (tag) =>
      tabled().then(({ table }) => {
        const i = table.t[tag];
        return i === undefined ? Promise.reject(new ChunkIntegrityError(tag)) : chunkBase + table.c[i]![0];
      }),
    verify,
  };
}
