/**
 * Files sent from disk, through `send` (the file server under Express's `static`): ETag and Last-Modified, 304 for a
 * conditional request that is fresh, byte ranges (206, 416) so a download resumes, HEAD, and streaming with its
 * errors handled. What it does not decide stays the caller's: the type, Cache-Control, CORS and the policy headers,
 * set before the file goes. Rendered pages (HTML with placeholders) are not files: `sendRendered` gives them a
 * content ETag and the same 304.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import send from 'send';

/**
 * The answer when a file is not sent: a range beyond its end (416, with the `Content-Range` send gives), gone since
 * it was found (404), unreadable (500); JSON like every other error.
 */
function failed(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) if (!/^access-control-/.test(name)) res.removeHeader(name);
  const message =
    status === 416
      ? 'The range starts beyond the end of the file.'
      : status === 412
        ? 'The file has changed.'
        : status === 404
          ? 'Not found.'
          : 'The file could not be read.';
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

/**
 * Sends the file at `path` (absolute, already checked to be inside its root) with `headers`. A conditional request
 * for an unchanged file gets 304; a `Range` gets 206 with that part, or 416 beyond the end. An `ETag` in `headers`
 * (a content digest, the same on every machine) is used instead of send's own (size and modification time).
 */
export function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  headers: Record<string, string>,
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  send(req, path, {
    etag: headers.ETag === undefined,
    lastModified: true,
    acceptRanges: true,
    // Ours, in `headers`.
    cacheControl: false,
    // The caller resolved the path: a dot in it (the media cache's folder) is not a hidden file of the site.
    dotfiles: 'allow',
    index: false,
  })
    .on('error', (error: { status?: number; headers?: Record<string, string> }) =>
      error.status === 416 || error.status === 412
        ? failed(res, error.status, error.headers)
        : failed(res, error.status === 404 ? 404 : 500),
    )
    .pipe(res);
}

/** Sends a rendered page: its ETag is its content's digest, and a request that already has this content gets 304. */
export function sendRendered(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  headers: Record<string, string>,
): void {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const all = { ...headers, ETag: etag };
  if (fresh(req.headers, { etag })) {
    res.writeHead(304, all);
    res.end();
    return;
  }
  res.writeHead(200, { ...all, 'Content-Length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
