// Email and social sign-in through real services, end to end in the browser: a reference server process of this
// spec's own (dev mode, for the demo pages) sends its mail over SMTP to a real SMTP server in this process
// (`smtp-server`, read with `mailparser`), signs in with Google through a real OpenID provider in this process
// (`oidc-provider`, with its own signing key) and with Facebook through a stand-in of its dialog and Graph API
// (testing/graph.ts) instead of the stand-ins: SMTP_URL, GOOGLE_CLIENT_SECRET and FACEBOOK_APP_SECRET are set.
// The server of playwright.config.ts keeps its stand-ins and outbox for the other specs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ServerProcess } from '../../server/testing/processes.js';
import { TestGraphApi } from '../../server/testing/graph.js';
import { TestOpenIdProvider, type Tamper } from '../../server/testing/oidc.js';
import { TestSmtp } from '../../server/testing/smtp.js';
import { expect, test } from './fixtures';

// One server for the file: its tests run in order, in one worker.
test.describe.configure({ mode: 'serial', timeout: 90_000 });
// A refused form answers 422, which the browser logs as a failed resource.
test.use({ allowConsoleErrors: [/status of 422/] });

const GOOGLE_SECRET = 'e2e-google-client-secret';
const FACEBOOK_SECRET = 'e2e-facebook-app-secret';
let smtp: TestSmtp;
let op: TestOpenIdProvider;
let graph: TestGraphApi;
let server: ServerProcess;
let tmp = '';

test.beforeAll(async () => {
  test.setTimeout(240_000);
  smtp = await TestSmtp.start();
  op = await TestOpenIdProvider.start();
  graph = await TestGraphApi.start();
  tmp = mkdtempSync(join(tmpdir(), 'channel-e2e-services-'));
  server = new ServerProcess('services', {
    dataDir: join(tmp, 'data'),
    env: {
      DATABASE_TEMPLATES: join(process.cwd(), '.cache', 'db-templates'),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'no-reply@tv.example',
      GOOGLE_CLIENT_SECRET: GOOGLE_SECRET,
      GOOGLE_ISSUER_URL: op.issuer,
      FACEBOOK_APP_SECRET: FACEBOOK_SECRET,
      FACEBOOK_GRAPH_URL: graph.graphUrl,
      FACEBOOK_AUTHORIZE_URL: graph.authorizeUrl,
      RATE_LIMIT_MAX: '100000',
      EMAIL_RATE_MAX: '100000',
      LOG_RATE_MAX: '100000',
    },
  });
  await server.start();
  op.register([
    {
      client_id: 'demo-google-client',
      client_secret: GOOGLE_SECRET,
      redirect_uris: [`${server.base}/auth/login/google/callback`],
    },
  ]);
  graph.app('demo-facebook-client', FACEBOOK_SECRET, [`${server.base}/auth/login/facebook/callback`]);
});

