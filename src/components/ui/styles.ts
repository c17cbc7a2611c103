/**
 * Styles for shadow roots. Sheets are adopted (constructable stylesheets), which a strict
 * Content-Security-Policy allows without 'unsafe-inline'. Sizes are in px/em, never rem, so the host page's
 * root font size cannot leak in.
 */

const sheets = new Map<string, CSSStyleSheet>();

/** A constructable sheet for this CSS text, shared by every element that uses it. */
export function sheet(css: string): CSSStyleSheet | undefined {
  if (typeof CSSStyleSheet === 'undefined' || !('replaceSync' in CSSStyleSheet.prototype)) return undefined;
  let s = sheets.get(css);
  if (!s) {
    s = new CSSStyleSheet();
    s.replaceSync(css);
    sheets.set(css, s);
  }
  return s;
}

/** Adopts sheets into a shadow root (falls back to a <style> element in browsers without adoptedStyleSheets). */
export function adopt(root: ShadowRoot, cssTexts: string[]): void {
  const made = cssTexts.map(sheet);
  if (made.every(Boolean) && 'adoptedStyleSheets' in root) {
    root.adoptedStyleSheets = made as CSSStyleSheet[];
    return;
  }
  let style = root.querySelector('style[data-channel]');
  if (!style) {
    style = document.createElement('style');
    style.setAttribute('data-channel', '');
    root.prepend(style);
  }
  style.textContent = cssTexts.join('\n');
}

/** Base styles of every element: a reset against the host page, the theme variables, shared widgets. */
export const baseCss = /* css */ `
:host {
  all: initial;
  display: block;
  box-sizing: border-box;
  font-family: var(--channel-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  font-size: var(--channel-font-size, 15px);
  line-height: 1.45;
  color: var(--channel-text, var(--channel-body-text-color, #16181d));
  background: var(--channel-background, transparent);
  text-transform: none;
  letter-spacing: normal;
  word-spacing: normal;
  text-align: start;
  --_accent: var(--channel-accent, var(--channel-primary-color, #1f5fd6));
  --_accent-text: var(--channel-accent-text, #ffffff);
  --_muted: var(--channel-muted, var(--channel-body-text-color-70, #5b6170));
  --_line: var(--channel-line, var(--channel-body-text-color-20, #d5d8de));
  --_surface: var(--channel-surface, var(--channel-body-background-10, #f5f6f8));
  --_radius: var(--channel-radius, 10px);
  --_live: var(--channel-live, #d81f26);
}
:host([hidden]) { display: none; }
*, *::before, *::after { box-sizing: border-box; border: 0 solid; margin: 0; padding: 0; text-transform: inherit; letter-spacing: inherit; }
a { color: inherit; }
button, select, input { font: inherit; color: inherit; letter-spacing: inherit; }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.was { text-decoration: line-through; font-weight: 400; margin-inline-start: 6px; }
.btn {
  display: inline-flex; align-items: center; justify-content: center; gap: 6px;
  min-height: 36px; padding: 6px 14px; border-radius: 999px; cursor: pointer;
  background: var(--_accent); color: var(--_accent-text); font-weight: 600; border: 1px solid transparent;
}
.btn[disabled] { opacity: .55; cursor: not-allowed; }
.btn.secondary { background: transparent; color: inherit; border-color: var(--_line); }
.panel {
  display: grid; gap: 12px; justify-items: start; padding: 20px; border-radius: var(--_radius);
  background: var(--_surface); border: 1px solid var(--_line);
}
.panel.error { border-color: var(--channel-error, #b3261e); }
.panel p { max-width: 60ch; }
.detail { color: var(--_muted); font-size: .9em; }
.notice { font-size: .85em; color: var(--_muted); padding: 4px 0; }
.toasts { position: fixed; bottom: 12px; left: 0; right: 0; display: grid; gap: 6px; justify-items: center; pointer-events: none; z-index: 2; }
.toast {
  pointer-events: auto; display: flex; gap: 10px; align-items: center; padding: 8px 12px; border-radius: 8px;
  background: #1d2330; color: #fff; box-shadow: 0 4px 14px rgba(0,0,0,.2); font-size: .92em;
}
.toast.error { background: #8c1d18; }
.toast.success { background: #1d6b36; }
.toast button { background: none; color: inherit; cursor: pointer; font-size: 1.1em; line-height: 1; padding: 2px 4px; }
`;
