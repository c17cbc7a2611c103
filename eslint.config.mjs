// ESLint flat config: the recommended JavaScript and TypeScript rules, the React hooks rules, the import
// boundaries of src/README.md ("Layout") and no import cycles as errors, so the layering is checked rather than
// described; every eslint-disable says why, and a file over MAX_LINES says at its top why it is one unit.
//
// Run: npx eslint .            (npm run lint adds --max-warnings 0)
//      npx eslint src/stores   (one folder)
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import local from './scripts/lint-rules.mjs';

/** Every file the linter reads as TypeScript or modern JavaScript. */
const CODE = '**/*.{ts,tsx,mts,cts,js,mjs,cjs}';

/**
 * The most lines a file of code may have, every line counted (blank lines and comments too: what a reader scrolls
 * through). A longer file splits, or says at its top why it is one unit:
 * `/* eslint-disable max-lines -- the reason *\/` (local/disable-says-why holds it to the top and to a reason).
 * Tests are not held to it: a suite is a list of cases that share their setup.
 */
const MAX_LINES = 450;

// Import boundaries. Each entry is one `patterns` item of no-restricted-imports. The specifiers are relative
// ('../stores/session.js'), so each regex allows any number of leading '../' to work at every folder depth.

/** src/ reaching into the channel server, the demo pages or the tag roots (they depend on src, never the reverse). */
const NO_DEMO_OR_ELEMENTS = {
  regex: '^(\\.\\./)+(demo|server|elements)/',
  message:
    'src/ must not import demo/, server/ or elements/: elements/ are thin roots over src, server/ is the channel ' +
    'server and demo/ its demo pages. ' +
    'Move what both need into src/ (a view, store or lib module) and import it from there.',
};

/** Anything of ours from src/lib (the folder is flat, so every '../' leaves it). */
const LIB_IMPORTS_NOTHING = {
  regex: '^\\.\\./',
  message:
    'src/lib is pure helpers and imports nothing of ours (only other src/lib files, as ./x.js). Pass what the ' +
    'helper needs as an argument, or move the code that needs stores/env/api out of lib.',
};

/** src/api reaching beyond src/lib (the folder is flat, so '../lib/' is the only way out it may take). */
const API_IMPORTS_ONLY_LIB = {
  regex: '^\\.\\./(?!lib/)',
  message:
    'src/api (client, errors, contract) imports only src/lib and itself: never stores, env, components, i18n or ' +
    'the loader. Take what the request needs as a parameter; let a store call the client instead.',
};

/** React in code that must run without it. */
const noReact = (where) => ({
  regex: '^(react|react-dom|@r2wc/react-to-web-component)(/|$)',
  message: `${where} runs without React. Keep React in src/components and have the component call into this module.`,
});

/** src/stores from a layer below it. */
const noStores = (where, fix) => ({
  regex: '^(\\.\\./)+stores/',
  message: `${where} must not import src/stores. ${fix}`,
});

/** src/media from a layer below it. */
const noMedia = (where, fix) => ({
  regex: '^(\\.\\./)+media/',
  message: `${where} must not import src/media. ${fix}`,
});

/** src/components from a layer below it. */
const noComponents = (where, fix) => ({
  regex: '^(\\.\\./)+components/',
  message: `${where} must not import src/components. ${fix}`,
});

/**
 * The loader from the code it loads: the loader starts things the elements take over (src/lib/early-video.ts,
 * src/lib/early-requests.ts), so arrows point from src/loader down into src/lib, never back up.
 */
const NO_LOADER = {
  regex: '^(\\.\\./)+loader/',
  message:
    'Only the loader (src/loader) and the entry points in elements/ import src/loader. What the loader hands the ' +
    'elements lives in src/lib (src/lib/early-video.ts, src/lib/early-requests.ts).',
};

/** The HTTP client from UI code. */
const NO_API_CLIENT = {
  regex: '^(\\.\\./)+api/client(\\.js)?$',
  message:
    'Components never call the API client: add or use a store action (src/stores) that does the request, and ' +
    'read its result from the store. Types from the api/*-schemas.js modules and api/errors.js are fine.',
};

/**
 * The whole contract (api/contract.js) from the browser's code: it joins every area's schemas and calls, and a chunk
 * that imports it carries them all (the shared chunk would carry the site's, the library's and the account's to a
 * schedule-only page). Browser code imports the area it uses; the server and the tests import the whole.
 */
const NO_WHOLE_CONTRACT = {
  regex: '^(\\.\\./|\\./)*(api/)?contract(\\.js)?$',
  message:
    'Import the area module instead of api/contract.js: channel-schemas.js (keys, settings, the viewer, events, ' +
    'the catalogue: channelApi), site-schemas.js (siteApi), content-schemas.js (contentApi), vod-schemas.js (vodApi), account-schemas.js ' +
    '(accountApi), analytics-schemas.js or analytics-limits.js.',
};

