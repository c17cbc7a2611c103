/**
 * Static files for the demo: the built bundle (dist/), the demo pages (demo/site/) and generated placeholder art.
 * Files go through files.ts (`send`: ETag, Last-Modified, 304, ranges, HEAD); the headers are ours.
 * Kept separate from the API so the "CMS host" listener can reuse the page serving without any of the API.
 */
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, extname, join, resolve, sep } from 'node:path';
import * as z from 'zod/mini';
import { sendFile, sendRendered } from './files.js';

const MIME: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t', // HLS segments, not TypeScript: nothing here serves sources
  '.mp4': 'video/mp4',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** CORS headers for anything another origin may fetch or `import()` (API, keys, settings, bundle chunks). */
export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Accept-Language',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, PATCH, OPTIONS',
  'Access-Control-Max-Age': '600',
};

/**
 * The strict policy demo pages run under, so the bundle is proven to work without inline scripts or styles.
 * `frameable`: true for any page to frame it (the embed layout), a list of origins for those besides its own.
 */
export function contentSecurityPolicy(
  bundleOrigin: string,
  inlineStyles = false,
  frameable: boolean | readonly string[] = false,
): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${bundleOrigin}`,
    // Only for a page that hosts a third party whose templates carry <style> (media-chrome); ours never need it.
    inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    `connect-src 'self' ${bundleOrigin}`,
    `img-src 'self' data: ${bundleOrigin}`,
    // Streams come from the API origin; hls.js plays through MediaSource blob: URLs and gives its subtitle
    // tracks an empty data: source.
    `media-src 'self' ${bundleOrigin} blob: data:`,
    "worker-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Pages on the CMS host show the Stripe double's 3-D Secure challenge (on the bundle origin) in a frame.
    `frame-src 'self' ${bundleOrigin}`,
    // The embed layout (oembed.ts) is for partners' pages to frame; every other page only for its own origin (and
    // the origins it names: the challenge page, for the CMS host's pages).
    frameable === true ? 'frame-ancestors *' : ["frame-ancestors 'self'", ...(frameable || [])].join(' '),
  ].join('; ');
}

export interface StaticOptions {
  /** Origin of the API/bundle server, substituted for %BUNDLE_ORIGIN% in HTML and allowed by the CSP. */
  bundleOrigin: string;
  /** Add CORS headers (bundle files are imported cross-origin by pages on the CMS host). */
  cors?: boolean;
  /** Serve HTML without the Content-Security-Policy (benchmark pages only). */
  noPolicy?: boolean;
  /** Allow inline styles in the page's policy (the media-chrome demo, whose controls carry <style>). */
  inlineStyles?: boolean;
  /**
   * More placeholders of HTML pages and what replaces them (HTML-escaped here, so values may be any text); a
   * function is asked only when a page is served.
   */
  placeholders?: Record<string, string> | (() => Record<string, string>);
  /** Markup added at the end of an HTML page's head (built by the server, its values already escaped). */
  headExtra?: string;
  /** Any origin may frame the page (the embed layout). */
  frameable?: boolean;
  /** The Cache-Control header (default `no-cache`: every use asks whether it changed). */
  cacheControl?: string;
  /**
   * Name a script's source map (`<file>.map` beside it) in a `SourceMap` header: the bundle's files carry no comment
   * naming it (rollup.config.mjs), and developer tools read the header instead.
   */
  sourceMaps?: boolean;
  /**
   * Dev mode: Trusted Types enforced on the page, with this `trusted-types` directive (a host page that enforces
   * them, for the end-to-end tests: `?trusted-types=channel-elements` on a demo page).
   */
  trustedTypes?: string | undefined;
}

/**
 * Maps a URL path to a file strictly inside `root`; undefined for traversal attempts or undecodable paths.
 * Resolving and then checking the prefix catches `..`, encoded `%2e%2e` and absolute-path tricks alike.
 */
export function safeJoin(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const base = resolve(root);
  const full = resolve(base, `.${decoded.startsWith('/') ? '' : '/'}${decoded}`);
  if (full !== base && !full.startsWith(base + sep)) return undefined;
  return full;
}

/**
 * Serves one file from `root` if it exists; answers false (and sends nothing) when it does not, so the caller can
 * try the next root. Directories serve their index.html.
 */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  urlPath: string,
  options: StaticOptions,
): Promise<boolean> {
  let file = safeJoin(root, urlPath);
  if (!file) return false;
  let info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    file = resolve(file, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  if (!info?.isFile()) return false;

  const ext = extname(file).toLowerCase();
  const headers: Record<string, string> = {
    'Content-Type': MIME[ext] ?? 'application/octet-stream',
    'Cache-Control': options.cacheControl ?? 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...(options.cors ? CORS_HEADERS : {}),
  };
  if (options.sourceMaps && ext === '.js' && (await stat(`${file}.map`).catch(() => undefined))?.isFile())
    headers.SourceMap = `${basename(file)}.map`;
  if (ext === '.html') {
    // Pages name the bundle server through a placeholder so the same files work on any port.
    let html = (await readFile(file, 'utf8')).replaceAll('%BUNDLE_ORIGIN%', options.bundleOrigin);
    const placeholders = typeof options.placeholders === 'function' ? options.placeholders() : options.placeholders;
    for (const [placeholder, value] of Object.entries(placeholders ?? {}))
      html = html.replaceAll(placeholder, xml(value));
    if (options.headExtra) html = html.replace('</head>', `  ${options.headExtra}\n</head>`);
    // Benchmark pages run the peers (hls.js, Mux Player) as their authors ship them: no policy for any of them.
    if (!options.noPolicy)
      headers['Content-Security-Policy'] =
        contentSecurityPolicy(options.bundleOrigin, options.inlineStyles, options.frameable) +
        (options.trustedTypes ? `; require-trusted-types-for 'script'; trusted-types ${options.trustedTypes}` : '');
    sendRendered(req, res, Buffer.from(html), headers);
    return true;
  }
  // ETag, Last-Modified, 304, ranges and HEAD (files.ts).
  sendFile(req, res, file, headers);
  return true;
}

/** Escapes text for SVG content. */
function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A stable colour from a string, so each placeholder keeps its look between runs. */
function hue(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/**
 * Placeholder art under /media/: square school logos (`logos/{alias}.svg`) and wide banners (`art/{slug}.svg`).
 * Generated rather than checked in so the fixtures can name any image without binary files in the repository.
 */
export function placeholderSvg(kind: 'logo' | 'art', slug: string, label: string, color?: string): string {
  const fill = color ?? `hsl(${hue(slug)} 55% 38%)`;
  if (kind === 'logo') {
    const initials = label
      .split(/[\s-]+/)
      .filter((w) => /^[A-Za-zÀ-ÿ]/.test(w) && !/^(of|de|du|la|le|the|d'.*)$/i.test(w))
      .map((w) => w[0]!.toUpperCase())
      .join('')
      .slice(0, 3);
    return `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">
