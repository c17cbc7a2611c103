/**
 * A rollup plugin that squeezes the CSS in template literals marked with a leading comment css (slash-star css
 * star-slash), so styles ship without indentation and line breaks. It only removes whitespace that CSS does not
 * need; the texts have no interpolations.
 */
export function minifyCssTemplates() {
  return {
    name: 'minify-css-templates',
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || !code.includes('/* css */')) return null;
      const out = code.replace(/\/\* css \*\/ `([^`$]*)`/g, (_, css) => '`' + squeeze(css) + '`');
      return { code: out, map: null };
    },
  };
}

/** Removes comments and the whitespace CSS does not need. */
export function squeeze(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();
}