/** From server/ (and the demo pages), any of src/ except the API contract the server shares with the client. */
const DEMO_ONLY_CONTRACT = {
  regex: '^(\\.\\./)+src/(?!api/(contract|preroll-schemas)(\\.js)?$)',
  message:
    'The channel server imports from src/ only src/api/contract.js (the wire format both sides share; its preroll ' +
    'list is in src/api/preroll-schemas.js, apart so that only the player chunk carries it). Copy or ' +
    'move anything else into server/, or into the contract if it truly is part of the API.',
};

/**
 * The channel server's domains (every folder of server/ but app/, dev/ and testing/) reaching into the stand-ins or
 * the test harness. The stand-ins are chosen at start by app/services.ts, in dev mode only; a domain sees only the
 * service's interface (server/README.md, "Rules").
 */
const NO_DEV_OR_TESTING = {
  regex: '^(\\.\\./)+(dev|testing)/',
  message:
    'A server domain imports neither server/dev/ (the dev-mode stand-ins) nor server/testing/ (the test harness). ' +
    'Depend on the service interface (commerce/providers/provider.ts, mail/mail.ts, identity/provider.ts, ' +
    'media/sources/source.ts) and let app/services.ts choose the implementation; move shared code into the domain.',
};

/** A pattern as a regex literal esquery reads in a selector. */
const selectorRegex = (regex) => `/${regex.replaceAll('/', '\\/')}/`;

/**
 * One config block per folder with its import rule. ESLint replaces (does not merge) a rule's options when two
 * blocks match the same file, so every src block repeats the src-wide NO_DEMO_OR_ELEMENTS pattern. The same
 * patterns hold for a dynamic `import()` and a type's `import('…')`, which no-restricted-imports does not look at.
 */
const importSyntax = (...patterns) =>
  patterns.flatMap(({ regex, message }) => [
    { selector: `ImportExpression[source.value=${selectorRegex(regex)}]`, message },
    { selector: `TSImportType[argument.literal.value=${selectorRegex(regex)}]`, message },
  ]);
const boundary = (files, ...patterns) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns }],
    'no-restricted-syntax': ['error', ...importSyntax(...patterns)],
  },
});

/**
 * A domain of the channel server from server/http: a sibling folder but observability/ (the log and metrics every
 * part writes to); type imports are allowed.
 */
/**
 * The command line (server/cli/) is a domain that reaches the database and the modules that write a channel: it
 * imports storage/, channel/, operator/ and fixtures/ (and the log), never the server's assembly or its API.
 */
const CLI_REACHES_ONLY = {
  regex: '^\\.\\./(?!storage/|channel/|operator/|fixtures/|observability/)[^/]+/',
  message:
    'server/cli imports only storage/, channel/, operator/ and fixtures/ (and observability/): a change it makes on ' +
    'the database goes through the modules that own it, and everything else goes through the operator API.',
};

