/**
 * The error taxonomy of the API layer. The UI switches on `kind`; users see translated text, developers get
 * the English `message`.
 */

/** What went wrong, in the few kinds the UI distinguishes. */
export type ApiErrorKind = 'network' | 'timeout' | 'http' | 'invalid-response' | 'no-api-key' | 'config';

/** Base class of every error the API layer throws (cancellation excepted: that passes through untouched). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status = 0,
    readonly url = '',
  ) {
    super(message);
  }
}

/** The request never got an answer (offline, DNS, CORS, connection reset). */
export class NetworkError extends ApiError {
  override name = 'NetworkError';
  constructor(url: string, cause?: unknown) {
    super('network', `Network request failed: ${url}`, 0, url);
    this.cause = cause;
  }
}

/** No answer within the request timeout (30 s). */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
  constructor(url: string, ms: number) {
    super('timeout', `No answer within ${ms / 1000} s: ${url}`, 0, url);
  }
}

/** A non-2xx answer; `body` is the parsed error body when there was one. */
export class HttpError extends ApiError {
  override name = 'HttpError';
  constructor(
    status: number,
    message: string,
    url: string,
    readonly errors: Record<string, string[] | string> = {},
  ) {
    super('http', message, status, url);
  }
}

/** A 2xx answer whose body does not match the contract; `issues` says where. */
export class InvalidResponseError extends ApiError {
  override name = 'InvalidResponseError';
  constructor(
    url: string,
    readonly issues: string,
  ) {
    super('invalid-response', `The API answered ${url} with data this client does not understand: ${issues}`, 200, url);
  }
}

/** NO_API_KEY: no api key could be had for a keyed call. */
export class NoApiKeyError extends ApiError {
  override name = 'NoApiKeyError';
  readonly code = 'NO_API_KEY';
  constructor(reason: string) {
    super('no-api-key', `NO_API_KEY: ${reason}`);
  }
}

/** The embedding is misconfigured (missing data-channel-key, unknown channel). */
export class ConfigError extends ApiError {
  override name = 'ConfigError';
  constructor(message: string) {
    super('config', message);
  }
}

/**
 * The server's 403 text for a signed-in call made before a temporary password was replaced ('Choose a new
 * password first: you signed in with a temporary password.'); the UI shows its own translation instead.
 */
export const TEMPORARY_PASSWORD_LOCK = /choose a new password first/i;

/** True for a cancelled request (an AbortError from the caller's signal), which callers ignore. */
export function isCancel(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ERR_CANCELED')
  );
}
