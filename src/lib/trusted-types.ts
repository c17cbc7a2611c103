/**
 * Trusted Types. A host page may enforce them (`Content-Security-Policy: require-trusted-types-for 'script'`):
 * then the DOM refuses plain strings where HTML, script text or a script URL goes. Our one policy,
 * `channel-elements`, passes on what we produced ourselves: HTML that DOMPurify has just sanitized (and the input
 * DOMPurify parses inertly to do so), the JSON-LD we serialize, and the script URLs of the channel's own settings.
 * A page that enforces Trusted Types lists it: `trusted-types channel-elements` (plus `'allow-duplicates'` when the
 * bundle can be on a page twice, script tag and npm). Without it, HTML content shows as plain text, JSON-LD and
 * injected scripts are left out, and the console says why once; the elements themselves work.
 */
import { env } from './env.js';

/** The name of our policy: what a host enforcing Trusted Types adds to its `trusted-types` directive. */
export const TRUSTED_TYPES_POLICY = 'channel-elements';

/** The policy's three passes (the browser's TrustedTypePolicy shape). */
export interface Policy {
  createHTML(input: string): unknown;
  createScript(input: string): unknown;
  createScriptURL(input: string): unknown;
}

interface TrustedTypesFactory {
  createPolicy(name: string, rules: Record<keyof Policy, (input: string) => string>): Policy;
}

/** Kept on the global object, so two copies of the bundle on one page share one policy. */
const SLOT = Symbol.for('channel-elements.trusted-types');
const pass = (input: string) => input;
let warned = false;

/** Our policy; null where the browser has no Trusted Types or the page does not allow the policy. */
export function trustedTypesPolicy(): Policy | null {
  const global = globalThis as unknown as Record<symbol, Policy | null | undefined> & {
    trustedTypes?: TrustedTypesFactory;
  };
  const kept = global[SLOT];
  if (kept !== undefined) return kept;
  let made: Policy | null = null;
  try {
    made =
      global.trustedTypes?.createPolicy(TRUSTED_TYPES_POLICY, {
        createHTML: pass,
        createScript: pass,
        createScriptURL: pass,
      }) ?? null;
  } catch {
    made = null; // the page's trusted-types directive does not list it
  }
  try {
    Object.defineProperty(global, SLOT, { value: made, configurable: true });
  } catch {
    // A frozen global object: the next call tries again, which is harmless.
  }
  return made;
}

/** Says once that the page refused something of ours for want of the policy. */
function refused(what: string): void {
  if (warned) return;
  warned = true;
  env().logger.warn(
    `channel-elements: this page enforces Trusted Types without allowing the policy "${TRUSTED_TYPES_POLICY}", so ${what}. Add ${TRUSTED_TYPES_POLICY} to the page's trusted-types directive.`,
  );
}

/**
 * Assigns a string to a sink the page may guard with Trusted Types, through our policy when there is one; false
 * (and the console told once) where the page refuses it.
 */
function assign(target: object, sink: string, value: string, wrap: keyof Policy, refusal: string): boolean {
  const policy = trustedTypesPolicy();
  try {
    (target as Record<string, unknown>)[sink] = policy ? policy[wrap](value) : value;
    return true;
  } catch {
    refused(refusal);
    return false;
  }
}

/**
 * Puts sanitized HTML into an element (never the API's raw HTML: sanitize first). Where the page refuses it, the
 * element gets the text alone; answers whether the HTML went in.
 */
export function setSanitizedHtml(element: Element, html: string): boolean {
  if (assign(element, 'innerHTML', html, 'createHTML', 'channel content shows as plain text')) return true;
  element.textContent = textOf(html);
  return false;
}

/** Sets the text of a script element (JSON-LD we built); false where the page refuses it. */
export function setScriptText(script: HTMLScriptElement, text: string): boolean {
  return assign(script, 'text', text, 'createScript', 'the schedule publishes no structured data');
}

/** Sets the source of a script element (a script the channel's settings name); false where the page refuses it. */
export function setScriptSrc(script: HTMLScriptElement, url: string): boolean {
  return assign(script, 'src', url, 'createScriptURL', `the script ${url} is not loaded`);
}

/** The words of an HTML fragment, without parsing it as HTML (so it needs no policy). */
export function textOf(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
      }
      return entities[name.toLowerCase()] ?? all;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
