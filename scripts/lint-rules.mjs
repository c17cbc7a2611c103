// The project's own ESLint rules (plugin `local` in eslint.config.mjs), for what no installed plugin checks:
//
// - no-cycle: an import that leads back, through any chain of our modules, to the file itself. Every kind of
//   import counts: static, type-only (`import type`, `import('x').T`) and dynamic `import()`, since a lazy chunk
//   that imports its importer still ties the two modules into one.
// - disable-says-why: every `eslint-disable*` comment gives its reason after ` -- `; `max-lines` may be turned off
//   only by a block comment at the file's top (`/* eslint-disable max-lines -- why this file is one unit */`).
//
// Tested in test/node/lint-rules.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A file's relative import specifiers, with the modification time they were read at. */
const importsCache = new Map();

/** The relative specifiers a file on disk imports, in any form (comments and strings are skipped). */
function specifiersOnDisk(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const cached = importsCache.get(file);
  if (cached && cached.mtime === stat.mtimeMs) return cached.specifiers;
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = ts
    .preProcessFile(text, true, true)
    .importedFiles.map((ref) => ref.fileName)
    .filter((name) => name.startsWith('.'));
  importsCache.set(file, { mtime: stat.mtimeMs, specifiers });
  return specifiers;
}

/** The source file a relative specifier names (`./x.js` is ./x.ts or ./x.tsx in TypeScript), or undefined. */
function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base];
  const ext = path.extname(base);
  if (ext === '.js' || ext === '.jsx')
    candidates.push(base.slice(0, -ext.length) + '.ts', base.slice(0, -ext.length) + '.tsx');
  else if (ext === '.mjs') candidates.push(base.slice(0, -4) + '.mts');
  else if (ext === '.cjs') candidates.push(base.slice(0, -4) + '.cts');
  else if (ext === '') candidates.push(base + '.ts', base + '.tsx', path.join(base, 'index.ts'));
  return candidates.find((candidate) => fs.statSync(candidate, { throwIfNoEntry: false })?.isFile());
}

/** The shortest chain of imports from `start` back to `target` (both included), or undefined when none. */
function chainBack(start, target) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    for (const specifier of specifiersOnDisk(file)) {
      const next = resolve(file, specifier);
      if (!next || cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === target) {
        const chain = [];
        for (let at = next; at !== undefined; at = cameFrom.get(at)) chain.unshift(at);
        return chain;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports that lead back to the importing file (import cycles).' },
    schema: [],
    messages: {
      cycle:
        'Import cycle: {{chain}}. Move what both sides need into the lower module (or a new one both import), ' +
        'or hand it down as an argument or callback.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const seen = new Set();
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolve(file, source);
      if (!target || target === file || seen.has(target)) return;
      seen.add(target);
      const chain = chainBack(target, file);
      if (!chain) return;
      const names = [file, ...chain].map((at) => path.relative(context.cwd, at));
      context.report({ node, messageId: 'cycle', data: { chain: names.join(' -> ') } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => {
        const literal = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument;
        if (literal?.type === 'Literal') check(literal, literal.value);
      },
    };
  },
};

/** @type {import('eslint').Rule.RuleModule} */
const disableSaysWhy = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Every eslint-disable comment gives its reason; max-lines is turned off at the top only.' },
    schema: [],
    messages: {
      reason: 'Say why after " -- ": `eslint-disable-next-line some-rule -- the reason the rule does not fit here`.',
      maxLinesAtTop:
        'A long file says why at its top: turn max-lines off with a block comment before any code, ' +
        '`/* eslint-disable max-lines -- why this file is one unit */`, or split the file.',
    },
  },
  create(context) {
    const { sourceCode } = context;
    return {
      Program(program) {
        const firstCode = program.body[0]?.range[0] ?? Infinity;
        for (const directive of sourceCode.getDisableDirectives().directives) {
          if (directive.type === 'enable') continue;
          const node = directive.node;
          if (!directive.justification.trim()) context.report({ loc: node.loc, messageId: 'reason' });
          const rules = directive.value.split(',').map((rule) => rule.trim());
          const atTop = directive.type === 'disable' && node.type === 'Block' && node.range[1] <= firstCode;
          if (rules.includes('max-lines') && !atTop) context.report({ loc: node.loc, messageId: 'maxLinesAtTop' });
        }
      },
    };
  },
};

/** The plugin eslint.config.mjs registers as `local`. */
export default {
  meta: { name: 'local' },
  rules: { 'no-cycle': noCycle, 'disable-says-why': disableSaysWhy },
};