test.afterAll(async () => {
  await server?.stop();
  await op?.stop();
  await graph?.stop();
  await smtp?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function openProfile(page: Page): Promise<Locator> {
  await page.goto(`${server.base}/profile.html`);
  const profile = page.locator('channel-profile').first();
  await expect(profile.locator('[part~="sign-in"], [part~="tabs"]').first()).toBeVisible({ timeout: 15_000 });
  return profile;
}

const signedIn = (profile: Locator) => expect(profile.locator('[part~="sign-out"]')).toBeVisible({ timeout: 15_000 });

test('password reset by email: the link in the email that arrived over SMTP sets a new password that signs in', async ({
  page,
}) => {
  const email = `reset-${Date.now()}@example.com`;
  await server.register(email, 'first-pass-1');
  const profile = await openProfile(page);
  await profile.locator('[part~="forgot"]').click();
  await profile.getByLabel(/^Email/).fill(email);
  await profile.getByRole('button', { name: 'Send the link' }).click();
  await expect(profile).toContainText(`If an account exists for ${email}`);
  const received = await smtp.waitFor(email, 2);
  const reset = received.find((r) => /^Reset your /.test(String(r.mail.subject)))!;
  expect(reset.mail.html).toBeTruthy();
  const link = /^(http\S+\/password-reset\?\S+)$/m.exec(String(reset.mail.text))?.[1];
  expect(link, String(reset.mail.text)).toBeTruthy();
  // The HTML's button opens the same link.
  expect(String(reset.mail.html)).toContain(`href="${link!.replace(/&/g, '&amp;')}"`);
  await page.goto(link!);
  const account = page.locator('channel-profile');
  await account.getByLabel(/^New password/).fill('second-pass-2');
  await account.getByLabel(/^Confirm the new password/).fill('second-pass-2');
  await account.getByRole('button', { name: 'Save the new password' }).click();
  await expect(account).toContainText('Your password was changed.');
  const again = await openProfile(page);
  const form = again.locator('[part~="sign-in"]');
  await form.getByLabel(/^Email/).fill(email);
  await form.getByLabel(/^Password/).fill('second-pass-2');
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await signedIn(again);
});

test('Google sign-in through the browser: the provider signs in, and the page it started on is signed in', async ({
  page,
}) => {
  op.people.set('e2e-gina', {
    email: `gina-${Date.now()}@gmail.test`,
    email_verified: true,
    given_name: 'Gina',
    family_name: 'Google',
  });
  const profile = await openProfile(page);
  await profile.locator('[part~="social-google"]').click();
  await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
  await page.getByRole('button', { name: /^Sign in as gina-/ }).click();
  await expect(page).toHaveURL(`${server.base}/profile.html`, { timeout: 15_000 });
  const back = page.locator('channel-profile');
  await signedIn(back);
  await expect(back).toContainText('Gina');
});

test('Google sign-in cancelled, or with an address Google has not verified, comes back to the sign-in form saying so', async ({
  page,
}) => {
  let profile = await openProfile(page);
  await profile.locator('[part~="social-google"]').click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('channel-profile')).toContainText('Sign-in was cancelled.', { timeout: 15_000 });
  await expect(page.locator('channel-profile [part~="sign-in"]')).toBeVisible();

  op.people.set('e2e-una', { email: 'una@gmail.test', email_verified: false, given_name: 'Una', family_name: 'V' });
  profile = await openProfile(page);
  await profile.locator('[part~="social-google"]').click();
  await page.getByRole('button', { name: 'Sign in as una@gmail.test' }).click();
  const form = page.locator('channel-profile');
  await expect(form).toContainText('The email address of your social account is not verified yet', { timeout: 15_000 });
  await expect(form.locator('[part~="sign-in"]')).toBeVisible();
  await expect(form.locator('[part~="sign-out"]')).toHaveCount(0);
});

test('Facebook sign-in through the browser: the dialog, the code exchanged with the app secret, the page signed in', async ({
  page,
}) => {
  const id = `e2e-fb-${Date.now()}`;
  graph.people.set(id, { email: `${id}@facebook.test`, first_name: 'Fabienne', last_name: 'Book' });
  const profile = await openProfile(page);
  await profile.locator('[part~="social-facebook"]').click();
  await expect(page).toHaveURL(new RegExp(`^${graph.authorizeUrl}\\?`));
  await page.getByRole('button', { name: 'Continue as Fabienne' }).click();
  await expect(page).toHaveURL(`${server.base}/profile.html`, { timeout: 15_000 });
  const back = page.locator('channel-profile');
  await signedIn(back);
  await expect(back).toContainText('Fabienne');
  // The server read the profile from the Graph API with the token's proof.
  const me = graph.calls.filter((c) => c.path.endsWith('/me'));
  expect(me.length).toBeGreaterThan(0);
  expect(me.at(-1)!.query.get('appsecret_proof')).toMatch(/^[0-9a-f]{64}$/);
});

/** The callback pages in French: the `lang` of a French site's account page. */
async function inFrench(page: Page): Promise<void> {
  await page.route(`${server.base}/auth/login/**`, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace('<html lang="en">', '<html lang="fr">');
    await route.fulfill({ response, body });
  });
}

/**
 * Starts a Google sign-in from the profile page and holds the browser at the provider (a blank page answers its
 * authorize URL; a redirect's next hop cannot be held), signs in there as `subject` as the browser would, and
 * answers the callback URL the provider sent back to, whose code and state a test may change before going there.
 */
async function heldAtCallback(page: Page, subject: string): Promise<URL> {
  const profile = await openProfile(page);
  let resolve!: (url: string) => void;
  const held = new Promise<string>((r) => (resolve = r));
  const authorize = `${op.issuer}/auth?**`;
  await page.route(authorize, async (route) => {
    resolve(route.request().url());
    await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>held</title>' });
  });
  await profile.locator('[part~="social-google"]').click();
  const url = await held;
  // The blank page is in before the test goes on.
  await expect(page).toHaveTitle('held');
  await page.unroute(authorize);
  return op.signIn(url, subject);
}

