// The project's own lint rules (scripts/lint-rules.mjs), run by ESLint's RuleTester on small files: the cycle rule
// on real files in a temporary folder (it follows imports on disk), the disable-comment rule on source text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { RuleTester } from 'eslint';
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
