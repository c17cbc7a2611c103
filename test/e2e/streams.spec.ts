// A channel's own streams (docs/streams.md), on a production server made by the command line: an event whose stream
// is a URL of the channel's packager or CDN (here a small HTTP server of the test's, serving a copy of the generated
// HLS media with CORS, as a CDN would) plays in <channel-player> for a signed-in viewer, and a guest's answer carries
// no URL; an event on a signed Mux playback id hands its viewer a playback token that verifies with the public half
// of the channel's signing key (stored with `channel-server secrets set … mux`), names the playback id and expires.
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { expect, test } from './fixtures';
import { E2E_PORT } from './ports';
import { ProductionServer } from './production';

const ROOT = path.join(import.meta.dirname, '..', '..');

/** This spec's own ports, after those of the run (ports.ts) and of operating.spec.ts (+4 to +6). */
const production = new ProductionServer('streams', {
  server: E2E_PORT + 12,
  operator: E2E_PORT + 13,
  metrics: E2E_PORT + 16,
});
const HOST_PORT = E2E_PORT + 14;
const CDN_PORT = E2E_PORT + 15;
const SERVER = production.url;
const HOST = `http://localhost:${HOST_PORT}`;
const CDN = `http://127.0.0.1:${CDN_PORT}`;
const CHANNEL = 'lakeside';
const PLAYBACK_ID = 'LakesideSignedPlayback0123456789abcdef';
const KEY_ID = 'LakesideKey0123456789';

let host: http.Server | undefined;
let cdn: http.Server | undefined;
/** Paths the test's CDN was asked for. */
const fetched: string[] = [];
let apiKey = '';
const ids: Record<string, number> = {};
const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

const cli = (args: string[]) => production.cli(args);

/** `2026-12-07T15:04`: a UTC wall clock time, as --starts takes it with --tz UTC. */
const utcLocal = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/**
 * The channel's "CDN": a copy of the generated media's 360p rendition (made by the server's first start in
 * server/.media) and an on-demand playlist of it, served with CORS as a CDN serves a player on another origin.
 */
