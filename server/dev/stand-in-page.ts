/**
 * The HTML pages the reference server renders itself for the services it stands in for (the social providers'
 * authorize pages in social.ts, Stripe's customer portal in stripe.ts): the demo's look, the strict demo CSP (no
 * inline script or style), never cached.
 */
import type { ServerResponse } from 'node:http';
import { contentSecurityPolicy } from '../http/static.js';

/** Escapes text for HTML content and attribute values. */
export function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Sends a stand-in page: `content` is trusted HTML (escape what goes into it with html()); `framedBy`: the origins
 * besides its own whose pages may show it in a frame.
 */
export function standInPage(
  res: ServerResponse,
  bundleOrigin: string,
  status: number,
  title: string,
  content: string,
  framedBy: readonly string[] = [],
): void {
  const body = Buffer.from(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)} (local stand-in)</title>
<link rel="stylesheet" href="/demo.css">
<link rel="stylesheet" href="/dev-pages.css">
</head>
<body>
<header class="site"><h1>${html(title)}</h1><span>local stand-in</span></header>
<main>
<p class="dev-warning" role="note"><strong>Dev mode test stand-in.</strong> The reference server shows this page only when it runs in dev mode (CHANNEL_DEV=1); the real service takes its place in production.</p>
${content}
</main>
</body>
</html>
`);
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(body.length),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': contentSecurityPolicy(bundleOrigin, false, framedBy),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

/** A 303 to `to` with `query` added (after a form post). */
export function seeOther(res: ServerResponse, to: string, query: Record<string, string> = {}): void {
  const url = new URL(to);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  res.writeHead(303, { Location: url.toString(), 'Cache-Control': 'no-store', 'Content-Length': '0' });
  res.end();
}
