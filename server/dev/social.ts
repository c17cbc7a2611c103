/**
 * Local stand-ins for the social providers' authorize pages, so the whole social sign-in round trip runs offline:
 *
 *   GET  /__social/{google|facebook}/authorize?client_id&redirect_uri&response_type=code&scope&state&nonce
 *        &code_challenge&code_challenge_method=S256
 *        a small HTML form (no inline script or style: the demo CSP applies) with an email (prefilled
 *        social.fan@example.com), whether the provider has verified it (checked), a first and last name, "Continue"
 *        and "Cancel"
 *   POST /__social/{provider}/authorize   (the form) Continue: 303 to `redirect_uri?code&state`; Cancel: 303 to
 *        `redirect_uri?error=access_denied&state`
 *
 * These pages let anyone sign in as any email address: they exist only in dev mode (exposure.ts), and each page
 * says in a banner that it is a test stand-in. Like a real provider, the page checks the request before anything
 * else: the client_id must be one of a channel's `settings.social.{provider}.client_id`, response_type `code`, and
 * redirect_uri exactly `{site}/auth/login/{provider}/callback` for one of the channel's configured sites (its
 * `site_url`, else this server's public origin; in dev mode also the demo's CMS host), as a real provider matches
 * the redirect URIs registered for its client. Otherwise it shows an error page and redirects nowhere (no open
 * redirect, and no code handed to another host). As with PKCE at a real provider, a code_challenge (S256) is
 * required. Codes are one-time, live 5 minutes, and are bound to their channel, provider, redirect_uri, challenge and
 * nonce; the channel API's `POST v2/auth/social/{provider}` redeems them (accounts/social-sign-in.ts) through the
 * stand-in identity provider (identity/stand-in.ts).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SOCIAL_PROVIDERS, type SocialProvider } from '../../src/api/contract.js';
import { tokenHash } from '../accounts/accounts.js';
import type { ChannelDb } from '../storage/db.js';
import { callbackOf } from '../identity/provider.js';
import { EMAIL_MESSAGE, isEmail } from '../http/handler.js';
import { readBody } from '../http/http.js';
import { html, seeOther as redirect, standInPage } from './stand-in-page.js';

/** How long a code may wait before it is redeemed, in seconds. */
const CODE_TTL = 300;
const NAMES: Record<SocialProvider, string> = { google: 'Google', facebook: 'Facebook' };

export interface SocialContext {
  db: ChannelDb;
  /** UNIX seconds now. */
  now(): number;
  bundleOrigin(): string;
  /** The sites whose callbacks a channel's codes may go back to (origins, or site URLs with a base path). */
  sites(channelId: number): string[];
}

/** The authorize request's parameters. */
interface AuthorizeRequest {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  scope: string;
  state: string;
  nonce: string;
  code_challenge: string;
  code_challenge_method: string;
}

/** Who the form signs in as. */
interface Profile {
  email: string;
  email_verified: boolean;
  first_name: string | null;
  last_name: string | null;
}

const isProvider = (name: string): name is SocialProvider => (SOCIAL_PROVIDERS as readonly string[]).includes(name);

