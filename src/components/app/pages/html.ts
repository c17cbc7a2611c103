/**
 * The one way HTML from the channel API (page paragraphs, FAQ answers) reaches the DOM: sanitized by a private
 * DOMPurify instance, so that the host page's global DOMPurify (its config and hooks) is never touched. Only these
 * pages import it, which keeps DOMPurify in their lazy chunk.
 *
 * What survives: plain HTML text markup (no scripts, event handlers, forms, frames, SVG/MathML, media or styles,
 * since a `<style>` or `style=""` in a shadow root could restyle or cover the whole site). Links and images keep
 * only http(s), mailto and tel URLs and site paths; a link to a site path goes through the site's `href` (its
 * base), an external web link opens in a new tab without access to this page.
 */
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { env } from '../../../lib/env.js';
import { setSanitizedHtml, textOf, trustedTypesPolicy } from '../../../lib/trusted-types.js';

/** What sanitizing needs from the site. */
export interface SanitizeOptions {
  /** The page address of a site path (`site.href`). */
  href(path: string): string;
}

/** URLs a link or image may keep: web, mail and phone addresses, and site paths (`/x`, never `//host`). */
const SAFE_URL = /^(?:(?:https?|mailto|tel):|\/(?!\/))/i;
/** Whitespace and control characters browsers ignore inside a URL (`java\tscript:`). */
const URL_NOISE = /[\p{Cc}\p{Z}]/gu;

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'form',
    'input',
    'button',
    'select',
    'option',
    'textarea',
    'fieldset',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'style',
    'link',
    'meta',
    'base',
    'template',
    'video',
    'audio',
    'source',
    'track',
    'dialog',
  ],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'target', 'ping', 'background', 'poster'],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: SAFE_URL,
  // Ids and names from content could shadow the page's own (DOM clobbering); they get a `user-content-` prefix.
  SANITIZE_NAMED_PROPS: true,
};

let purifier: Purifier | undefined;
/** The `href` of the call in progress: hooks are installed once, and sanitizing is synchronous. */
let currentHref: ((path: string) => string) | undefined;

function instance(): Purifier {
  if (purifier) return purifier;
  const own = DOMPurify(window);
  own.addHook('uponSanitizeAttribute', (_node, data) => {
    // DOMPurify lets `data:` through on img src by default; channel content never needs inline data.
    if (
      (data.attrName === 'src' || data.attrName === 'href') &&
      !SAFE_URL.test(data.attrValue.replace(URL_NOISE, ''))
    ) {
      data.keepAttr = false;
    }
  });
  own.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href === null) return;
    if (href.startsWith('/')) {
      node.setAttribute('href', currentHref ? currentHref(href) : href);
    } else if (/^https?:/i.test(href)) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = own;
  return own;
}

/**
 * The channel's HTML made safe to put into an element with `useSanitizedHtml` (and nothing else). Where the page
 * enforces Trusted Types, DOMPurify parses through our policy (src/lib/trusted-types.ts); should it still fail,
 * the text alone comes back, escaped.
 */
export function sanitizeHtml(html: string, options: SanitizeOptions): string {
  const own = instance();
  currentHref = options.href;
  const policy = trustedTypesPolicy();
  try {
    const clean = own.sanitize(
      html,
      policy ? { ...CONFIG, TRUSTED_TYPES_POLICY: policy as Config['TRUSTED_TYPES_POLICY'] } : CONFIG,
    );
    // A page that enforces Trusted Types and refuses our policy (and DOMPurify's) leaves DOMPurify nothing to
    // parse with: it answers empty. The words then come through as text.
    if (!policy && clean === '' && html.trim() !== '') return escapeText(textOf(html));
    return clean;
  } catch {
    return escapeText(textOf(html));
  } finally {
    currentHref = undefined;
  }
}

/** Text as HTML that shows it as it is. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A ref whose element holds the given sanitized HTML (from `sanitizeHtml`), set through our Trusted Types policy
 * where the page enforces them: React's dangerouslySetInnerHTML would hand the browser a plain string.
 */
export function useSanitizedHtml<E extends Element>(html: string): RefObject<E> {
  const ref = useRef<E>(null);
  useLayoutEffect(() => {
    if (ref.current) setSanitizedHtml(ref.current, html, env().logger);
  }, [html]);
  return ref;
}