const HTTP_RUNS_NO_DOMAIN = {
  regex: '^\\.\\./(?!\\.\\./|observability/)[^/]+/',
  message:
    'server/http imports no domain at run time (type imports are fine): take what it needs as a ' +
    'parameter or callback, or move the code into the domain that owns it.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'server/.media/',
      'demo/.hosts/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
      '.cache/',
      '.data/',
    ],
  },
  js.configs.recommended,
  // Its TypeScript-only parts (no-undef off, no-var, prefer-const) keep their own `files`; the rest applies to all.
  tseslint.configs.recommended,
  {
    files: [CODE],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { local },
    rules: {
      // Two modules that import each other (even for types, even lazily) are one module in two files.
      'local/no-cycle': 'error',
      // An exception to a rule is a decision: it says why, beside it.
      'local/disable-says-why': 'error',
      // No code from strings: the product runs inside other people's pages and their CSP.
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      // `_name` marks an argument kept for its position (callbacks, rollup hooks).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },

  {
    // React code only: Playwright fixtures call a `use` that is not React's.
    files: ['src/**', 'elements/**', 'test/unit/**', 'test/elements/**', 'test/fixtures/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // An error, so each `eslint-disable-next-line react-hooks/exhaustive-deps` is a decision with its reason beside it.
      'react-hooks/exhaustive-deps': 'error',
    },
  },

  {
    files: [CODE],
    ignores: ['test/**', 'server/**/*.test.ts', 'server/testing/**'],
    rules: { 'max-lines': ['error', { max: MAX_LINES, skipBlankLines: false, skipComments: false }] },
  },

  // Globals: browser code, then Node code. (typescript-eslint turns no-undef off for TypeScript, where the
  // compiler checks names; these matter for the .js/.mjs files.)
  {
    files: ['src/**', 'elements/**', 'test/unit/**', 'test/elements/**', 'test/fixtures/**', 'demo/site/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['server/**', 'scripts/**', 'bench/**', 'test/e2e/**', 'test/faults/**', '*.{js,mjs,cjs,ts,mts}'],
    languageOptions: { globals: globals.node },
  },

  // Import boundaries (see src/README.md, "Layout"). Later blocks win for their folders, so the narrow folders come last.
  boundary(['src/**'], NO_DEMO_OR_ELEMENTS, NO_LOADER, NO_WHOLE_CONTRACT),
  boundary(['src/lib/**'], NO_DEMO_OR_ELEMENTS, LIB_IMPORTS_NOTHING),
  boundary(['src/api/**'], NO_DEMO_OR_ELEMENTS, API_IMPORTS_ONLY_LIB, noReact('src/api'), NO_WHOLE_CONTRACT),
  boundary(
    ['src/stores/**'],
    NO_DEMO_OR_ELEMENTS,
    NO_LOADER,
    NO_WHOLE_CONTRACT,
    noComponents(
      'A store',
      'Stores hold the logic and components subscribe to them; move shared code into the store or src/lib.',
    ),
  ),
  boundary(['src/components/**'], NO_DEMO_OR_ELEMENTS, NO_LOADER, NO_API_CLIENT, NO_WHOLE_CONTRACT),
  boundary(
    ['src/media/**'],
    NO_DEMO_OR_ELEMENTS,
    NO_LOADER,
    NO_WHOLE_CONTRACT,
    noReact('src/media (the playback engine)'),
    noComponents('src/media (the playback engine)', 'Expose a plain function or callback the component calls instead.'),
    noStores(
      'src/media (the playback engine)',
      'Take what it needs from the store as an argument or a callback (see VideoReporting in media/analytics.ts).',
    ),
  ),
  boundary(
    ['src/loader/**'],
    NO_DEMO_OR_ELEMENTS,
    NO_WHOLE_CONTRACT,
    noStores(
      'The loader (src/loader)',
      'It runs before any element code: what it shares with the elements goes in src/lib or a loader protocol module.',
    ),
    noComponents('The loader (src/loader)', 'It runs before React: the elements render, the loader only fetches.'),
    noMedia('The loader (src/loader)', 'The player adopts what the loader started; the loader never calls into it.'),
  ),
  boundary(['elements/**'], NO_WHOLE_CONTRACT),
  boundary(['demo/**', 'server/**'], DEMO_ONLY_CONTRACT),
  {
    ...boundary(['server/*/**'], DEMO_ONLY_CONTRACT, NO_DEV_OR_TESTING),
    ignores: ['server/app/**', 'server/dev/**', 'server/testing/**', 'server/**/*.test.ts'],
  },
  {
    ...boundary(['server/cli/**'], DEMO_ONLY_CONTRACT, NO_DEV_OR_TESTING, CLI_REACHES_ONLY),
    ignores: ['server/**/*.test.ts'],
  },
  {
    // http/ is the mechanism every domain uses (requests, answers, static files, limits): it may name a domain's
    // types, never run its code, so it never grows a dependency on what it serves (the routing table that joins
    // them is app/routes.ts).
    files: ['server/http/**'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ ...HTTP_RUNS_NO_DOMAIN, allowTypeImports: true }],
        },
      ],
      // A lazy import() runs the domain's code too (a type's `import('…')` does not); the folder's other rules repeat.
      'no-restricted-syntax': [
        'error',
        ...importSyntax(DEMO_ONLY_CONTRACT, NO_DEV_OR_TESTING),
        {
          selector: `ImportExpression[source.value=${selectorRegex(HTTP_RUNS_NO_DOMAIN.regex)}]`,
          message: HTTP_RUNS_NO_DOMAIN.message,
        },
      ],
    },
  },

  {
    // Stores and the API layer run the same in the browser, in tests with a fake clock and anywhere else: the page
    // (its address, history, documents and storage) reaches them only through the injected environment.
    files: ['src/stores/**', 'src/api/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['location', 'history', 'document', 'window', 'sessionStorage', 'localStorage', 'navigator'].map((name) => ({
          name,
          message: `Stores and the API layer do not touch the page: reach \`${name}\` through env() (src/lib/env.ts), adding a service there if needed.`,
        })),
      ],
    },
  },
  {
    // The channel server answers a request only once its writes are committed: every statement is awaited. A
    // promise left floating, or tested as if it were its value (`if (db.get(...))`), is an error, found by types.
    // The tests too: a test's UPDATE left floating races the request it sets up for (a flaky test on PostgreSQL).
    files: ['server/**/*.ts', 'test/node/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The server tests read answers loosely (`body: any`) and check their shapes against the contract instead.
    files: ['server/**/*.test.ts', 'server/testing/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
