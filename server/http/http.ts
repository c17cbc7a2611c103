/**
 * HTTP helpers shared by the reference server's modules: JSON answers with CORS headers, body parsing, and the
 * error type every handler throws to answer with a status.
 *
 * Values no field may hold are refused here with a 422 naming the field: a NUL character anywhere in the path, the
 * query or a body, for every request (PostgreSQL's text cannot store one, and no name, email or code has one), and
 * for the API (routes.ts) a whole number in a body beyond Number.MAX_SAFE_INTEGER (JSON has lost its last digits).
 * The analytics collectors check their numbers' ranges themselves, with their own messages.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { idOfAnswer, REQUEST_ID_HEADER } from '../observability/request-log.js';
import { CORS_HEADERS } from './static.js';

/** Laravel's top-level message for a 422 with field errors. */
export const INVALID = 'The given data was invalid.';

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

/** What a request's numbers may go up to: beyond it, JavaScript (and so JSON.parse) rounds whole numbers. */
const LARGEST = Number.MAX_SAFE_INTEGER;

/** The 422 of a field holding a NUL character. */
export function nulRefused(field: string): HttpError {
  const message = `The ${field.replace(/_/g, ' ')} may not contain a NUL character.`;
  return new HttpError(422, message, { [field]: [message] });
}

/** The 422 of a field holding a whole number (an id) beyond the safe integers. */
export function tooLargeRefused(field: string): HttpError {
  const message = `The ${field.replace(/_/g, ' ')} is too large: ids and whole numbers go up to ${LARGEST}.`;
  return new HttpError(422, message, { [field]: [message] });
}

/** The name a field is reported by: printable, and never the NUL that made it fail. */
const fieldName = (name: string) => name.replace(/\p{Cc}/gu, '?').slice(0, 100) || 'field';

/** Refuses a request path or query holding a NUL character (422); see the file comment. */
export function refuseNulInTarget(url: URL): void {
  if (/%00/i.test(url.pathname)) throw nulRefused('path');
  for (const [name, value] of url.searchParams)
    if (name.includes('\u0000') || value.includes('\u0000')) throw nulRefused(fieldName(name));
}

/**
 * Refuses a parsed body holding a NUL character in any text or name, and with `numbers` a whole number beyond the
 * safe integers, at any depth (422 naming the field, `values.name` for a nested one). Walked without recursion: a
 * body nested thousands deep costs a loop, not the stack.
 */
export function refuseUnsafeValues(body: unknown, numbers: boolean): void {
  const stack: Array<{ value: unknown; path: string }> = [{ value: body, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    const field = path || 'body';
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw nulRefused(field);
    } else if (typeof value === 'number') {
      if (numbers && Number.isInteger(value) && Math.abs(value) > LARGEST) throw tooLargeRefused(field);
    } else if (value !== null && typeof value === 'object') {
      for (const [name, inner] of Object.entries(value)) {
        const next = path ? `${path}.${fieldName(name)}` : fieldName(name);
        if (name.includes('\u0000')) throw nulRefused(next);
        stack.push({ value: inner, path: next });
      }
    }
  }
}

/**
 * What the server's log says of an unexpected error: its code (a database error's SQLSTATE, a system error's) and
 * message, and where in the code it was thrown. Never the rest of the object: a database driver keeps the
 * statement's bound values (emails, password hashes) and the failing row there.
 */
export function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return typeof error === 'string' ? error : 'a value that is not an Error was thrown';
  const code = (error as { code?: unknown }).code;
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8);
  return [`${typeof code === 'string' ? `${code} ` : ''}${error.name}: ${error.message}`, ...frames].join('\n');
}

/** Throws a 429 with Retry-After when a limiter says to wait `seconds`; returns when it says 0 (go on). */
export function tooMany(seconds: number): void {
  if (seconds > 0) throw new HttpError(429, 'Too Many Attempts.', undefined, { 'Retry-After': String(seconds) });
}

/** How an answer is sent: `cors: false` for what no other origin may read (the dev endpoints). */
export interface SendOptions {
  cors?: boolean;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  options: SendOptions = {},
): void {
  sendText(res, status, JSON.stringify(body), headers, options);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string | Buffer,
  headers: Record<string, string> = {},
  options: SendOptions = {},
): void {
  const head: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-cache',
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Content-Type-Options': 'nosniff',
    ...(options.cors === false ? {} : CORS_HEADERS),
    ...headers,
  };
  // The request's id among them, not set apart (request-log.ts: a header set apart makes every header slower).
  const id = idOfAnswer(res);
  if (id !== '') head[REQUEST_ID_HEADER] = id;
  res.writeHead(status, head);
  res.end(text);
}

/** The request's URL (only its path and query are read), or a 400 for a target no URL parser accepts. */
export function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', 'http://localhost');
  } catch {
    throw new HttpError(400, 'Malformed request target.');
  }
}

/** decodeURIComponent, or a 400 for a malformed `%` escape (instead of a URIError and a 500). */
export function decodePathPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(400, 'Malformed URL: a percent escape is invalid.');
  }
}

/**
 * The client's address without the IPv4-mapped prefix, so 127.0.0.1 reads the same on dual-stack sockets. Behind
 * `trustProxy` proxies of the operator's own (TRUST_PROXY), the address the outermost of them saw: each proxy
 * appends the address it received from to X-Forwarded-For, so it is the `trustProxy`-th entry from the right.
 * Anything a client wrote further left is never read.
 */
export function clientIp(req: IncomingMessage, trustProxy = 0): string {
  const socket = (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
  if (trustProxy <= 0) return socket;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const seen = hops[Math.max(0, hops.length - trustProxy)]?.replace(/^::ffff:/, '');
  return seen && isIP(seen) ? seen : socket;
}

/**
 * The key limits and stream URLs count a client by: its IPv4 address, or its IPv6 /64 (one household or phone,
 * whose address rotates within that prefix).
 */
export function addressKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const groups = [...head.split(':').filter(Boolean), ...Array<string>(8).fill('0')].slice(0, 8);
  if (tail) {
    const end = tail.split(':');
    groups.splice(8 - end.length, end.length, ...end);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The largest request body any route reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and parses a JSON or urlencoded body (1 MB cap unless `maxBytes` says less); 400 for malformed JSON or a
 * non-object body, 413 past the cap, 422 for a NUL character in it (refuseUnsafeValues).
 */
export async function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return {};
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) throw new HttpError(413, 'Request body too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new HttpError(413, 'Request body too large.');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  // Form bodies are accepted too; but a body that starts with '{' is JSON whatever its label (curl -d sends
  // JSON labelled as a form unless told otherwise).
  if (type.includes('application/x-www-form-urlencoded') && !text.trimStart().startsWith('{')) {
    const form = Object.fromEntries(new URLSearchParams(text));
    refuseUnsafeValues(form, false);
    return form;
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
  refuseUnsafeValues(parsed, false);
  return parsed as Record<string, unknown>;
}
