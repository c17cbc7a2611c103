// oEmbed as a consumer uses it: a partner's CMS gets a watch link, finds the discovery link in the page, asks the
// provider for the JSON, and puts its HTML (the iframe of the embed layout) into a page of its own origin, where
// the player plays.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN } from './helpers';

/** The French channel's free recording (the English one's are counted by player.spec.ts). */
async function frenchRecording(request: import('@playwright/test').APIRequestContext): Promise<number> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/events?channel_key=demo-fr`);
  return ((await answer.json()) as { data: Record<string, number> }).data['free-finished']!;
}

test('a watch link pasted into an oEmbed consumer becomes a player that plays on the partner page', async ({
  page,
  request,
}) => {
  const id = await frenchRecording(request);
  const watchUrl = `${HOST_ORIGIN}/site-fr/watch/${id}`;

  // 1. Discovery: the watch page names its oEmbed endpoint.
  const html = await (await request.get(watchUrl)).text();
  const href = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html)?.[1];
  expect(href, 'the discovery link').toBeTruthy();
  const endpoint = href!.replaceAll('&amp;', '&');

  // 2. The JSON, at the width the partner's column has.
  const answer = await request.get(`${endpoint}&maxwidth=480`);
  expect(answer.status()).toBe(200);
  const oembed = (await answer.json()) as Record<string, string | number>;
  expect(oembed).toMatchObject({ version: '1.0', type: 'video', provider_name: 'Réseau Sports Démo', width: 480 });
  expect(oembed.height).toBe(270);

  // 3. The partner's page, on an origin of its own, with the HTML as given; the player inside plays. It is served
  // from this machine: Chromium does not let a page that did not come from a local address frame one (Local
  // Network Access), which a partner and a channel on the internet never meet.
  const partner = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Partner</title></head><body><h1>Tonight</h1>${String(oembed.html)}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  const { port } = partner.address() as AddressInfo;
  try {
    await page.goto(`http://127.0.0.1:${port}/`);
    const frame = page.frameLocator('iframe');
    const player = frame.locator('channel-player');
    await expect(player).toHaveAttribute('embed', '');
    await expect(page.locator('iframe')).toHaveAttribute('title', String(oembed.title));
    // Autoplay, muted: the preroll a new visitor sees first, then the recording, playing either way.
    await expect
      .poll(
        () =>
          player.evaluate(
            (el) => (el as HTMLMediaElement).paused === false && (el as HTMLMediaElement).currentTime > 0,
          ),
        {
          timeout: 20_000,
        },
      )
      .toBe(true);
  } finally {
    partner.close();
  }
});
