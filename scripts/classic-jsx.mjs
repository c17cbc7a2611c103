// A rollup plugin that gives each .tsx module React's createElement and Fragment under short names, for esbuild's
// classic JSX transform (rollup.config.mjs): `createElement(type, props, ...children)` is smaller than the automatic
// runtime's `jsx(type, { ...props, children: [...] })`, 0.3 KB gzip on a schedule-only page, and React renders
// both alike. The import goes on the module's first line, so the source map's lines hold. (TypeScript checks JSX
// with the automatic runtime's types: tsconfig.base.json.)

/** The names esbuild's `jsxFactory` and `jsxFragment` are given. */
export const JSX_FACTORY = '__jsx';
export const JSX_FRAGMENT = '__Fragment';

export function classicJsx() {
  return {
    name: 'classic-jsx',
    transform(code, id) {
      if (!id.endsWith('.tsx')) return null;
      return {
        code: `import { createElement as ${JSX_FACTORY}, Fragment as ${JSX_FRAGMENT} } from 'react';${code}`,
        map: null,
      };
    },
  };
}
