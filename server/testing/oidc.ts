/**
 * A real OpenID provider inside the test process (the `oidc-provider` package) playing Google: discovery, its own
 * signing key (RS256, published as its JWKS), the authorization code flow with PKCE, ID tokens with the scope's
 * claims (email, email_verified, given_name, family_name), one-time codes. Its sign-in page lists the test's people
 * as buttons ("Sign in as ...") and a Cancel; consent is granted at once, as for a first-party client.
 *
 * It listens first (the issuer's URL goes into the server's configuration) and takes its clients once the server's
 * callback is known (`register`). `tamper` changes the next ID tokens the token endpoint answers, re-signed with the
 * provider's own key (or a stranger's, same key id): an ID token for another audience, an expired one, another
 * nonce, all validly signed. `signIn` walks the flow over HTTP as a browser would (a small cookie jar) and answers
 * the callback URL it ends at. Not a test file itself.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** A person who can sign in. */
export interface Person {
  email: string | null;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

/** A client of the provider. */
export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/** What a tamper does to an ID token's claims; `stranger` signs with a key the issuer never published. */
export type Tamper = (claims: JWTPayload) => { claims: JWTPayload; stranger?: boolean };

const KID = 'test-signing-key';
const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export class TestOpenIdProvider {
  /** The people, by their subject (the account id). */
  readonly people = new Map<string, Person>();
  /** Changes the ID tokens of the next token responses while set. */
  tamper: Tamper | undefined;
  /** How many token requests the token endpoint answered (including refused ones). */
  tokenRequests = 0;
  private provider: Provider | undefined;
  private keys!: { own: CryptoKey; stranger: CryptoKey; jwk: Record<string, unknown> };

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  /** Listening on a free loopback port; no clients yet. */
  static async start(): Promise<TestOpenIdProvider> {
    const made: { op?: TestOpenIdProvider } = {};
    const server = createServer((req, res) => {
      made.op!.handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const op = new TestOpenIdProvider(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    made.op = op;
    const own = await generateKeyPair('RS256', { extractable: true });
    const stranger = await generateKeyPair('RS256', { extractable: true });
    op.keys = {
      own: own.privateKey,
      stranger: stranger.privateKey,
      jwk: { ...(await exportJWK(own.privateKey)), kid: KID, alg: 'RS256', use: 'sig' },
    };
    return op;
  }

  /** Makes the provider, with its clients. */
  register(clients: OidcClient[]): void {
    const configuration: Configuration = {
      clients: clients.map((c) => ({
        ...c,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      })),
      jwks: { keys: [this.keys.jwk as never] },
      cookies: { keys: ['test-cookie-key'] },
      responseTypes: ['code'],
      ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
      // As Google does: the scope's claims are in the ID token itself.
      conformIdTokenClaims: false,
      findAccount: (_ctx, sub) => {
        const person = this.people.get(sub);
        if (!person) return undefined;
        return {
          accountId: sub,
          claims: () => ({
            sub,
            ...(person.email ? { email: person.email, email_verified: person.email_verified } : {}),
            given_name: person.given_name,
            family_name: person.family_name,
          }),
        };
      },
      // A first-party client: consent is given at once.
      loadExistingGrant: async (ctx) => {
        const grantId = ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client!.clientId,
          accountId: ctx.oidc.session!.accountId,
        });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    };
    this.provider = new Provider(this.issuer, configuration);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const provider = this.provider;
    if (!provider) {
      res.statusCode = 503;
      res.end('no clients yet');
      return;
    }
    const url = new URL(req.url ?? '/', this.issuer);
    const interaction = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    if (interaction) return this.interaction(provider, req, res);
    if (url.pathname === '/token' && req.method === 'POST') {
      this.tokenRequests++;
      if (this.tamper && !req.headers['x-untampered']) return this.tampered(req, res);
    }
    await provider.callback()(req, res);
  }

  /** The sign-in page: the people as buttons, and Cancel; its answer finishes the interaction. */
  private async interaction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'POST') {
      const body = new URLSearchParams(await text(req));
      const subject = body.get('account') ?? '';
      const result =
        body.get('action') === 'cancel' || !this.people.has(subject)
          ? { error: 'access_denied', error_description: 'End-User aborted interaction' }
          : { login: { accountId: subject } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    const details = await provider.interactionDetails(req, res);
    const buttons = [...this.people.entries()]
      .map(
        ([sub, p]) =>
          `<p><button type="submit" name="account" value="${escape(sub)}">Sign in as ${escape(p.email ?? sub)}</button></p>`,
      )
      .join('');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html lang="en"><head><title>Test OpenID provider</title></head><body>
<h1>Sign in to ${escape(String(details.params.client_id))}</h1>
<form method="post" action="/interaction/${escape(details.uid)}">${buttons}
<p><button type="submit" name="action" value="cancel">Cancel</button></p></form></body></html>`);
  }

  /** The token endpoint's answer with its ID token's claims changed by `tamper`, signed again. */
  private async tampered(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers: Record<string, string> = { 'x-untampered': '1' };
    for (const name of ['content-type', 'authorization']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(`${this.issuer}/token`, { method: 'POST', headers, body: await text(req) });
    const json = (await answer.json()) as Record<string, unknown>;
    if (answer.ok && typeof json.id_token === 'string') {
      const changed = this.tamper!(decodeJwt(json.id_token));
      json.id_token = await new SignJWT(changed.claims)
        .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
        .sign(changed.stranger ? this.keys.stranger : this.keys.own);
    }
    res.statusCode = answer.status;
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'no-store');
    res.end(JSON.stringify(json));
  }

  /**
   * Walks a sign-in from the authorize URL as `subject` (or Cancel), as a browser would, and answers the callback
   * URL it ends at (`redirect_uri?code&state&iss`, or `?error=access_denied...`).
   */
  async signIn(authorizeUrl: string, subject: string | 'cancel'): Promise<URL> {
    const jar = new Map<string, string>();
    const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const keep = (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    };
    let next = new URL(authorizeUrl);
    for (let step = 0; step < 10; step++) {
      if (next.origin !== this.issuer) return next;
      let res: Response;
      if (/^\/interaction\//.test(next.pathname)) {
        const body: Record<string, string> = subject === 'cancel' ? { action: 'cancel' } : { account: subject };
        res = await fetch(next, {
          method: 'POST',
          headers: { Cookie: cookie(), 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(body).toString(),
          redirect: 'manual',
        });
      } else res = await fetch(next, { headers: { Cookie: cookie() }, redirect: 'manual' });
      keep(res);
      const location = res.headers.get('location');
      if (!location) throw new Error(`the provider stopped at ${next.pathname} (${res.status}): ${await res.text()}`);
      next = new URL(location, next);
    }
    throw new Error('the sign-in went round in circles');
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A request's body as text. */
async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
