/**
 * HTTP helpers shared by the reference server's modules: JSON answers with CORS headers, body parsing, and the
 * error type every handler throws to answer with a status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS } from './static.js';

/** An error that becomes a JSON answer with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendText(res, status, JSON.stringify(body), headers);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-cache',
    'Content-Length': String(Buffer.byteLength(text)),
    ...CORS_HEADERS,
    ...headers,
  });
  res.end(text);
}

/** The client's address without the IPv4-mapped prefix, so 127.0.0.1 reads the same on dual-stack sockets. */
export function clientIp(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
}

/** Reads and parses a JSON or urlencoded body (1 MB cap); 400 for malformed JSON or a non-object body. */
export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return {};
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1024 * 1024) throw new HttpError(413, 'Request body too large.');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  // Form bodies are accepted too; but a body that starts with '{' is JSON whatever its label (curl -d sends
  // JSON labelled as a form unless told otherwise).
  if (type.includes('application/x-www-form-urlencoded') && !text.trimStart().startsWith('{')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  // Anything else is read as JSON: browsers posting with text/plain (to avoid preflights) still get parsed.
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Malformed JSON body.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