/** The URL with these query values changed. */
function changed(url: URL, values: Record<string, string>): string {
  const next = new URL(url);
  for (const [name, value] of Object.entries(values)) next.searchParams.set(name, value);
  return next.href;
}

for (const [lang, failed, unverified] of [
  [
    'en',
    'Sign-in could not be completed. Please try again.',
    'The email address of your social account is not verified yet',
  ],
  [
    'fr',
    "La connexion n'a pas pu aboutir. Veuillez réessayer.",
    "L'adresse e-mail de votre compte de réseau social n'est pas encore vérifiée",
  ],
] as const) {
  test(`refused Google sign-ins (${lang}): a wrong state, a replayed code, an ID token for another audience, expired, with another nonce, an unverified address; each back at the sign-in form saying so, signed out`, async ({
    page,
    context,
  }) => {
    if (lang === 'fr') await inFrench(page);
    const subject = `e2e-refused-${lang}`;
    const unverifiedSubject = `e2e-unverified-${lang}`;
    const person = { email_verified: true, given_name: 'Refu', family_name: 'Sed' };
    op.people.set(subject, { ...person, email: `refused-${lang}-${Date.now()}@gmail.test` });
    op.people.set(unverifiedSubject, {
      ...person,
      email: `unverified-${lang}-${Date.now()}@gmail.test`,
      email_verified: false,
    });
    const refusedAt = async (at: Page, why: string, message: string = failed) => {
      const form = at.locator('channel-profile');
      await expect(form, why).toContainText(message, { timeout: 15_000 });
      await expect(form.locator('[part~="sign-in"]'), why).toBeVisible();
      await expect(form.locator('[part~="sign-out"]'), why).toHaveCount(0);
    };
    /** Goes to `href` and answers the server's answer to the callback's sign-in, if it asked. */
    const goBack = async (at: Page, href: string) => {
      const answer = at.waitForResponse((r) => /\/api\/v2\/auth\/social\/google$/.test(r.url()), { timeout: 15_000 });
      await at.goto(href);
      return answer;
    };

    // A wrong state: this tab refuses it without asking, and a tab that kept none asks the server, which refuses it.
    const first = await heldAtCallback(page, subject);
    const forged = changed(first, { state: 'A'.repeat(43) });
    let asked = false;
    page.on('request', (r) => (asked ||= /\/api\/v2\/auth\/social\/google$/.test(r.url())));
    await page.goto(forged);
    await refusedAt(page, 'a state other than the tab’s');
    expect(asked, 'no request for a state this tab did not start').toBe(false);
    const other = await context.newPage();
    if (lang === 'fr') await inFrench(other);
    expect((await goBack(other, forged)).status()).toBe(422);
    await refusedAt(other, 'a state of no attempt');
    await other.close();

    // A replayed code: the first sign-in's code, once used, with a new attempt of this tab's.
    expect((await goBack(page, first.href)).status()).toBe(200);
    await expect(page).toHaveURL(`${server.base}/profile.html`, { timeout: 15_000 });
    await signedIn(page.locator('channel-profile'));
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
    const newKey = page.waitForResponse((r) => r.url().endsWith('/api/get_api_key'));
    await page.locator('channel-profile [part~="sign-out"]').click();
    await loggedOut;
    await newKey;
    await expect(page.locator('channel-profile [part~="sign-in"]')).toBeVisible();
    const second = await heldAtCallback(page, subject);
    const replayed = await goBack(page, changed(second, { code: first.searchParams.get('code')! }));
    expect(replayed.status()).toBe(422);
    await refusedAt(page, 'a replayed code');

    // ID tokens signed by the provider, each wrong for its own reason.
    const now = Math.floor(Date.now() / 1000);
    const tampers: Array<[string, Tamper]> = [
      ['another audience', (c) => ({ claims: { ...c, aud: 'another-client' } })],
      ['expired', (c) => ({ claims: { ...c, iat: now - 7200, exp: now - 3600 } })],
      ['another nonce', (c) => ({ claims: { ...c, nonce: 'not-the-attempts-nonce' } })],
    ];
    for (const [why, tamper] of tampers) {
      op.tamper = tamper;
      try {
        const held = await heldAtCallback(page, subject);
        expect((await goBack(page, held.href)).status(), why).toBe(422);
        await refusedAt(page, why);
      } finally {
        op.tamper = undefined;
      }
    }

    // An address the provider has not verified.
    const held = await heldAtCallback(page, unverifiedSubject);
    expect((await goBack(page, held.href)).status()).toBe(422);
    await refusedAt(page, 'an unverified address', unverified);
  });
}