/** Answers a /__social/ request; false when the path is not one of them. */
export async function handleSocial(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: SocialContext,
): Promise<boolean> {
  const m = /^\/__social\/([^/]+)\/authorize\/?$/.exec(url.pathname);
  if (!m) return false;
  const provider = m[1]!;
  if (!isProvider(provider)) {
    page(
      res,
      ctx,
      404,
      'Unknown provider',
      `<p class="stand-in-error" role="alert">There is no stand-in for "${html(provider)}".</p>`,
    );
    return true;
  }
  const body = req.method === 'POST' ? await readBody(req) : {};
  const field = (name: string) => {
    const value = body[name] ?? url.searchParams.get(name);
    return typeof value === 'string' ? value : '';
  };
  const request: AuthorizeRequest = {
    client_id: field('client_id'),
    redirect_uri: field('redirect_uri'),
    response_type: field('response_type'),
    scope: field('scope'),
    state: field('state'),
    nonce: field('nonce'),
    code_challenge: field('code_challenge'),
    code_challenge_method: field('code_challenge_method'),
  };
  const problem = await checkRequest(ctx, provider, request);
  if (typeof problem === 'string') {
    page(
      res,
      ctx,
      400,
      'Sign-in request refused',
      `<p class="stand-in-error" role="alert">${html(problem)}</p><p>Nothing was sent back to the site.</p>`,
    );
    return true;
  }
  if (req.method === 'POST' && field('action') === 'cancel') {
    redirect(res, request.redirect_uri, { error: 'access_denied', state: request.state });
    return true;
  }
  const profile: Profile = {
    email: field('email').trim(),
    email_verified: field('email_verified') === '1',
    first_name: field('first_name').trim() || null,
    last_name: field('last_name').trim() || null,
  };
  if (req.method === 'POST') {
    if (isEmail(profile.email)) {
      const code = await issueCode(ctx.db, problem.channelId, provider, profile, request, ctx.now());
      redirect(res, request.redirect_uri, { code, state: request.state });
      return true;
    }
    form(res, ctx, provider, request, profile, 422, EMAIL_MESSAGE);
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  form(
    res,
    ctx,
    provider,
    request,
    { email: 'social.fan@example.com', email_verified: true, first_name: 'Social', last_name: 'Fan' },
    200,
  );
  return true;
}

/** The reason a request is refused, or the channel whose client it is. */
async function checkRequest(
  ctx: SocialContext,
  provider: SocialProvider,
  request: AuthorizeRequest,
): Promise<string | { channelId: number }> {
  const channelId = request.client_id ? await channelOfClient(ctx.db, provider, request.client_id) : undefined;
  if (channelId === undefined)
    return `The client_id "${request.client_id}" is not a ${NAMES[provider]} client of any channel.`;
  if (request.response_type !== 'code') return 'Only response_type=code is supported.';
  const allowed = ctx.sites(channelId).map((site) => callbackOf(site, provider));
  if (!allowed.includes(request.redirect_uri)) {
    return `The redirect_uri must be exactly one of this client's callbacks: ${allowed.join(', ')}.`;
  }
  if (!request.state) return 'The state parameter is required.';
  if (!request.code_challenge || request.code_challenge_method !== 'S256')
    return 'A PKCE code_challenge with code_challenge_method=S256 is required.';
  return { channelId };
}

/** The channel whose settings name this client id for the provider. */
async function channelOfClient(db: ChannelDb, provider: SocialProvider, clientId: string): Promise<number | undefined> {
  for (const row of await db.all('SELECT channel_id, json FROM settings ORDER BY channel_id')) {
    const settings = JSON.parse(String(row.json)) as {
      social?: Record<string, { client_id?: string } | undefined> | null;
    };
    if (settings.social?.[provider]?.client_id === clientId) return Number(row.channel_id);
  }
  return undefined;
}

/** Stores a new one-time code (only its SHA-256) and answers it. */
async function issueCode(
  db: ChannelDb,
  channelId: number,
  provider: SocialProvider,
  profile: Profile,
  request: AuthorizeRequest,
  now: number,
): Promise<string> {
  const code = randomBytes(24).toString('hex');
  await db.run('DELETE FROM social_codes WHERE expires_at <= ?', [now]);
  await db.run(
    `INSERT INTO social_codes (code_hash, channel_id, provider, email, email_verified, first_name, last_name,
       redirect_uri, code_challenge, nonce, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      tokenHash(code),
      channelId,
      provider,
      profile.email,
      profile.email_verified ? 1 : 0,
      profile.first_name,
      profile.last_name,
      request.redirect_uri,
      request.code_challenge,
      request.nonce,
      now + CODE_TTL,
    ],
  );
  return code;
}

/** The consent form: the request travels in hidden fields and posts back to this same path. */
function form(
  res: ServerResponse,
  ctx: SocialContext,
  provider: SocialProvider,
  request: AuthorizeRequest,
  profile: Profile,
  status: number,
  error?: string,
): void {
  const hidden = Object.entries(request)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${html(value)}">`)
    .join('');
  const input = (name: string, label: string, value: string | null, type = 'text', extra = '') =>
    `<label class="stand-in-field">${label} <input type="${type}" name="${name}" value="${html(value ?? '')}"${extra}></label>`;
  const site = new URL(request.redirect_uri).host;
  page(
    res,
    ctx,
    status,
    `Sign in with ${NAMES[provider]}`,
    `<form method="post" class="stand-in" novalidate>
${hidden}
<p class="stand-in-warning" role="note"><strong>Not ${NAMES[provider]}:</strong> anyone can sign in here as any email address. Never run dev mode where others can reach the server.</p>
<p>This page stands in for ${NAMES[provider]} so the demo runs offline. <strong>${html(site)}</strong> asks to sign you in with this account${request.scope ? ` (scope: ${html(request.scope)})` : ''}.</p>
${error ? `<p class="stand-in-error" role="alert" id="email-error">${html(error)}</p>` : ''}
${input('email', 'Email', profile.email, 'email', ` autocomplete="email" required${error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}`)}
<label class="stand-in-field"><input type="checkbox" name="email_verified" value="1"${profile.email_verified ? ' checked' : ''}> ${NAMES[provider]} has verified this address</label>
${input('first_name', 'First name', profile.first_name, 'text', ' autocomplete="given-name"')}
${input('last_name', 'Last name', profile.last_name, 'text', ' autocomplete="family-name"')}
<p class="stand-in-actions"><button type="submit" name="action" value="continue">Continue</button>
<button type="submit" name="action" value="cancel">Cancel</button></p>
</form>`,
  );
}

function page(res: ServerResponse, ctx: SocialContext, status: number, title: string, content: string): void {
  standInPage(res, ctx.bundleOrigin(), status, title, content);
}
