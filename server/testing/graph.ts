/**
 * A stand-in of Facebook's login dialog and Graph API inside the test process, as Facebook documents them:
 *
 *   GET  /v21.0/dialog/oauth?client_id&redirect_uri&state&response_type=code&scope&code_challenge
 *        &code_challenge_method=S256     a page: the test's people as buttons, and Cancel (posts back)
 *   POST /v21.0/dialog/oauth             303 to `redirect_uri?code&state`, or on Cancel to
 *        `redirect_uri?error=access_denied&error_reason=user_denied&error_description=Permissions+error&state`
 *   POST /v21.0/oauth/access_token       client_id, client_secret, redirect_uri, code, code_verifier (form) →
 *        { access_token, token_type: 'bearer', expires_in }; a code is one-time and bound to its app, redirect
 *        URI and PKCE challenge; otherwise 400 { error: { message, type: 'OAuthException', code: 100 } }
 *   GET  /v21.0/me?fields=id,email,first_name,last_name&appsecret_proof   the person, with the access token as a
 *        bearer token (or `access_token`), and only with the token's right proof (HMAC-SHA256 under the app secret)
 *
 * It records what was asked of it (`calls`), so a test can see the proof went with every Graph call. Not a test
 * file itself.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Facebook user: no email for one who signed up with a phone number. */
export interface FacebookPerson {
  email: string | null;
  first_name: string;
  last_name: string;
}

const VERSION = 'v21.0';

export class TestGraphApi {
  /** The people, by their Facebook id. */
  readonly people = new Map<string, FacebookPerson>();
  /** Every request: method, path and query (tokens included: this is the test's side). */
  readonly calls: Array<{ method: string; path: string; query: URLSearchParams; authorization: string }> = [];
  private readonly apps = new Map<string, { secret: string; redirects: string[] }>();
  private readonly codes = new Map<string, { app: string; person: string; redirect: string; challenge: string }>();
  private readonly tokens = new Map<string, { app: string; person: string }>();

  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {}

  static async start(): Promise<TestGraphApi> {
    const made: { graph?: TestGraphApi } = {};
    const server = createServer((req, res) => {
      made.graph!.handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const graph = new TestGraphApi(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    made.graph = graph;
    return graph;
  }

  /** FACEBOOK_AUTHORIZE_URL and FACEBOOK_GRAPH_URL for it. */
  get authorizeUrl(): string {
    return `${this.base}/${VERSION}/dialog/oauth`;
  }
  get graphUrl(): string {
    return `${this.base}/${VERSION}`;
  }

  /** An app: its id, secret and valid redirect URIs. */
  app(id: string, secret: string, redirects: string[]): void {
    this.apps.set(id, { secret, redirects });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const body = req.method === 'POST' ? new URLSearchParams(await text(req)) : new URLSearchParams();
    this.calls.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization ?? '',
    });
    const field = (name: string) => body.get(name) ?? url.searchParams.get(name) ?? '';
    if (url.pathname === `/${VERSION}/dialog/oauth`) return this.dialog(req, res, field);
    if (url.pathname === `/${VERSION}/oauth/access_token`) return this.accessToken(res, field);
    if (url.pathname === `/${VERSION}/me` && req.method === 'GET') return this.me(req, res, url);
    oauthError(res, 404, 'Unknown path');
  }

  private dialog(req: IncomingMessage, res: ServerResponse, field: (name: string) => string): void {
    const app = this.apps.get(field('client_id'));
    const redirect = field('redirect_uri');
    if (!app || !app.redirects.includes(redirect) || field('response_type') !== 'code')
      return oauthError(res, 400, 'Invalid app or redirect_uri');
    if (req.method === 'POST') {
      const back = new URL(redirect);
      const person = field('person');
      if (field('action') === 'cancel' || !this.people.has(person)) {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_reason', 'user_denied');
        back.searchParams.set('error_description', 'Permissions error');
      } else {
        const code = randomBytes(16).toString('hex');
        this.codes.set(code, {
          app: field('client_id'),
          person,
          redirect,
          challenge: field('code_challenge_method') === 'S256' ? field('code_challenge') : '',
        });
        back.searchParams.set('code', code);
      }
      back.searchParams.set('state', field('state'));
      res.writeHead(303, { Location: back.href }).end();
      return;
    }
    const hidden = [
      'client_id',
      'redirect_uri',
      'response_type',
      'state',
      'scope',
      'code_challenge',
      'code_challenge_method',
    ]
      .map((name) => `<input type="hidden" name="${name}" value="${escape(field(name))}">`)
      .join('');
    const buttons = [...this.people.entries()]
      .map(
        ([id, p]) =>
          `<p><button type="submit" name="person" value="${escape(id)}">Continue as ${escape(p.first_name)}</button></p>`,
      )
      .join('');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html lang="en"><head><title>Test Facebook</title></head><body><h1>Log in with Facebook</h1>
<form method="post">${hidden}${buttons}<p><button type="submit" name="action" value="cancel">Cancel</button></p></form></body></html>`);
  }

  private accessToken(res: ServerResponse, field: (name: string) => string): void {
    const app = this.apps.get(field('client_id'));
    if (!app || app.secret !== field('client_secret')) return oauthError(res, 400, 'Error validating client secret.');
    const code = this.codes.get(field('code'));
    this.codes.delete(field('code'));
    const verifier = field('code_verifier');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      !code ||
      code.app !== field('client_id') ||
      code.redirect !== field('redirect_uri') ||
      code.challenge !== challenge
    )
      return oauthError(res, 400, 'This authorization code has been used, or is invalid.');
    const token = randomBytes(24).toString('hex');
    this.tokens.set(token, { app: code.app, person: code.person });
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 5183944 }));
  }

  private me(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const bearer =
      /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token') ?? '';
    const token = this.tokens.get(bearer);
    if (!token) return oauthError(res, 401, 'Invalid OAuth access token.');
    const proof = createHmac('sha256', this.apps.get(token.app)!.secret).update(bearer).digest('hex');
    if (url.searchParams.get('appsecret_proof') !== proof)
      return oauthError(res, 400, 'Invalid appsecret_proof provided in the API argument');
    const person = this.people.get(token.person)!;
    const fields = (url.searchParams.get('fields') ?? 'id,name').split(',');
    const all: Record<string, unknown> = { id: token.person, ...person };
    const answer = Object.fromEntries(
      fields.filter((f) => all[f] !== undefined && all[f] !== null).map((f) => [f, all[f]]),
    );
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(answer));
  }

  /**
   * Walks a login from the dialog's URL as `person` (or Cancel), as a browser would, and answers the callback URL
   * it ends at.
   */
  async signIn(dialogUrl: string, person: string | 'cancel'): Promise<URL> {
    const url = new URL(dialogUrl);
    const form = new URLSearchParams(url.searchParams);
    form.set(person === 'cancel' ? 'action' : 'person', person);
    const res = await fetch(`${url.origin}${url.pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    const location = res.headers.get('location');
    if (!location) throw new Error(`the dialog answered ${res.status}: ${await res.text()}`);
    return new URL(location);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function oauthError(res: ServerResponse, status: number, message: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ error: { message, type: 'OAuthException', code: 100 } }));
}

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
