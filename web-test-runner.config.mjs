// web-test-runner: browser unit tests (test/unit) and element tests (test/elements) in headless Chromium.
//
// Run all:        npx wtr --config web-test-runner.config.mjs
// Run some:       npx wtr --config web-test-runner.config.mjs "test/unit/**/money*.test.ts"
//                 (a files pattern on the command line replaces the default globs below)
// Debug/watch:    add --manual, or --watch (watch reruns a test file when the test file itself changes; the
//                 sources it imports are bundled into it, so save the test file to rerun after a source edit)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { testLaunchOptions } from './scripts/chromium.mjs';

const rootDir = path.dirname(fileURLToPath(import.meta.url));

/** Time zone and locale every test sees (relative-time-element pins them the same way). */
export const TEST_TIMEZONE = 'America/New_York';
export const TEST_LOCALE = 'en-US';

const TEST_FILE = /\.test\.tsx?$/;

/**
 * Serves each requested `*.test.ts(x)` as one esbuild bundle with its imports inlined.
 * Why: react and react-dom are CommonJS, and web-test-runner's nodeResolve fails on them ("does not provide an
 * export named 'createRoot'"), which @rollup/plugin-commonjs via fromRollup did not fix when we tried it.
 * Bundling also makes @open-wc/testing, chai-a11y-axe/axe-core and nanostores work without any node resolution.
 */
function esbuildTestBundlePlugin() {
  return {
    name: 'esbuild-test-bundle',
    async serve(context) {
      if (!TEST_FILE.test(context.path)) return undefined;
      const entry = path.join(rootDir, decodeURIComponent(context.path));
      try {
        const result = await build({
          entryPoints: [entry],
          absWorkingDir: rootDir,
          bundle: true,
          format: 'esm',
          platform: 'browser',
          target: 'es2022',
          write: false,
          // Source map paths are relative to the output location: put it next to the test file so the browser
          // (which loads /test/unit/x.test.ts) maps stack frames back to the right files.
          outdir: path.dirname(entry),
          sourcemap: 'inline',
          sourcesContent: true,
          jsx: 'automatic',
          // The browser project's compiler options (tsconfig.json is only the list of projects).
          tsconfig: path.join(rootDir, 'tsconfig.browser.json'),
          define: { 'process.env.NODE_ENV': '"development"' },
          logLevel: 'silent',
          // @sinonjs/fake-timers requires Node's util only on a path browsers never take.
          external: ['util'],
          // Records the CSS parts our elements render (see test/parts-probe.ts and partsReport below).
          inject: [path.join(rootDir, 'test/parts-probe.ts')],
        });
        const js = result.outputFiles.find((file) => file.path.endsWith('.js'));
        return { body: js.text, type: 'js' };
      } catch (error) {
        // A module that throws puts esbuild's message (file:line and what failed) into the test report,
        // instead of a bare "failed to load test file".
        const message = error?.errors?.length
          ? error.errors
              .map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : '') + e.text)
              .join('\n')
          : String(error?.message ?? error);
        const report = `esbuild could not bundle ${context.path}:\n${message}`;
        console.error(report);
        return { body: `throw new Error(${JSON.stringify(report)});`, type: 'js' };
      }
    },
  };
}

/**
 * `/__parts`: what test/parts-probe.ts saw in each test file, merged for the run into test-results/parts.json
 * (tag -> the CSS parts rendered in its shadow root), which `npm test` checks against elements/surface.ts.
 */
function partsReport() {
  const seen = new Map();
  const file = path.join(rootDir, 'test-results/parts.json');
  rmSync(file, { force: true });
  return async function parts(context, next) {
    if (context.path !== '/__parts' || context.method !== 'POST') return next();
    let body = '';
    for await (const chunk of context.req) body += chunk;
    for (const [tag, names] of Object.entries(JSON.parse(body))) {
      const set = seen.get(tag) ?? new Set();
      for (const name of names) set.add(name);
      seen.set(tag, set);
    }
    mkdirSync(path.dirname(file), { recursive: true });
    const sorted = Object.fromEntries([...seen].sort().map(([tag, set]) => [tag, [...set].sort()]));
    writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
    context.status = 204;
  };
}

export default {
  rootDir,
  files: ['test/unit/**/*.test.ts', 'test/elements/**/*.test.{ts,tsx}'],
  // Imports are inlined by the esbuild plugin, so the dev server's own resolution is not needed.
  nodeResolve: false,
  plugins: [esbuildTestBundlePlugin()],
  middleware: [
    partsReport(),
    // Media that never arrives: element tests give a <video> a URL under /__pending/ when they dispatch what real
    // media would fire themselves, so that no real load ends in an error meanwhile. The answer waits until the
    // browser lets go of the request (the video is removed), or a minute.
    async function pendingMedia(context, next) {
      if (!context.path.startsWith('/__pending/')) return next();
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 60_000);
        context.req.on('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      context.status = 204;
    },
  ],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { ...testLaunchOptions(), headless: true },
      createBrowserContext: ({ browser }) => browser.newContext({ timezoneId: TEST_TIMEZONE, locale: TEST_LOCALE }),
    }),
  ],
  concurrency: 2,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 120_000,
  testFramework: {
    config: { timeout: 10_000, ui: 'bdd' },
  },
};