<circle cx="100" cy="100" r="96" fill="${xml(fill)}"/><circle cx="100" cy="100" r="84" fill="none" stroke="#fff" stroke-width="4"/>
<text x="100" y="118" font-family="Arial, sans-serif" font-size="56" font-weight="700" fill="#fff" text-anchor="middle">${xml(initials || '?')}</text>
</svg>`;
  }
  const second = `hsl(${(hue(slug) + 40) % 360} 60% 22%)`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="480" viewBox="0 0 1280 480">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${xml(fill)}"/><stop offset="1" stop-color="${second}"/></linearGradient></defs>
<rect width="1280" height="480" fill="url(#g)"/>
<text x="640" y="262" font-family="Arial, sans-serif" font-size="64" font-weight="700" fill="#fff" text-anchor="middle">${xml(label)}</text>
</svg>`;
}

/** Third-party files the benchmark pages load (npm run bench compares the player with these peers). */
export const VENDOR_FILES: Record<string, string> = {
  '/vendor/hls.light.mjs': 'node_modules/hls.js/dist/hls.light.min.mjs',
  '/vendor/mux-player.mjs': 'node_modules/@mux/mux-player/dist/mux-player.mjs',
  // The media element demo (demo/site/media-chrome.html) and its e2e test: a real client of the media API.
  '/vendor/media-chrome.js': 'node_modules/media-chrome/dist/iife/index.js',
};

/** How long a year is, in seconds: how long a file whose name never changes may be kept. */
const YEAR_SECONDS = 31_536_000;
/** How long the loader's "latest" alias may be kept: a new release reaches every page within this. */
export const LOADER_MAX_AGE_SECONDS = 300;

/**
 * The Cache-Control of a bundle file in production, what a CDN in front of the server should keep. Names that never
 * change are kept a year (`immutable`): every chunk, whose name carries its content hash (`chunks/session-3YrwoD6s.js`),
 * the chunks' integrity table (`chunks/integrity-<hash>.js`, named by its content too), and the loader at its release's own URL (`channel-elements@0.1.0.js`). The loader's "latest" alias
 * (`channel-elements.js`), the name pages use for the newest release, is kept 5 minutes; the rest (the npm entry
 * `index.js`, integrity.json, the types) is asked about on every use.
 */
export function bundleCacheControl(path: string): string {
  if (path === '/channel-elements.js') return `public, max-age=${LOADER_MAX_AGE_SECONDS}`;
  if (
    /^\/channel-elements@\d+\.\d+\.\d+(-[\w.]+)?\.js(\.map)?$/.test(path) ||
    // `.json`: the table files of releases before they became modules, which their loaders still name.
    /^\/chunks\/[\w.-]+-[\w-]{8}\.(js(\.map)?|json)$/.test(path)
  ) {
    return `public, max-age=${YEAR_SECONDS}, immutable`;
  }
  return 'no-cache';
}

/** The release a build is (dist/integrity.json): its version, its loader's own file name and `integrity` value. */
export interface BuiltRelease {
  version: string;
  /** `channel-elements@<version>.js` */
  loader: string;
  /** `sha384-…` */
  integrity: string;
}

/** What the server reads of dist/integrity.json (scripts/integrity.mjs writes it). */
const IntegrityFile = z.object({
  version: z.string(),
  loader: z.object({ file: z.string(), integrity: z.string().check(z.regex(/^sha384-[\w+/=]+$/)) }),
});

/** The release built into `distDir`, or undefined before a build (or for a file that does not read as one). */
export function builtRelease(distDir: string): BuiltRelease | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(distDir, 'integrity.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const parsed = IntegrityFile.safeParse(raw);
  if (!parsed.success) return undefined;
  const { version, loader } = parsed.data;
  return { version, loader: loader.file, integrity: loader.integrity };
}
