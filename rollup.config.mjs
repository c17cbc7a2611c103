// Three builds:
// 1. the elements as ES modules: dist/chunks/<name>-<hash>.js, every file named by its content (each tag's root,
//    React and the shared session in one shared chunk, the lazy parts), and dist/index.js, the npm entry with
//    configure();
// 2. the early video's module, dist/chunks/early-video-<hash>.js, self-contained, whose code the player's file of the
//    integrity table begins with (the loader imports that file for it);
// 3. the loader, a classic IIFE script with no imports, so it runs plain, async, defer or as type="module", written
//    twice: dist/channel-elements@<version>.js (the release's own URL, never changed) and dist/channel-elements.js
//    (the "latest" alias pages may use). It carries the names and hashes of the files of builds 1 and 2's integrity
//    table (chunks/integrity-<hash>.js, modules: the player's group's also carries build 2's module, whose code it
//    begins with; dist/integrity.json lists every chunk and table file with the loader's own).
// Every file has its source map beside it (`<file>.map`) but names it in no comment: a comment is bytes every page
// downloads (30 B gzip a file; 90 B of a schedule-only page), and the server names the map in a `SourceMap` header
// instead, which browsers' developer tools read (docs/deploying.md).
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { readFileSync } from 'node:fs';
import { minifyCssTemplates } from './scripts/minify-css.mjs';
import { ownKeysOnly } from './scripts/own-keys.mjs';
import { classicJsx, JSX_FACTORY, JSX_FRAGMENT } from './scripts/classic-jsx.mjs';
import { integrityTable, verifiedDynamicImports, writeIntegrityJson } from './scripts/integrity.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

const production = process.env.NODE_ENV !== 'development';

const plugins = () => [
  replace({
    preventAssignment: true,
    values: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  }),
  nodeResolve({ browser: true, extensions: ['.mjs', '.js', '.ts', '.tsx'] }),
  commonjs(),
  // Host pages with enumerable Object.prototype properties: zod's for...in loops skip keys objects do not own.
  ownKeysOnly(),
  production && minifyCssTemplates(),
  classicJsx(),
  // es2020 with class fields kept as they are (Safari 14.1, Chrome 72, Firefox 75): lowered, each module would get its
  // own copy of a defineProperty helper and each field a call to it (0.2 KB gzip on a schedule-only page).
  esbuild({
    target: 'es2020',
    supported: { 'class-field': true, 'class-static-field': true },
    legalComments: 'none',
    // What esbuild takes from tsconfig.base.json (its ES2022 target's class fields), with the classic JSX transform.
    tsconfig: false,
    tsconfigRaw: {
      compilerOptions: {
        useDefineForClassFields: true,
        jsx: 'react',
        jsxFactory: JSX_FACTORY,
        jsxFragmentFactory: JSX_FRAGMENT,
      },
    },
  }),
  // terser packs a few KB tighter than esbuild's minifier, which matters against the 110 KB page budget.
  production && terser({ ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } }),
];

const TAGS = ['channel-schedule', 'channel-player', 'channel-checkout', 'channel-profile', 'channel-app'];

/** A module of ours or of a dependency whose path (under src/ or node_modules/, with `/`) matches `pattern`. */
const modulesLike = (pattern) => {
  const re = new RegExp(`/(${pattern})$`);
  return (id) => re.test(id.replaceAll('\\', '/'));
};

/**
 * The files of the chunks' integrity table a page fetches before its first content (scripts/integrity.mjs): one for
 * each group of roots, holding the roots, what they import and the lazy parts their first render fetches at once
 * (`first`), so a page fetches only the hashes its own tags need. The schedule has a file of its own: its calendar
 * and filters (shown before its cards when asked for) and the French texts. The site's holds the same for the
 * schedules it shows, with its home page and texts (in the schedule's file, they cost a schedule-only page 0.3 KB;
 * the loader pays about 45 B for the third hash), and the checkout's and the profile's roots with the texts of their
 * first screens (the site shows both as pages). The player's is the loader's default file, so the loader does not
 * list its roots: the player's root, hls.js (its stream right after an early first frame), and the early video,
 * whose module's code the file begins with (scripts/integrity.mjs), so that one request asked for with the first tag
 * brings the early video and the player's hashes; a checkout or a profile without a player never fetches that code.
 * Each holds what its pages fetch soon after their first content: the analytics layer, the Trusted Types setters a
 * channel's tag manager uses, and a schedule's structured data. Any other part (a deep link to another site page, the
 * checkout's later steps, a player's paywall opening the checkout) fetches the whole table first (one more request).
 * test/e2e/sizes.spec.ts checks that no measured page fetches it before its first content, and
 * test/e2e/integrity.spec.ts that a page fetches only its own groups' files.
 */
