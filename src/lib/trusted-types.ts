/**
 * Trusted Types. A host page may enforce them (`Content-Security-Policy: require-trusted-types-for 'script'`):
 * then the DOM refuses plain strings where HTML, script text or a script URL goes. Our one policy,
 * `channel-elements`, passes on what we produced ourselves: HTML that DOMPurify has just sanitized (and the input
 * DOMPurify parses inertly to do so), the JSON-LD we serialize, and the script URLs of the channel's own settings.
 * A page that enforces Trusted Types lists it: `trusted-types channel-elements` (plus `'allow-duplicates'` when the
 * bundle can be on a page twice, script tag and npm: each copy makes its own). The policy stays inside this module,
 * so the page's own scripts cannot use it to pass strings of theirs. Without it, HTML content shows as plain text, JSON-LD and
 * injected scripts are left out, and the console says why once (through the logger each setter is given: env.ts
 * imports this module, so it cannot import env); the elements themselves work.
 */

/** Where a refusal is said: the environment's logger (`env().logger`). */
export type RefusalLogger = Pick<Console, 'warn'>;

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

/**
 * What each pass lets through. The policy object never leaves this module, so only our own code can call it: the
 * HTML it passes is DOMPurify's input (parsed inertly) or output; script text must be JSON; a script URL must be
 * http(s) (the channel's tag manager), never `javascript:`, `data:` or `blob:`.
 */
const RULES = {
  createHTML: (input: string) => input,
  createScript: (input: string) => {
    JSON.parse(input); // throws for anything but JSON: the only script text we write is JSON-LD
    return input;
  },
  createScriptURL: (input: string) => {
    if (!/^https?:$/.test(new URL(input, globalThis.location?.href).protocol))
      throw new TypeError(`channel-elements: not a script URL: ${input}`);
    return input;
  },
};

/** Our policy once made (null: no Trusted Types in this browser, or the page does not allow the policy). */
let made: Policy | null | undefined;
let warned = false;

/** Our policy; null where the browser has no Trusted Types or the page does not allow the policy. */
export function trustedTypesPolicy(): Policy | null {
  if (made !== undefined) return made;
  try {
    made =
      (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes?.createPolicy(TRUSTED_TYPES_POLICY, RULES) ??
      null;
  } catch {
    made = null; // the page's trusted-types directive does not list it (or lists it once and it is taken)
  }
  return made;
}

/** Says once that the page refused something of ours for want of the policy. */
function refused(what: string, logger: RefusalLogger): void {
  if (warned) return;
  warned = true;
  logger.warn(
    `channel-elements: this page enforces Trusted Types without allowing the policy "${TRUSTED_TYPES_POLICY}", so ${what}. Add ${TRUSTED_TYPES_POLICY} to the page's trusted-types directive.`,
  );
}

/**
 * Assigns a string to a sink the page may guard with Trusted Types, through our policy when there is one; false
 * (and the console told once) where the page refuses it.
 */
function assign(
  target: object,
  sink: string,
  value: string,
  wrap: keyof Policy,
  refusal: string,
  logger: RefusalLogger,
): boolean {
  const policy = trustedTypesPolicy();
  try {
    (target as Record<string, unknown>)[sink] = policy ? policy[wrap](value) : value;
    return true;
  } catch {
    refused(refusal, logger);
    return false;
  }
}

/**
 * Puts sanitized HTML into an element (never the API's raw HTML: sanitize first). Where the page refuses it, the
 * element gets the text alone; answers whether the HTML went in.
 */
export function setSanitizedHtml(element: Element, html: string, logger: RefusalLogger): boolean {
  if (assign(element, 'innerHTML', html, 'createHTML', 'channel content shows as plain text', logger)) return true;
  element.textContent = textOf(html);
  return false;
}

/** Sets the text of a script element (JSON-LD we built); false where the page refuses it. */
export function setScriptText(script: HTMLScriptElement, text: string, logger: RefusalLogger): boolean {
  return assign(script, 'text', text, 'createScript', 'the schedule publishes no structured data', logger);
}

/** Sets the source of a script element (a script the channel's settings name); false where the page refuses it. */
export function setScriptSrc(script: HTMLScriptElement, url: string, logger: RefusalLogger): boolean {
  return assign(script, 'src', url, 'createScriptURL', `the script ${url} is not loaded`, logger);
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
