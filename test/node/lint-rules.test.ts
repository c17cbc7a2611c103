// The project's own lint rules (scripts/lint-rules.mjs), run by ESLint's RuleTester on small files: the cycle rule
// on real files in a temporary folder (it follows imports on disk), the disable-comment rule on source text; and
// the import boundaries of eslint.config.mjs, through the project's own config.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import local from '../../scripts/lint-rules.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

describe('local/no-cycle', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lint-rules-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const files: Record<string, string> = {
    // a -> b -> c -> a, written as the sources are: `.js` specifiers for `.ts` files.
    'a.ts': "import { b } from './b.js';\nexport const a = b;",
    'b.ts': "import { c } from './c.js';\nexport const b = c;",
    'c.ts': "import type { A } from './a.js';\nexport const c = 1 as unknown as A;",
    // A layer fetched lazily that imports its loader.
    'port.ts': "export const load = () => import('./layer.js');\nexport const door = 1;",
    'layer.ts': "import { door } from './port.js';\nexport const layer = door;",
    // No cycle: d imports e, e imports nothing of ours.
    'd.ts': "import { e } from './e.js';\nexport const d = e;",
    'e.ts': "import { z } from 'zod';\nexport const e = z;",
    'f.tsx': "import { d } from './d.js';\nexport const f = d;",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const at = (name: string) => ({ code: files[name]!, filename: path.join(dir, name) });
  /** The message's chain: each file as the linter names it (from the working directory). */
  const chain = (...names: string[]) => ({
    chain: names.map((name) => path.relative(process.cwd(), path.join(dir, name))).join(' -> '),
  });

  tester.run('no-cycle', local.rules['no-cycle'], {
    valid: [at('d.ts'), at('e.ts'), at('f.tsx')],
    invalid: [
      { ...at('a.ts'), errors: [{ messageId: 'cycle', data: chain('a.ts', 'b.ts', 'c.ts', 'a.ts') }] },
      // A type-only import closes a cycle too.
      { ...at('c.ts'), errors: [{ messageId: 'cycle', data: chain('c.ts', 'a.ts', 'b.ts', 'c.ts') }] },
      // So does a dynamic import().
      { ...at('port.ts'), errors: [{ messageId: 'cycle', data: chain('port.ts', 'layer.ts', 'port.ts') }] },
      { ...at('layer.ts'), errors: [{ messageId: 'cycle', data: chain('layer.ts', 'port.ts', 'layer.ts') }] },
    ],
  });
});

describe('local/disable-says-why', () => {
  tester.run('disable-says-why', local.rules['disable-says-why'], {
    valid: [
      'const a = 1;\n// eslint-disable-next-line no-console -- the one console line a developer must see\nconsole.log(a);',
      '/* eslint-disable max-lines -- one state machine, its steps read in order */\nexport const a = 1;',
      '// A header comment first.\n/* eslint-disable max-lines -- one unit */\nexport const a = 1;',
    ],
    invalid: [
      {
        code: 'const a = 1;\n// eslint-disable-next-line no-console\nconsole.log(a);',
        errors: [{ messageId: 'reason' }],
      },
      {
        code: '/* eslint-disable max-lines */\nexport const a = 1;',
        errors: [{ messageId: 'reason' }],
      },
      {
        code: 'export const a = 1;\n/* eslint-disable max-lines -- a reason, but not at the top */',
        errors: [{ messageId: 'maxLinesAtTop' }],
      },
      {
        code: 'export const a = 1; // eslint-disable-line max-lines -- a line comment is not the top',
        errors: [{ messageId: 'maxLinesAtTop' }],
      },
    ],
  });
});

