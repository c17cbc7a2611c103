/**
 * What every API handler module shares: the parsed request as handlers see it, what they answer, and small helpers
 * for validation (422 answers in Laravel's `{ message, errors: { field: [text] } }` form) and pagination.
 * routes.ts routes requests over one map of handlers, to which each API module (channel-api.ts, catalog-api.ts,
 * auth.ts, account-data.ts, favourites.ts, payments.ts) adds its own.
 */
import type { IncomingMessage } from 'node:http';
import { EMAIL_PATTERN, type EndpointName, type StoredSettings } from '../../src/api/contract.js';
import type { Access } from '../accounts/accounts.js';
import type { Row, SqlValue } from '../storage/db.js';
import type { Clock, EventView, MediaUrl } from '../catalog/events.js';
import { HttpError, INVALID, tooLargeRefused } from './http.js';

/** The parsed request as the API handlers see it. */
export interface ApiRequest {
  req: IncomingMessage;
  method: string;
  url: URL;
  query: URLSearchParams;
  body: Record<string, unknown>;
  params: Record<string, string>;
  channelId: number;
  channelKey: string;
  /** The api key the call carried (keyed calls only). */
  apiKey: string | undefined;
  ip: string;
  /** This server's public origin (PUBLIC_URL, else its listening origin), for absolute media URLs and emailed links. */
  origin: string;
  media: MediaUrl;
  clock: Clock;
  /** The channel's settings as `GET /settings` answers them for this request. */
  settings(): StoredSettings;
  /** The caller's rights, from the bearer token (computed on first use). */
  access(): Promise<Access>;
  /** The signed-in user, or a 401. */
  user(): Promise<Row>;
  /** How this caller sees events now. */
  view(): Promise<EventView>;
}

/** What a handler answers: a body to serialise, or `{ status, body }`, or `{ raw }` JSON (text or bytes) built elsewhere. */
export type HandlerResult = { status?: number; body: unknown } | { raw: string | Buffer } | Record<string, unknown>;
/** A handler answers once what it wrote is committed. */
export type Handler = (r: ApiRequest) => Promise<HandlerResult>;
/** Handlers for some of the contract's endpoints. */
export type Handlers<K extends EndpointName> = Record<K, Handler>;

/** A route the server answers that the contract does not list (e.g. the TV side of device linking). */
export interface ServerOnlyRoute {
  name: string;
  method: string;
  path: string;
  keyless: boolean;
  handler: Handler;
}

/** Laravel's top-level message for a 422 with field errors (http.ts). */
export { INVALID };

/** A standard email shape, and the API's message for a bad one. */
export const EMAIL_MESSAGE = 'A valid email address is required';
export const isEmail = (value: string) => EMAIL_PATTERN.test(value);

/** Collects field errors and throws them as one 422. */
export class Checks {
  readonly errors: Record<string, string[]> = {};

  constructor(private readonly body: Record<string, unknown>) {}

  fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  has(field: string): boolean {
    return field in this.errors;
  }

  /** A required, non-blank text field (trimmed); undefined after recording 'The {field} field is required.' */
  text(field: string): string | undefined {
    const value = this.body[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number') return String(value);
    this.fail(field, `The ${field.replace(/_/g, ' ')} field is required.`);
    return undefined;
  }

  /** A required email address. */
  email(field = 'email'): string | undefined {
    const value = this.text(field);
    if (value !== undefined && !isEmail(value)) {
      this.fail(field, EMAIL_MESSAGE);
      return undefined;
    }
    return value;
  }

  /** A required secret (a password is never trimmed). */
  secret(field: string): string | undefined {
    const value = this.body[field];
    if (typeof value === 'string' && value !== '') return value;
    this.fail(field, `The ${field.replace(/_/g, ' ')} field is required.`);
    return undefined;
  }

  /** A new password with its confirmation (with the API's validation messages). */
  newPassword(): string | undefined {
    const password = this.secret('password');
    if (password === undefined) return undefined;
    if (password.length < 8) this.fail('password', 'The password is too short');
    if (this.body.password_confirmation !== password) {
      this.fail('password_confirmation', 'The password and password confirmation do not match');
    }
    return this.has('password') || this.has('password_confirmation') ? undefined : password;
  }

  /** Throws the collected errors, if any. */
  done(message = INVALID): void {
    if (Object.keys(this.errors).length > 0) throw new HttpError(422, message, this.errors);
  }
}

/** A 422 whose message is also the one field error (the client shows the field's text under the field). */
export function refuse(field: string, message: string): HttpError {
  return new HttpError(422, message, { [field]: [message] });
}

/** A checkbox-like value: true, 1, '1', 'true', 'on' or 'yes'. */
export function truthy(value: unknown): boolean {
  return (
    value === true ||
    value === 1 ||
    (typeof value === 'string' && ['1', 'true', 'on', 'yes'].includes(value.toLowerCase()))
  );
}

/** `limit`/`offset` of the paginated lists. */
export function pageOf(query: URLSearchParams): { limit: number; offset: number } {
  const errors: Record<string, string[]> = {};
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= min && n <= max)) errors[name] = [`The ${name} must be an integer between ${min} and ${max}.`];
    return n;
  };
  const page = { limit: read('limit', 20, 1, 5000), offset: read('offset', 0, 0, Number.MAX_SAFE_INTEGER) };
  if (Object.keys(errors).length) throw new HttpError(422, INVALID, errors);
  return page;
}

/**
 * The window of a paginated list of `total` rows: `limit`/`offset` (20 from 0 by default), or everything with
 * `no_limit=1`. `sqlLimit` is what SQL's LIMIT takes (null for no limit).
 */
export function listWindow(
  query: URLSearchParams,
  total: number,
): { meta: { total: number; limit: number; offset: number }; sqlLimit: number | null } {
  const all = query.get('no_limit') === '1' || query.get('no_limit') === 'true';
  const page = all ? { limit: total, offset: 0 } : pageOf(query);
  return { meta: { total, ...page }, sqlLimit: all ? null : page.limit };
}

/**
 * Query names whose digits are an id: `id` and `*_id`, and the events filters that take an id or an alias
 * (`category`, `team`, `group`, `school`, `location`).
 */
const ID_QUERY_NAMES = /^(?:id|\w+_id|category|team|group|school|location)$/;

/**
 * Refuses (422) an id in the path (`{id}`) or the query that is all digits but beyond the safe integers: it can
 * name no row, and the database would refuse it as out of range. Other texts of digits (a coupon code) are left be.
 */
export function refuseUnsafeIds(params: Record<string, string>, query: URLSearchParams): void {
  const unsafe = (value: string) => /^\d+$/.test(value.trim()) && !Number.isSafeInteger(Number(value));
  if (params.id !== undefined && unsafe(params.id)) throw tooLargeRefused('id');
  for (const [name, value] of query) if (ID_QUERY_NAMES.test(name) && unsafe(value)) throw tooLargeRefused(name);
}

/** A positive integer id from a path parameter or body value, else undefined. */
export function idOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export const textOrNull = (v: SqlValue | undefined): string | null =>
  v === null || v === undefined ? null : String(v);
export const numberOrNull = (v: SqlValue | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);
