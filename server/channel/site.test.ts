/**
 * What the reference server gives `<channel-app>`: its content seeds (slides of every type with real ids, CMS
 * pages using every block type, privacy and terms pages, the contacts form), the contacts form's submissions
 * (checked, stored, sent to the channel's outbox, limited) and the demo sites' deep-link fallback on both listeners
 * (dev mode only). Run: node --import tsx --test server/channel/site.test.ts
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CustomForm, envelope, PageDetail, Slide } from '../../src/api/contract.js';
import * as z from 'zod/mini';
import { fieldError } from './forms.js';

import { Harness, ok, request, startTestServer } from '../testing/harness.js';

const h = new Harness();
const PASSWORD = { password: 'site-pass-1', password_confirmation: 'site-pass-1' };
/** A JSON POST's request options. */
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
before(() => h.start());
after(() => h.stop());

describe('site content seeds', () => {
  test('slides of every type, each with an image and the id of what it shows', async () => {
    for (const channel of ['demo', 'demo-fr']) {
      const res = await h.call(`/api/slides/web?channel_key=${channel}`);
      const slides = envelope(z.array(Slide)).parse(res.body).data;
      const types = new Set(slides.map((s) => s.slidable_type));
      for (const type of ['main', 'category', 'participant', 'group'])
        assert.ok(types.has(type), `${channel}: ${type}`);
      for (const slide of slides) {
        assert.match(slide.image ?? '', /^http:\/\/.+\.svg$/);
        if (slide.slidable_type !== 'main') assert.ok(slide.slidable_id, `${channel}: ${slide.title} names its id`);
        if (slide.slidable_type === 'group') assert.match(slide.link ?? '', /^\/\?group=/);
      }
      const image = await request(slides[0]!.image!);
      assert.equal(image.status, 200);
    }
  });

  test('CMS pages use every block type, static blocks name settings, privacy and terms exist in both channels', async () => {
    for (const channel of ['demo', 'demo-fr']) {
      const list = (await h.call(`/api/pages?channel_key=${channel}`)).body.data as { url: string }[];
      assert.ok(list.length >= 5, `${channel} has at least three CMS pages besides privacy and terms`);
      const urls = list.map((p) => p.url);
      for (const url of ['/about', '/privacy_policy', '/terms_conditions']) assert.ok(urls.includes(url), url);
      const kinds = new Set<string>();
      const settings = (await h.call(`/api/settings?channel_key=${channel}`)).body.data;
      for (const { url } of list) {
        const res = await h.call(`/api/pages/${url.replace(/\//g, '')}?channel_key=${channel}`);
        const page = envelope(PageDetail).parse(res.body).data;
        for (const block of page.blocks) {
          kinds.add(block.type);
          if (block.type === 'static-block') {
            const [group, key] = block.ref.split(':');
            assert.ok(settings.static_blocks?.[group!]?.[key!], `${channel} ${url}: ${block.ref} resolves`);
          }
        }
      }
      assert.deepEqual([...kinds].sort(), ['image', 'paragraph', 'static-block']);
    }
    const fr = (await h.call('/api/pages/privacy_policy?channel_key=demo-fr')).body.data;
    assert.equal(fr.name, 'Politique de confidentialité');
  });
});

describe('the contacts form', () => {
  const submit = (values: unknown, key = h.key) => h.post('/api/custom-forms/contact', { api_key: key, values });

  test('the form has a phone field and length bounds', async () => {
    const res = await h.api('custom-forms/contact');
    const form = envelope(CustomForm).parse(res.body).data;
    assert.ok(form.fields.some((f) => f.type === 'phone'));
    assert.ok(form.fields.some((f) => f.min_length && f.max_length));
  });

  test('each rule answers its message, unknown fields are refused, nothing is stored', async () => {
    const res = await submit({ name: 'A', email: 'not-an-email', phone: '12-34', message: '', extra: 'x' });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.errors, {
      extra: ['This form has no such field.'],
      name: ['Field length must be greater than 1'],
      email: ['A valid email address is required'],
      phone: ['A valid phone number is required'],
      message: ['Field is required'],
    });
    const long = await submit({ name: 'Ann', email: 'a@b.co', message: 'x'.repeat(2001) });
    assert.deepEqual(long.body.errors, { message: ['Field length must be less than 2001'] });
    // At the bounds the rule and its message agree: 2 characters of name and 2,000 of message pass (the bad email
    // keeps the submission from being stored).
    const bounds = await submit({ name: 'An', email: 'bad', message: 'x'.repeat(2000) });
    assert.deepEqual(bounds.body.errors, { email: ['A valid email address is required'] });
    assert.equal((await submit('nope')).status, 422);
    const proto = await submit({ toString: 'x', __proto__: 'y', constructor: 'z' });
    assert.equal(proto.status, 422, 'names of Object.prototype are plain unknown fields');
    assert.deepEqual(proto.body.errors.toString, ['This form has no such field.']);
    assert.equal((await h.post('/api/custom-forms/nope', { api_key: h.key, values: {} })).status, 404);
  });

  test('a valid submission is stored and reaches the channel’s contact address through the outbox', async () => {
    const res = await submit({
      name: 'Ann Fan',
      email: 'ann@example.com',
      phone: '+1 (555) 010-0199',
      message: 'Please stream the final.\nEmail: forged@example.com',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const outbox = await h.call('/__dev/outbox?to=support@demo-sports.example');
    const mail = outbox.body.data[0];
    assert.match(mail.subject, /Contact us/);
    assert.match(mail.text, /Message: Please stream the final\.\n {2}Email: forged@example\.com/);
    assert.doesNotMatch(mail.text, /^Email: forged/m, 'a value cannot forge another field');
    assert.match(mail.text, /Phone: \+1 \(555\) 010-0199/);
  });

  test('the phone rule: 10 to 14 digits, an optional +, separators', () => {
    const phone = { name: 'p', label: 'Phone', type: 'phone' };
    for (const good of ['5550100199', '+1 555 010 0199', '(555) 010-0199', '+44.20.7946.0958'])
      assert.equal(fieldError(phone, good), undefined, good);
    for (const bad of ['555-0199', '+1 555 010 0199 99999', '555 CALL NOW', '+-+'])
      assert.equal(fieldError(phone, bad), 'A valid phone number is required', bad);
  });

  test('one address may send only so many', async () => {
    const key = await h.apiKey('demo');
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++)
      status = (await submit({ name: 'Bot', email: 'bot@example.com', message: 'Hello there, again.' }, key)).status;
    assert.equal(status, 429);
  });
});

