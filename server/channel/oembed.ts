/**
 * oEmbed (https://oembed.com) for the channel sites' watch pages, so that a partner who pastes a watch link into a
 * CMS that speaks oEmbed gets the player:
 * - `GET /oembed?url={watch page}&format=json&maxwidth=&maxheight=` answers a `video` with an iframe of the embed
 *   layout (404 for a URL that is not a known site's watch page of a free event, 501 for another format). No
 *   thumbnail: the events' art has no size to give with it, which the spec asks for;
 * - `GET /embed/watch/{id}?channel={key}` is that layout: only `<channel-player embed>`, and the one page any
 *   origin may frame;
 * - watch pages carry the discovery link (`<link rel="alternate" type="application/json+oembed">`), see
 *   `discoveryLink`.
 * The sites are the demo's `<channel-app>` pages (dev mode); their bases and channels are listeners.ts's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChannelDb } from '../storage/db.js';
import { HttpError } from '../http/http.js';

/** The default size of the embedded player (16:9). */
const DEFAULT_WIDTH = 640;
const ASPECT = 9 / 16;

/** A site whose watch pages the provider answers for: its base path and the channel it shows. */
export interface OembedSite {
  base: string;
  channelKey: string;
}

export interface OembedOptions {
  db: ChannelDb;
  /** The origins the sites are served from (the page URLs a consumer may ask about). */
  siteOrigins: readonly string[];
  sites: readonly OembedSite[];
  /** Where the embed layout is served (this server's public origin). */
  embedOrigin: string;
}

/** The event a site URL's watch page shows, if it is one: `{origin}{base}/watch/{id}` (or watch_embed). */
export function watchTarget(
  options: Pick<OembedOptions, 'siteOrigins' | 'sites'>,
  pageUrl: string,
): { channelKey: string; eventId: number } | undefined {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(url.protocol) || !options.siteOrigins.includes(url.origin)) return undefined;
  for (const site of options.sites) {
    const m = new RegExp(`^${site.base}/watch(?:_embed)?/(\\d{1,12})/?$`).exec(url.pathname);
    if (m) return { channelKey: site.channelKey, eventId: Number(m[1]) };
  }
  return undefined;
}

/** The discovery link for a site page's path, when it is a watch page (else ''): markup, every value escaped. */
export function discoveryLink(options: OembedOptions, pageOrigin: string, path: string): string {
  const pageUrl = `${pageOrigin}${path}`;
  if (!watchTarget(options, pageUrl)) return '';
  const href = `${options.embedOrigin}/oembed?${new URLSearchParams({ url: pageUrl, format: 'json' })}`;
  return `<link rel="alternate" type="application/json+oembed" href="${escape(href)}">`;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A size limit of the query (maxwidth, maxheight): a positive integer, else none. */
function limit(value: string | null): number | undefined {
  if (value === null || !/^\d{1,5}$/.test(value)) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

/** The oEmbed answer for `url`, or the HTTP error the spec asks for. */
export async function oembedAnswer(options: OembedOptions, query: URLSearchParams): Promise<Record<string, unknown>> {
  const format = query.get('format') ?? 'json';
  if (format !== 'json') throw new HttpError(501, 'Only format=json is offered.');
  const target = watchTarget(options, query.get('url') ?? '');
  if (!target) throw new HttpError(404, 'Not a watch page of this provider.');
  // Free events only: the embed layout has no checkout or sign-in to answer a paywall's or a sign-in button.
  const row = await options.db.get(
    `SELECT e.name, c.name AS channel FROM events e JOIN channels c ON c.id = e.channel_id
     WHERE e.id = ? AND c.channel_key = ? AND e.type = 'free' AND e.cancelled_at IS NULL`,
    [target.eventId, target.channelKey],
  );
  if (!row) throw new HttpError(404, 'No such event, or not one that plays for everyone.');
  // Within the consumer's limits, however small (the spec: the provider must respect them).
  let width = DEFAULT_WIDTH;
  const maxWidth = limit(query.get('maxwidth'));
  const maxHeight = limit(query.get('maxheight'));
  if (maxWidth !== undefined) width = Math.min(width, maxWidth);
  if (maxHeight !== undefined) width = Math.min(width, Math.floor(maxHeight / ASPECT));
  width = Math.max(width, 1);
  const height = Math.min(Math.round(width * ASPECT), maxHeight ?? Infinity);
  const src = `${options.embedOrigin}/embed/watch/${target.eventId}?${new URLSearchParams({ channel: target.channelKey })}`;
  const title = String(row.name);
  const html =
    `<iframe src="${escape(src)}" width="${width}" height="${height}" title="${escape(title)}" ` +
    `allow="autoplay; fullscreen; picture-in-picture" allowfullscreen style="border:0"></iframe>`;
  return {
    version: '1.0',
    type: 'video',
    title,
    provider_name: String(row.channel),
    provider_url: options.embedOrigin,
    width,
    height,
    html,
  };
}

/** Answers `/oembed` (true), or leaves the request alone (false). */
export async function handleOembed(
  options: OembedOptions,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (url.pathname !== '/oembed') return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'Method not allowed.');
  const body = Buffer.from(JSON.stringify(await oembedAnswer(options, url.searchParams)));
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    // Consumers fetch it from their servers, and some from their pages.
    'Access-Control-Allow-Origin': '*',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/** The embed layout's event and channel, from `/embed/watch/{id}?channel=`, if the path is one. */
export async function embedTarget(
  db: ChannelDb,
  url: URL,
): Promise<{ eventId: string; channelKey: string } | undefined | 'not-found'> {
  const m = /^\/embed\/watch\/(\d{1,12})\/?$/.exec(url.pathname);
  if (!m) return undefined;
  const channelKey = url.searchParams.get('channel') ?? '';
  if (!(await db.get('SELECT 1 FROM channels WHERE channel_key = ?', [channelKey]))) return 'not-found';
  return { eventId: m[1]!, channelKey };
}
