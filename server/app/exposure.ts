/**
 * How the reference server faces the network: its mode, the public origin every emailed link, redirect and media
 * URL is built from, the Host names it answers, and the dev secret that guards the dev and test endpoints.
 *
 * - `production` (the default) serves the channel API, the keys and settings files, signed media, the analytics
 *   collector, the built bundle and the site's account routes. Nothing else answers.
 * - `dev` (CHANNEL_DEV=1; `npm start` sets it) adds the demo: its pages, the "CMS host" listener, the outbox, the
 *   social sign-in stand-ins, the Stripe test double, the tag-manager stand-in and the `/__dev/` endpoints that
 *   tests drive. `/__dev/` answers only requests that carry this start's secret in the `X-Channel-Dev-Secret`
 *   header (a custom header: a page on another origin cannot send it without a CORS preflight, and these paths
 *   answer none), and never sends CORS headers.
 *
 * The Host header is never trusted for anything but routing: a request whose Host is not one of the server's own
 * names is refused with 400 before it reaches any handler.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** `production`: the channel's server as it ships; `dev`: with the demo and the test stand-ins (see above). */
export type ServerMode = 'production' | 'dev';

/** Whether an interface name or address is this machine's loopback. */
export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The request header that carries the dev secret. */
export const DEV_SECRET_HEADER = 'x-channel-dev-secret';

/** A new random dev secret (per start). */
export const newDevSecret = (): string => randomBytes(24).toString('hex');

/** Whether a request carries the dev secret (constant-time). */
export function hasDevSecret(req: IncomingMessage, secret: string | undefined): boolean {
  const given = req.headers[DEV_SECRET_HEADER];
  if (!secret || typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The origin of a configured public URL (`PUBLIC_URL`): http(s), no credentials, path, query or fragment kept. */
export function publicOriginOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL, got '${value}'`);
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) {
    throw new Error(`PUBLIC_URL must be an http(s) URL without credentials, got '${value}'`);
  }
  return url.origin;
}

/**
 * The Host values a listener on `port` answers: the loopback names, the interface it listens on (unless it is a
 * wildcard), the public origin's host, and any extra names (`ALLOWED_HOSTS`). Lower case, with the port.
 */
export function allowedHostsFor(
  port: number,
  listenHost: string,
  publicOrigin: string | undefined,
  extra: readonly string[] = [],
): Set<string> {
  const hosts = new Set([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
  if (listenHost && listenHost !== '0.0.0.0' && listenHost !== '::') {
    hosts.add(
      `${listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost}:${port}`.toLowerCase(),
    );
  }
  if (publicOrigin) {
    const url = new URL(publicOrigin);
    hosts.add(url.host.toLowerCase());
    // URL drops a default port; a client may still send it.
    if (!url.port) hosts.add(`${url.hostname}:${url.protocol === 'https:' ? 443 : 80}`.toLowerCase());
  }
  for (const name of extra) if (name.trim()) hosts.add(name.trim().toLowerCase());
  return hosts;
}

/** Whether a request's Host header names this listener. */
export function hostAllowed(req: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const host = req.headers.host;
  return typeof host === 'string' && allowed.has(host.toLowerCase());
}

/** Origins scripts named in settings may come from (`gtag_url`), besides any the operator adds (`SCRIPT_ORIGINS`). */
export const DEFAULT_SCRIPT_ORIGINS = ['https://www.googletagmanager.com'] as const;