describe('the demo sites’ deep-link fallback', () => {
  test('every path under /site and /site-fr answers the site page on both listeners, with the policy', async () => {
    for (const origin of [h.server.origin, h.server.hostOrigin]) {
      for (const [path, key] of [
        ['/site', 'demo'],
        ['/site/', 'demo'],
        ['/site/watch/12', 'demo'],
        ['/site/profile/edit', 'demo'],
        [`/site/share/3/3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b`, 'demo'],
        ['/site/no/such/page', 'demo'],
        ['/site-fr/faq', 'demo-fr'],
      ]) {
        const res = await fetch(`${origin}${path}`);
        assert.equal(res.status, 200, `${origin}${path}`);
        assert.match(res.headers.get('content-type') ?? '', /text\/html/);
        assert.ok(res.headers.get('content-security-policy'), 'served with the policy');
        const html = await res.text();
        assert.match(html, new RegExp(`data-channel-key="${key}"`));
        assert.match(html, /<channel-app base="\/site(-fr)?"><\/channel-app>/);
      }
      assert.equal((await fetch(`${origin}/sites`)).status, 404, 'only paths under the base');
    }
  });

  test("production's account page names the channel of the emailed link, and links to no outbox", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'channel-account-prod-'));
    const prod = await startTestServer({ port: 0, dataDir: join(dir, 'data') });
    try {
      const keyOf = async (channel: string) =>
        String((await request(`${prod.origin}/api/get_api_key`, post({ channel_key: channel }))).body.data.api_key);
      const key = await keyOf('demo-fr');
      const email = `fr-${Date.now()}@example.com`;
      const registered = await request(
        `${prod.origin}/api/v2/auth/register`,
        post({ api_key: key, first_name: 'Élise', last_name: 'Fr', email, terms: true, ...PASSWORD }),
      );
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      // Production keeps the outbox only in its table: the verification email is read there.
      const mail = await prod.db.get('SELECT links_json FROM outbox WHERE to_email = ?', [email]);
      const link = new URL((JSON.parse(String(mail!.links_json)) as string[])[0]!);
      assert.equal(link.searchParams.get('channel_key'), 'demo-fr', 'the link names its channel');
      const page = async (path: string) => {
        const res = await fetch(`${prod.origin}${path}`);
        return { status: res.status, text: await res.text() };
      };
      const opened = await page(`${link.pathname}${link.search}`);
      assert.equal(opened.status, 200);
      assert.match(opened.text, /<script src="[^"]+\/channel-elements\.js" data-channel-key="demo-fr" async>/);
      ok(opened.text.includes('<channel-profile>'), 'the account flow');
      ok(!/outbox|data-channel-key="demo"/.test(opened.text), 'nothing of the demo page');
      // A social callback names no channel_key: the sign-in its state names does (an attempt started on demo-fr).
      await prod.db.run(
        `INSERT INTO social_attempts (state_hash, channel_id, provider, api_key_hash, redirect_uri, nonce, code_verifier, expires_at)
         SELECT ?, id, 'google', 'k', 'r', 'n', 'v', 9999999999 FROM channels WHERE channel_key = 'demo-fr'`,
        [createHash('sha256').update('the-state').digest('hex')],
      );
      const callback = await page('/auth/login/google/callback?code=abc&state=the-state');
      assert.match(callback.text, /data-channel-key="demo-fr"/);
      const unknown = await page('/password-reset?channel_key=nope&email=a%40b.c&token=x');
      assert.equal(unknown.status, 404);
      assert.match(JSON.parse(unknown.text).message, /no channel with the key the link names/);
      const unnamed = await page('/login');
      assert.equal(unnamed.status, 404, 'two channels, and the link names none');
      assert.match(JSON.parse(unnamed.text).message, /several channels, and the link names none/);
    } finally {
      await prod.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a production server does not serve the demo sites', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'channel-site-prod-'));
    const prod = await startTestServer({ port: 0, dataDir: join(dir, 'data') });
    try {
      assert.equal((await fetch(`${prod.origin}/site/watch/12`)).status, 404);
    } finally {
      await prod.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
