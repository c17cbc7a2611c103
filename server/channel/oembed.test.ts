/**
 * oEmbed for the demo sites' watch pages (oembed.ts): the discovery link on watch pages only, the JSON answer with
 * its iframe of the embed layout and the sizes a consumer asks for, the spec's errors, and the embed layout itself
 * (framable by any origin, and nothing else is). Run: node --import tsx --test server/channel/oembed.test.ts
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Harness, request, startTestServer } from '../testing/harness.js';

const h = new Harness();
before(() => h.start());
after(() => h.stop());

/** The French channel's free recording (the harness knows the demo channel's keys). */
const frenchId = async () =>
  Number(
    (await h.server.db.get(
      "SELECT e.id FROM events e JOIN channels c ON c.id = e.channel_id WHERE c.channel_key = 'demo-fr' AND e.key = 'free-finished'",
    ))!.id,
  );

const LINK = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/;
const unescape = (s: string) => s.replaceAll('&amp;', '&');

describe('oEmbed', () => {
  test('a watch page carries the discovery link, on both listeners; other site pages do not', async () => {
    const id = h.id('free-finished');
    for (const origin of [h.server.origin, h.server.hostOrigin]) {
      const html = await (await fetch(`${origin}/site/watch/${id}`)).text();
      const href = unescape(LINK.exec(html)?.[1] ?? '');
      const oembed = new URL(href);
      assert.equal(oembed.origin + oembed.pathname, `${h.server.origin}/oembed`);
      assert.equal(oembed.searchParams.get('url'), `${origin}/site/watch/${id}`);
      assert.equal(oembed.searchParams.get('format'), 'json');
      assert.doesNotMatch(await (await fetch(`${origin}/site/schedule`)).text(), LINK);
    }
  });

  test('answers a video with an iframe of the embed layout, sized as asked (16:9)', async () => {
    const id = h.id('free-finished');
    const url = `${h.server.hostOrigin}/site/watch/${id}`;
    const res = await request(`${h.server.origin}/oembed?url=${encodeURIComponent(url)}&format=json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = res.body as Record<string, unknown>;
    const event = await h.event('free-finished');
    assert.deepEqual(
      { ...body, html: undefined },
      {
        version: '1.0',
        type: 'video',
        title: event.name,
        provider_name: 'Demo Sports Network',
        provider_url: h.server.origin,
        width: 640,
        height: 360,
        html: undefined,
      },
    );
    const src = /<iframe src="([^"]+)" width="640" height="360"/.exec(String(body.html))?.[1];
    assert.equal(unescape(src ?? ''), `${h.server.origin}/embed/watch/${id}?channel=demo`);
    assert.match(String(body.html), /allow="autoplay; fullscreen; picture-in-picture" allowfullscreen/);

    const small = await request(`${h.server.origin}/oembed?url=${encodeURIComponent(url)}&maxwidth=320&maxheight=400`);
    assert.deepEqual([(small.body as { width: number }).width, (small.body as { height: number }).height], [320, 180]);
    const short = await request(`${h.server.origin}/oembed?url=${encodeURIComponent(url)}&maxheight=270`);
    assert.deepEqual([(short.body as { width: number }).width, (short.body as { height: number }).height], [480, 270]);
    const tiny = await request(`${h.server.origin}/oembed?url=${encodeURIComponent(url)}&maxwidth=100&maxheight=50`);
    assert.deepEqual([(tiny.body as { width: number }).width, (tiny.body as { height: number }).height], [88, 50]);
    const french = await request(
      `${h.server.origin}/oembed?url=${encodeURIComponent(`${h.server.origin}/site-fr/watch/${await frenchId()}`)}`,
    );
    assert.equal((french.body as { provider_name: string }).provider_name, 'Réseau Sports Démo');
  });

  test("the spec's errors: 404 for what is not a watch page of an event here, 501 for another format", async () => {
    const id = h.id('free-finished');
    const ask = (url: string, format = 'json') =>
      fetch(`${h.server.origin}/oembed?url=${encodeURIComponent(url)}&format=${format}`).then((r) => r.status);
    assert.equal(await ask(`${h.server.hostOrigin}/site/watch/${id}`, 'xml'), 501);
    assert.equal(await ask(`${h.server.hostOrigin}/site/schedule`), 404);
    assert.equal(await ask(`https://elsewhere.example/site/watch/${id}`), 404);
    assert.equal(await ask(`${h.server.hostOrigin}/site/watch/99999999`), 404);
    // An event of another channel is not on this site.
    assert.equal(await ask(`${h.server.hostOrigin}/site/watch/${await frenchId()}`), 404);
    assert.equal(await ask('javascript:alert(1)'), 404);
    // Paid and sign-in events: the embed layout could not sell them or sign anyone in.
    assert.equal(await ask(`${h.server.hostOrigin}/site/watch/${h.id('paid-finished')}`), 404);
    assert.equal(await ask(`${h.server.hostOrigin}/site/watch/${h.id('register-finished')}`), 404);
    assert.equal((await fetch(`${h.server.origin}/oembed`)).status, 404);
  });

  test('the embed layout: the player alone, framable by any origin; other pages only by their own', async () => {
    const id = h.id('free-finished');
    const res = await fetch(`${h.server.origin}/embed/watch/${id}?channel=demo`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, new RegExp(`<channel-player event-id="${id}" embed autoplay muted></channel-player>`));
    assert.match(html, /data-channel-key="demo"/);
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors \*/);
    const site = await fetch(`${h.server.origin}/site/watch/${id}`);
    assert.match(site.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/);
    assert.equal((await fetch(`${h.server.origin}/embed/watch/${id}?channel=nope`)).status, 404);
    assert.equal((await fetch(`${h.server.origin}/embed/watch/${id}?channel="><script>`)).status, 404);
  });

  test('a production server serves the embed layout and its style, and answers oEmbed for no site', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'channel-oembed-prod-'));
    const prod = await startTestServer({ port: 0, dataDir: join(dir, 'data') });
    try {
      assert.equal((await fetch(`${prod.origin}/embed/watch/12?channel=demo`)).status, 200);
      assert.equal((await fetch(`${prod.origin}/embed.css`)).status, 200);
      const url = encodeURIComponent(`${prod.origin}/site/watch/12`);
      assert.equal((await fetch(`${prod.origin}/oembed?url=${url}`)).status, 404);
    } finally {
      await prod.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
