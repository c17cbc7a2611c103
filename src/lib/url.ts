/** URL helpers. */

/**
 * A URL an `<img>`, a media source or a link may use: http(s), or a path of this site or server (never `//host`, no
 * spaces). Script and data URLs, and anything else the channel's API may send, give undefined.
 */
export function safeUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  return /^https?:\/\/\S+$/i.test(url) || /^\/(?!\/)\S*$/.test(url) ? url : undefined;
}

/**
 * Fills a link template such as `/watch/{id}` with URI-encoded values. A template whose result is not an
 * http(s) or relative URL (for example `javascript:`) gives undefined, so a hostile attribute cannot make a link run code.
 */
export function fillTemplate(
  template: string,
  values: Record<string, string | number>,
  base: string,
): string | undefined {
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    name in values ? encodeURIComponent(String(values[name])) : '',
  );
  try {
    const url = new URL(filled, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return filled;
  } catch {
    return undefined;
  }
}

/** Removes secrets (api keys, tokens) from a URL before it goes into a log, an event or analytics. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const name of [...u.searchParams.keys()]) {
      if (SECRET_NAMES.test(name)) u.searchParams.set(name, 'REDACTED');
    }
    return u.toString();
  } catch {
    return url.replace(/([?&](?:api_key|token|access_token|password)=)[^&#]*/gi, '$1REDACTED');
  }
}

/**
 * A path segment that looks like a credential rather than a name: 24 or more URL-safe characters (base64url,
 * dots, percent escapes) with both letters and digits, such as a signed-URL token `{expiry}.{viewer}.{hmac}`.
 */
const CREDENTIAL_SEGMENT = /^(?=.*[A-Za-z])(?=.*\d)[\w.~%+=-]{24,}$/;

/**
 * A media URL as third-party analytics may see it: without its query and hash (where CDNs put signatures:
 * `token`, `Signature`, `Policy`, `Key-Pair-Id`, `exp`...), without user info, and with every path segment that
 * looks like a credential replaced by `-`. `blob:` and `data:` URLs (MSE) keep only their scheme.
 */
export function redactMediaUrl(url: string): string {
  const local = /^(blob|data):/i.exec(url);
  if (local) return `${local[1]!.toLowerCase()}:`;
  const bare = url.replace(/[?#].*$/s, '');
  const [, authority = '', path = ''] = /^((?:[a-z][a-z\d+.-]*:)?\/\/[^/]*)?(.*)$/is.exec(bare) ?? [];
  const host = authority.replace(/^([^/]*\/\/)[^@]*@/, '$1');
  return (
    host +
    path
      .split('/')
      .map((segment) => (CREDENTIAL_SEGMENT.test(segment) ? '-' : segment))
      .join('/')
  );
}

/** Field names whose values never leave the client in logs or events. */
export const SECRET_NAMES =
  /^(api_key|token|access_token|refresh_token|password|password_confirmation|current_password|code|card|cvc|signature|uuid)$/i;

/** Copies a request payload with secret fields replaced. */
export function redactData(data: unknown): unknown {
  if (!data || typeof data !== 'object') return data;
  if (Array.isArray(data)) return data.map(redactData);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[k] = SECRET_NAMES.test(k) ? 'REDACTED' : redactData(v);
  return out;
}

/**
 * A path as analytics report it: a shared clip's link is what opens the clip, so its uuid stays out
 * (`/share/{id}/{uuid}` is reported as `/share/{id}`).
 */
export function reportedPath(path: string): string {
  return path.replace(/(\/share\/[^/?#]+)\/[^/?#]+/, '$1');
}

/** Query names the API request tracker leaves out of a URL besides the secrets: keys and personal data. */
const UNTRACKED_NAMES = /^(channel_key|email|expires|state|redirect_uri)$/i;

/**
 * An API URL as the request tracker reports it: without keys, tokens, one-time values or personal data (those query
 * parameters are left out, not masked), without its hash, and with path segments that look like credentials
 * replaced by `-`.
 */
export function trackedUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const name of [...u.searchParams.keys()]) {
      if (SECRET_NAMES.test(name) || UNTRACKED_NAMES.test(name)) u.searchParams.delete(name);
    }
    u.hash = '';
    u.username = '';
    u.password = '';
    u.pathname = u.pathname
      .split('/')
      .map((segment) => (CREDENTIAL_SEGMENT.test(segment) || segment.includes('%40') ? '-' : segment))
      .join('/');
    return u.toString();
  } catch {
    return redactMediaUrl(url);
  }
}