function startCdn(): void {
  const media = path.join(ROOT, 'server', '.media');
  const version = fs
    .readdirSync(media)
    .filter((name) => /^v\d+$/.test(name) && fs.existsSync(path.join(media, name, 'manifest.json')))
    .sort((a, b) => Number(b.slice(1)) - Number(a.slice(1)))[0]!;
  const manifest = JSON.parse(fs.readFileSync(path.join(media, version, 'manifest.json'), 'utf8')) as {
    main: { renditions: Array<{ name: string; segments: Array<{ file: string; duration: number }> }> };
  };
  const rendition = manifest.main.renditions.find((r) => r.name === '360p') ?? manifest.main.renditions[0]!;
  const copy = path.join(production.dataDir, 'cdn');
  fs.mkdirSync(copy);
  for (const segment of rendition.segments)
    fs.copyFileSync(path.join(media, version, 'main', rendition.name, segment.file), path.join(copy, segment.file));
  const target = Math.ceil(Math.max(...rendition.segments.map((s) => s.duration)));
  const playlist = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    ...rendition.segments.flatMap((s) => [`#EXTINF:${s.duration.toFixed(3)},`, s.file]),
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
  cdn = http
    .createServer((req, res) => {
      const name = new URL(req.url ?? '/', CDN).pathname.replace(/^\/replay\//, '');
      fetched.push(name);
      const headers = { 'Access-Control-Allow-Origin': '*' };
      if (name === 'master.m3u8') {
        res.writeHead(200, { ...headers, 'Content-Type': 'application/vnd.apple.mpegurl' });
        res.end(playlist);
      } else if (/^\d+\.ts$/.test(name) && fs.existsSync(path.join(copy, name))) {
        res.writeHead(200, { ...headers, 'Content-Type': 'video/mp2t' });
        fs.createReadStream(path.join(copy, name)).pipe(res);
      } else {
        res.writeHead(404, headers);
        res.end();
      }
    })
    .listen(CDN_PORT, '127.0.0.1');
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(300_000);
  await cli(['channel', 'create', '--key', CHANNEL, '--name', 'Lakeside Sports', '--currency', 'USD']);
  await production.addOwner(CHANNEL, 'owner@lakeside.example');
  await production.start();
  startCdn();
  const event = async (name: string, startsAgoMinutes: number, stream: string[]) =>
    Number(
      await cli([
        'events',
        'add',
        '--channel',
        CHANNEL,
        '--name',
        name,
        '--starts',
        utcLocal(Date.now() - startsAgoMinutes * 60_000),
        '--tz',
        'UTC',
        '--type',
        'register',
        '--duration',
        '60',
        ...stream,
      ]),
    );
  // Finished an hour ago: its recording plays from the channel's CDN.
  ids.replay = await event('Lakeside replay', 120, ['--stream-url', `${CDN}/replay/master.m3u8`]);
  ids.mux = await event('Lakeside on Mux', 10, ['--mux-playback-id', PLAYBACK_ID, '--mux-signed']);
  const keyFile = path.join(production.dataDir, 'mux-key.txt');
  fs.writeFileSync(keyFile, Buffer.from(privateKey.export({ type: 'pkcs1', format: 'pem' })).toString('base64'));
  await cli(['secrets', 'set', '--channel', CHANNEL, 'mux', '--key-id', KEY_ID, '--private-key', keyFile]);
  const listed = await cli(['events', 'list', '--channel', CHANNEL]);
  expect(listed).toMatch(new RegExp(`^${ids.replay} .* url +Lakeside replay$`, 'm'));
  expect(listed).toMatch(new RegExp(`^${ids.mux} .* mux \\(signed\\) +Lakeside on Mux$`, 'm'));
  apiKey = (
    (await (await request.post(`${SERVER}/api/get_api_key`, { data: { channel_key: CHANNEL } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  host = http
    .createServer((req, res) => {
      const id = new URL(req.url ?? '/', HOST).searchParams.get('event') ?? '';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Lakeside</title>
<script src="${SERVER}/channel-elements.js" data-channel-key="${CHANNEL}" async></script></head>
<body><channel-player event-id="${id.replace(/\D/g, '')}" autoplay muted></channel-player></body></html>`);
    })
    .listen(HOST_PORT);
});

test.afterAll(async () => {
  host?.close();
  cdn?.close();
  await production.stop();
});

/** A new viewer's token (registered through the channel API, as the elements' sign-up does). */
async function viewerToken(request: import('@playwright/test').APIRequestContext): Promise<string> {
  const answer = await request.post(`${SERVER}/api/v2/auth/register`, {
    data: {
      api_key: apiKey,
      email: `viewer-${Date.now()}-${Math.round(Math.random() * 1e6)}@lakeside.example`,
      password: 'viewer-pass-1',
      password_confirmation: 'viewer-pass-1',
      first_name: 'Val',
      last_name: 'Viewer',
      terms: true,
    },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: { token: string } }).data.token;
}

type Media = Array<{ type: string; url: string }>;
async function eventMedia(request: import('@playwright/test').APIRequestContext, id: number, bearer?: string) {
  const answer = await request.get(`${SERVER}/api/events/${id}?api_key=${apiKey}`, {
    headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: { has_access: boolean; stream_status: string; media: Media } }).data;
}

test("a url event plays from the channel's CDN for a signed-in viewer; a guest's answer has no URL", async ({
  page,
  request,
}) => {
  const guest = await eventMedia(request, ids.replay!);
  expect(guest.has_access).toBe(false);
  expect(guest.media).toEqual([]);
  expect(JSON.stringify(guest)).not.toContain(CDN);

  const bearer = await viewerToken(request);
  const viewer = await eventMedia(request, ids.replay!, bearer);
  expect(viewer.stream_status).toBe('finished');
  expect(viewer.media).toEqual([{ type: 'vod', url: `${CDN}/replay/master.m3u8` }]);

  await page.addInitScript(
    ([key, value]) =>
      localStorage.setItem(`rudy_token.${key}`, JSON.stringify({ v: value, e: Date.now() + 3_600_000 })),
    [CHANNEL, bearer] as const,
  );
  fetched.length = 0;
  await page.goto(`${HOST}/?event=${ids.replay}`);
  const player = page.locator('channel-player');
  await expect
    .poll(() => player.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
    .toBeGreaterThan(1);
  expect(fetched).toContain('master.m3u8');
  expect(fetched.some((name) => name.endsWith('.ts'))).toBe(true);
});

test("a signed Mux event's answer carries a token that verifies with the public key, names the playback id and expires", async ({
  request,
}) => {
  const guest = await eventMedia(request, ids.mux!);
  expect(guest.media).toEqual([]);
  const viewer = await eventMedia(request, ids.mux!, await viewerToken(request));
  expect(viewer.stream_status).toBe('live');
  const live = viewer.media.find((m) => m.type === 'live')!.url;
  expect(live.startsWith(`https://stream.mux.com/${PLAYBACK_ID}.m3u8?token=`)).toBe(true);
  const jwt = new URL(live).searchParams.get('token')!;
  expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', kid: KEY_ID });
  const key = await importSPKI(publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'RS256');
  const { payload } = await jwtVerify(jwt, key, { audience: 'v' });
  expect(payload.sub).toBe(PLAYBACK_ID);
  expect(payload.exp! * 1000).toBeGreaterThan(Date.now());
  expect(payload.exp! * 1000).toBeLessThanOrEqual(Date.now() + 2 * 3600_000 + 60_000);
  await expect(
    jwtVerify(jwt, key, { audience: 'v', currentDate: new Date(payload.exp! * 1000 + 1000) }),
  ).rejects.toThrow(/exp/);
  const storyboard = viewer.media.find((m) => m.type === 'thumbnails')!.url;
  const boardToken = new URL(storyboard).searchParams.get('token')!;
  expect((await jwtVerify(boardToken, key, { audience: 's' })).payload.sub).toBe(PLAYBACK_ID);
  // Nothing of a Mux stream is on the server: the key never leaves it, and its log holds no token.
  expect(production.output).not.toContain(jwt);
  expect(production.output).not.toMatch(/BEGIN RSA PRIVATE KEY/);
});