describe('the import boundaries (eslint.config.mjs), static, dynamic and type imports alike', () => {
  const eslint = new ESLint({ cwd: path.join(import.meta.dirname, '../..') });
  /** The messages the project's config gives `code` as if it were the file `file`. */
  const lint = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(import.meta.dirname, '../..', file) }))[0]!.messages.map(
      (message) => message.message,
    );

  it('src/media imports no store, however it imports', async () => {
    for (const code of [
      "import { $user } from '../stores/session.js';\nexport const u = $user;",
      "export const load = () => import('../stores/session.js');",
      "export type T = import('../stores/session.js').SessionState;",
    ]) {
      const messages = await lint('src/media/probe.ts', code);
      assert.ok(
        messages.some((m) => m.includes('must not import src/stores')),
        `${code}: ${messages.join('; ')}`,
      );
    }
  });

  it('only the loader imports src/loader; the loader imports no store, component or media module', async () => {
    const loader = "import { storedValue } from '../loader/early.js';\nexport const v = storedValue;";
    for (const file of ['src/components/probe.ts', 'src/stores/probe.ts', 'src/media/probe.ts', 'src/i18n/probe.ts'])
      assert.ok(
        (await lint(file, loader)).some((m) => m.includes('Only the loader')),
        file,
      );
    assert.deepEqual(
      await lint('src/loader/probe.ts', "import { storedValue } from './early.js';\nexport const v = storedValue;"),
      [],
    );
    for (const [code, rule] of [
      ["export const load = () => import('../stores/session.js');", 'must not import src/stores'],
      ["export const load = () => import('../components/ui/shell.js');", 'must not import src/components'],
      ["export type T = import('../media/session.js').SessionState;", 'must not import src/media'],
    ] as const)
      assert.ok(
        (await lint('src/loader/probe.ts', code)).some((m) => m.includes(rule)),
        code,
      );
  });
});

describe("the channel server's boundaries (server/README.md, Rules)", () => {
  // The typed rules of server/ need the file on disk; these probes are text only, so they run without them.
  const eslint = new ESLint({
    cwd: path.join(import.meta.dirname, '../..'),
    overrideConfig: [
      {
        files: ['server/**'],
        languageOptions: { parserOptions: { projectService: false } },
        rules: {
          '@typescript-eslint/no-floating-promises': 'off',
          '@typescript-eslint/no-misused-promises': 'off',
          '@typescript-eslint/await-thenable': 'off',
        },
      },
    ],
  });
  const lint = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(import.meta.dirname, '../..', file) }))[0]!.messages.map(
      (message) => message.message,
    );
  const refusedBy = (messages: string[], words: string) => messages.some((m) => m.includes(words));

  it('no domain imports the stand-ins (dev/) or the test harness (testing/), however it imports them', async () => {
    const dev = 'imports neither server/dev/';
    for (const [file, code] of [
      ['server/commerce/probe.ts', "import { handleStripe } from '../dev/stripe.js';\nexport const h = handleStripe;"],
      ['server/commerce/providers/probe.ts', "export const load = () => import('../../dev/stripe.js');"],
      ['server/accounts/probe.ts', "export type T = import('../dev/social.js').SocialContext;"],
      ['server/mail/probe.ts', "import { Harness } from '../testing/harness.js';\nexport const h = Harness;"],
      ['server/storage/probe.ts', "import { Harness } from '../testing/harness.js';\nexport const h = Harness;"],
    ] as const) {
      const messages = await lint(file, code);
      assert.ok(refusedBy(messages, dev), `${file}: ${messages.join('; ')}`);
    }
    // The composition root chooses the stand-ins, and a test uses the harness.
    const stripe = "import { handleStripe } from '../dev/stripe.js';\nexport const h = handleStripe;";
    assert.deepEqual(await lint('server/app/probe.ts', stripe), []);
    const harness = "import { Harness } from '../testing/harness.js';\nexport const h = Harness;";
    assert.deepEqual(await lint('server/commerce/probe.test.ts', harness), []);
  });

  it('server/http runs no domain code: it may import a domain type, never a value', async () => {
    const value = await lint(
      'server/http/probe.ts',
      "import { listEvents } from '../catalog/events.js';\nexport const h = listEvents;",
    );
    assert.ok(refusedBy(value, 'server/http imports no domain at run time'), value.join('; '));
    // The log and the metrics are not a domain: every part writes to them.
    assert.deepEqual(
      await lint('server/http/probe.ts', "import { log } from '../observability/log.js';\nexport const l = log;"),
      [],
    );
    const lazy = await lint('server/http/probe.ts', "export const load = () => import('../catalog/events.js');");
    assert.ok(refusedBy(lazy, 'server/http imports no domain at run time'), lazy.join('; '));
    const stub = await lint('server/http/probe.ts', "export const load = () => import('../dev/stripe.js');");
    assert.ok(refusedBy(stub, 'imports neither server/dev/'), stub.join('; '));
    assert.deepEqual(
      await lint('server/http/probe.ts', "import type { Clock } from '../catalog/events.js';\nexport type C = Clock;"),
      [],
    );
    assert.deepEqual(
      await lint('server/http/probe.ts', "import { HttpError } from './http.js';\nexport const h = HttpError;"),
      [],
    );
  });
});
