// Email and social sign-in through real services, end to end in the browser: a reference server process of this
// spec's own (dev mode, for the demo pages) sends its mail over SMTP to a real SMTP server in this process
// (`smtp-server`, read with `mailparser`), and signs in with Google through a real OpenID provider in this process
// (`oidc-provider`, with its own signing key) instead of the stand-ins: GOOGLE_CLIENT_SECRET and SMTP_URL are set.
// The server of playwright.config.ts keeps its stand-ins and outbox for the other specs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ServerProcess } from '../../server/testing/processes.js';
import { TestOpenIdProvider } from '../../server/testing/oidc.js';
import { TestSmtp } from '../../server/testing/smtp.js';
import { expect, test } from './fixtures';

// One server for the file: its tests run in order, in one worker.
test.describe.configure({ mode: 'serial', timeout: 90_000 });
// A refused form answers 422, which the browser logs as a failed resource.
test.use({ allowConsoleErrors: [/status of 422/] });

const GOOGLE_SECRET = 'e2e-google-client-secret';
let smtp: TestSmtp;
let op: TestOpenIdProvider;
let server: ServerProcess;
let tmp = '';

test.beforeAll(async () => {
  test.setTimeout(240_000);
  smtp = await TestSmtp.start();
  op = await TestOpenIdProvider.start();
  tmp = mkdtempSync(join(tmpdir(), 'channel-e2e-services-'));
  server = new ServerProcess('services', {
    dataDir: join(tmp, 'data'),
    env: {
      DATABASE_TEMPLATES: join(process.cwd(), '.cache', 'db-templates'),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'no-reply@tv.example',
      GOOGLE_CLIENT_SECRET: GOOGLE_SECRET,
      GOOGLE_ISSUER_URL: op.issuer,
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
});

test.afterAll(async () => {
  await server?.stop();
  await op?.stop();
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
