/**
 * Images uploaded through the operator API (a participant's logo), kept in the database (migration
 * OPERATOR_UPLOADS) so every process serves them, at `/media/uploads/{sha256}.{ext}`: immutable, the name being the
 * content's hash. Only raster images whose first bytes say what their Content-Type says (no SVG: it can hold script).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS } from '../http/static.js';
import type { ChannelDb } from '../storage/db.js';
import { invalid, OperatorError } from './engine.js';

/** The largest image accepted. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

const TYPES: Record<string, { ext: string; magic: (b: Buffer) => boolean }> = {
  'image/png': { ext: 'png', magic: (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])) },
  'image/jpeg': { ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  'image/webp': {
    ext: 'webp',
    magic: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  'image/gif': { ext: 'gif', magic: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
};

/** The request's body as bytes (up to MAX_UPLOAD_BYTES: 413 beyond). */
export async function readImage(req: IncomingMessage): Promise<{ type: string; bytes: Buffer }> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (!TYPES[type])
    throw new OperatorError(415, 'bad_request', `An image is ${Object.keys(TYPES).join(', ')} (Content-Type).`);
  if (Number(req.headers['content-length']) > MAX_UPLOAD_BYTES)
    throw new OperatorError(413, 'too_large', `An image is at most ${MAX_UPLOAD_BYTES} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_UPLOAD_BYTES)
      throw new OperatorError(413, 'too_large', `An image is at most ${MAX_UPLOAD_BYTES} bytes.`);
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  if (!TYPES[type].magic(bytes)) throw invalid({ body: `is not a ${type} image` });
  return { type, bytes };
}

/** Stores an image (once per content) and answers its path on this server. */
export async function storeImage(
  db: ChannelDb,
  channelId: number,
  image: { type: string; bytes: Buffer },
  nowMs: number,
): Promise<string> {
  const name = `${createHash('sha256').update(image.bytes).digest('hex').slice(0, 32)}.${TYPES[image.type]!.ext}`;
  await db.run(
    `INSERT INTO uploads (name, channel_id, content_type, data, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (name) DO NOTHING`,
    [name, channelId, image.type, image.bytes.toString('base64'), nowMs],
  );
  return `/media/uploads/${name}`;
}

/** Serves `/media/uploads/{name}` (false for other paths). */
export function uploadsHandler(db: ChannelDb) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const m = /^\/media\/uploads\/([0-9a-f]{32}\.[a-z]{3,4})$/.exec(path);
    if (!m) return false;
    const row =
      req.method === 'GET' || req.method === 'HEAD'
        ? await db.get('SELECT content_type, data FROM uploads WHERE name = ?', [m[1]!])
        : undefined;
    if (!row) {
      res.writeHead(404, { 'Content-Type': 'application/json', ...CORS_HEADERS });
      res.end(JSON.stringify({ message: 'Not found.' }));
      return true;
    }
    const bytes = Buffer.from(String(row.data), 'base64');
    res.writeHead(200, {
      'Content-Type': String(row.content_type),
      'Content-Length': String(bytes.length),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
      ...CORS_HEADERS,
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
    return true;
  };
}
