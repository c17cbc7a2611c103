/**
 * The command line's one way to the operator API (`/operator/v1/…`, docs/operator-api.md): where it is and with
 * which token (`--url`/`--token`, else CHANNEL_OPERATOR_URL/CHANNEL_OPERATOR_TOKEN), and `request`, which every
 * API-backed command goes through. An answer that is not 2xx becomes a CliError naming the problem and, for a 422,
 * each field in trouble (by the command's option when it has one). The token goes in the Authorization header only:
 * never in a URL, an error message or the output.
 */
import { randomUUID } from 'node:crypto';
import { CliError, UsageError } from './output.js';

/** The operator API's base path (server/operator/schemas.ts OPERATOR_API_BASE). */
export const API_BASE = '/operator/v1';

export interface Connection {
  /** The server's operator listener, as `http://host:port` (OPERATOR_PORT). */
  origin: string;
  token: string;
}

/** The connection the options or the environment give, or undefined when neither names a URL. */
export function connectionOf(
  values: { url?: string | undefined; token?: string | undefined },
  env: NodeJS.ProcessEnv,
): Connection | undefined {
  const url = values.url ?? env.CHANNEL_OPERATOR_URL;
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `--url: '${url}' is not a URL (expected the operator listener, such as http://127.0.0.1:8082)`,
    );
  }
  if (!/^https?:$/.test(parsed.protocol)) throw new UsageError(`--url: expected an http or https URL, not ${url}`);
  const token = values.token ?? env.CHANNEL_OPERATOR_TOKEN;
  if (!token)
    throw new UsageError(
      '--token: the operator API needs a token (--token, or better CHANNEL_OPERATOR_TOKEN, which stays out of ' +
        'the shell history); `channel-server operator add` prints one',
    );
  // `http://host:8082/operator/v1/` and `http://host:8082` name the same API.
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/operator\/v1$/, '');
  return { origin: `${parsed.origin}${path}`, token };
}

/** The connection, which this command needs. */
export function needConnection(
  values: { url?: string | undefined; token?: string | undefined },
  env: NodeJS.ProcessEnv,
): Connection {
  const connection = connectionOf(values, env);
  if (!connection)
    throw new UsageError(
      '--url: this command works through the operator API: give --url and --token (or CHANNEL_OPERATOR_URL and ' +
        'CHANNEL_OPERATOR_TOKEN)',
    );
  return connection;
}

/** A 2xx answer: its body's `data` (and `meta` for a list), and its ETag. */
export interface ApiAnswer<T = unknown> {
  status: number;
  data: T;
  meta?: { total: number; offset: number; limit: number } | undefined;
  etag: string | null;
}

export interface RequestOptions {
  body?: unknown;
  /** The record's ETag, sent as If-Match (a change of a record read just before). */
  ifMatch?: string | null;
  /** API field names to the command's options (`starts_at` → `--starts`), for the 422's messages. */
  fields?: Record<string, string>;
}

/**
 * One request to the operator API. POSTs carry a new Idempotency-Key (a create made once even if the request is
 * sent again). Throws CliError for a refusal, an unreachable server or an answer that is not the API's.
 */
export async function request<T = unknown>(
  connection: Connection,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<ApiAnswer<T>> {
  const url = `${connection.origin}${API_BASE}${path}`;
  const headers: Record<string, string> = {
    authorization: `Bearer ${connection.token}`,
    accept: 'application/json',
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method === 'POST') headers['idempotency-key'] = randomUUID();
  if (options.ifMatch) headers['if-match'] = options.ifMatch;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new CliError(
      `cannot reach the operator API at ${connection.origin} (${cause}): is the server running with OPERATOR_PORT?`,
    );
  }
  const text = await res.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object')
    throw new CliError(`${method} ${path}: the answer (${res.status}) is not the operator API's JSON`);
  if (!res.ok) throw refusal(method, path, res.status, body, options.fields ?? {});
  return {
    status: res.status,
    data: body.data as T,
    meta: body.meta as ApiAnswer['meta'],
    etag: res.headers.get('etag'),
  };
}

/** The CliError for a refused request. */
function refusal(
  method: string,
  path: string,
  status: number,
  body: Record<string, unknown>,
  fields: Record<string, string>,
): CliError {
  const message = typeof body.message === 'string' ? body.message : `HTTP ${status}`;
  const lines = [`${method} ${path}: ${message}`];
  if (status === 401) lines[0] += ' (the token is unknown or revoked: `channel-server operator add` makes one)';
  const errors = body.errors && typeof body.errors === 'object' ? (body.errors as Record<string, unknown>) : {};
  for (const [field, problem] of Object.entries(errors)) {
    const root = field.split('.')[0]!;
    const name = fields[field] ?? (fields[root] ? `${fields[root]} (${field})` : field);
    lines.push(`  ${name}: ${Array.isArray(problem) ? problem.join('; ') : String(problem)}`);
  }
  return new CliError(lines.join('\n'), { status, ...body });
}