const TABLE_GROUPS = [
  {
    roots: ['channel-schedule'],
    first: modulesLike(
      'src/components/schedule/(DayPicker|FilterBar|structured-data).tsx?|src/i18n/fr.ts|src/lib/trusted-types.ts|src/stores/tag-manager.ts',
    ),
  },
  {
    roots: ['channel-app', 'channel-checkout', 'channel-profile'],
    first: modulesLike(
      'src/components/app/pages/Home(Lists)?.tsx|src/components/schedule/(DayPicker|FilterBar|structured-data).tsx?|src/i18n/(fr|site-en|site-fr|checkout-en|checkout-fr|forms-en|forms-fr).ts|src/lib/trusted-types.ts|src/stores/tag-manager.ts',
    ),
  },
  {
    roots: ['channel-player', 'early-video'],
    first: modulesLike('src/i18n/fr.ts|src/lib/trusted-types.ts|node_modules/hls.js/.*'),
  },
];

/** The chunks of the elements build with their integrity hashes, for the loader build (which runs after it). */
const chunks = integrityTable(TAGS, ['early-video'], TABLE_GROUPS);
/** Each root's file of the table (`chunks/integrity-<hash>.js`, with its sha256), written after both chunk builds. */
let table;

/**
 * One shared chunk, `session`, for what every element needs: React, the session (stores, API client, contract,
 * English texts) and the shared UI (shell, messages, prices, element definition). One file rather than several small
 * ones: each is a request on the way to an element's first render, and the browser opens only six connections
 * to a host at a time (the loader's start-up requests share them).
 */
function manualChunks(id) {
  // The libraries. (A library module anything here imports lands in this chunk, however little uses it: nanostores'
  // map store did, for two stores of other elements, which are plain atoms now.)
  if (/node_modules[\\/](react|react-dom|scheduler|@r2wc|nanostores|zod|i18next)[\\/]/.test(id)) return 'session';
  // Stripe.js's loader: its own chunk, fetched only when the checkout's card step opens (named, so a test can see it).
  if (/node_modules[\\/]@stripe[\\/]/.test(id)) return 'stripe';
  // French texts stay a chunk of their own, fetched only when an element speaks French; form, checkout, library
  // and clips texts only by the elements that have them; the player's English with the player's code.
  if (
    /[\\/]src[\\/]i18n[\\/](fr|player|player-en|favourites-en|filters-en|calendar-en|forms-en|forms-fr|checkout-en|checkout-fr|site-en|site-pages-en|simulate-en|site-fr|library-en|library-fr|clips-en|clips-fr)\.ts$/.test(
      id,
    )
  )
    return undefined;
  // The analytics layer: one chunk, fetched after the first content (src/stores/analytics/port.ts).
  if (
    /[\\/]src[\\/](stores[\\/]analytics[\\/](events|datalake|tracker|gate|reset)|stores[\\/]tag-manager)\.ts$/.test(id)
  )
    return 'analytics';
  // The rules for URLs from answers: their own small chunk, shared by the lazy chunks that use them (in the analytics
  // chunk, the profile and the player would load the analytics layer at once).
  if (/[\\/]src[\\/]lib[\\/]url-rules\.ts$/.test(id)) return 'url-rules';
  // What only one element needs stays with that element (or its lazy chunk), not in the chunk every page loads.
  // (The checkout's, the account's, the library's and the clips' stores and their folders, the schedule's store, signing
  // in and out (./sign-in.ts), the account's events and the public list of events, the favourites' loading and
  // changes (a guest's page reads only ./favourites-state.ts), UUIDs, the catalogues (teams, schools,
  // sports and places, which the filters, the star, the site and the profile's favourites load), the commerce rules
  // only a checkout or a profile's subscription actions use, Stripe and the account routes; what only the player, the
  // profile or the checkout reach: the access and offer rules, the video analytics' details, the
  // preroll rules and schemas, the start rules and the early video's handover, the media events and the bar's rules; the Trusted Types
  // setters (the site's HTML pages, the schedule's structured data and the tag manager's script fetch them), the
  // consent API the loader and the npm entry install; the contract's areas but the channel's (the site's, the
  // library's, the account's and the analytics layer's schemas and calls: src/api/*-schemas.ts) and the texts the
  // early video shows too (the "Ad" label, the bar). A schedule-only page loads none of these.)
  if (
    /[\\/]src[\\/](stores[\\/](checkout|account|library|clips)([\\/]|\.ts$)|stores[\\/](schedule|host-requests|player|router|favourites|catalog|sign-in)\.ts$|stores[\\/]site[\\/]|stores[\\/]commerce[\\/](errors|pricing|orders|purchases|offer-cards|access|offers)\.ts$|stores[\\/]analytics[\\/]video\.ts$|api[\\/]((preroll|site|content|vod|account|analytics)-schemas|contract)\.ts$|i18n[\\/]ad-label\.ts$|events[\\/](index|account)\.ts$|lib[\\/](trusted-types|consent-api|uuid|stripe|account-routes|routes|preroll-rules|access-rules|start-rules|early-video|media-events|media-bar)\.ts$)/.test(
      id,
    )
  )
    return undefined;
  // The schedule's view is in its tag's root chunk rather than a chunk of its own that the root imports: a schedule-only
  // page makes one request fewer and gzip packs one file tighter (0.3 KB). The site's pages that show schedules (the
  // home's lists, the events pages) fetch that root then, with the tag's 1.3 KB they do not run.
  if (
    /[\\/](src[\\/]components[\\/]schedule[\\/](Schedule|ScheduleView|EventList|EventItem|attributes|index|options|shared|styles|window)\.tsx?|elements[\\/]channel-schedule\.ts)$/.test(
      id,
    )
  )
    return 'channel-schedule';
  if (/[\\/]src[\\/](api|stores|lib|i18n|events|env\.ts|start\.ts)/.test(id)) return 'session';
  if (
    /[\\/](src[\\/]components[\\/]ui[\\/](event|attributes|messages|styles|shell|list-viewed|price|use-store)\.tsx?|elements[\\/]define\.ts)$/.test(
      id,
    )
  )
    return 'session';
  return undefined;
}

export default [
  {
    input: {
      index: 'elements/index.ts',
      ...Object.fromEntries(TAGS.map((tag) => [tag, `elements/${tag}.ts`])),
    },
    output: {
      dir: 'dist',
      format: 'es',
      sourcemap: 'hidden',
      // Every chunk is named by its content (each tag's root too), so a file under chunks/ never changes: the
      // loader's integrity hashes (and a CDN's year-long cache) hold for a name as long as it exists.
      entryFileNames: (chunk) => (chunk.name === 'index' ? 'index.js' : 'chunks/[name]-[hash].js'),
      chunkFileNames: 'chunks/[name]-[hash].js',
      manualChunks,
    },
    // Keep entry exports (start) even though nothing inside the build imports them statically; an entry may export
    // more for its other importers (the schedule's root, for the site's schedules), so no facade chunk is needed. The
    // npm entry's public exports are guarded by test/node/ssr.test.ts.
    preserveEntrySignatures: 'allow-extension',
    plugins: [...plugins(), verifiedDynamicImports(), chunks.plugin],
  },
  // 2. The early video (src/loader/early-video.ts): one self-contained module (no import of any kind, which the table
  // build checks), whose code opens the player's file of the table (scripts/integrity.mjs), so the loader itself
  // stays small; it runs only when an autoplaying muted player is on the page.
  {
    input: { 'early-video': 'src/loader/early-video.ts' },
    output: {
      dir: 'dist',
      format: 'es',
      sourcemap: 'hidden',
      entryFileNames: 'chunks/[name]-[hash].js',
      inlineDynamicImports: true,
    },
    preserveEntrySignatures: 'exports-only',
    plugins: [...plugins(), chunks.plugin],
  },
  {
    input: 'src/loader/script.ts',
    output: [
      { file: `dist/channel-elements@${version}.js`, format: 'iife', sourcemap: 'hidden' },
      { file: 'dist/channel-elements.js', format: 'iife', sourcemap: 'hidden' },
    ],
    // Runs after the chunk builds: it writes their table (names, imports, hashes) and embeds each root's file of it.
    plugins: [
      replace({
        preventAssignment: true,
        delimiters: ['', ''],
        values: { __CHUNK_TABLE__: () => JSON.stringify((table ??= chunks.writeTable('dist'))) },
      }),
      ...plugins(),
      writeIntegrityJson(chunks, version),
    ],
  },
];
