// A live game pushed from an encoder goes on air (docs/streams.md, "Ingest"): a production server with live ingest,
// nginx with its RTMP module from scripts/nginx.mjs (which installs Debian's packages when run as root), and ffmpeg
// pushing a test pattern with a tone over RTMP as OBS would, to the URL and key `channel-server events ingest` prints.
// A wrong key is refused by nginx; the push puts the game live on the schedule; a viewer's first frame comes within
// 10 s of the push starting (measured precisely by the bench); the encoder drops and comes back within the reconnect
// grace and the same live stream goes on; after five minutes of stream the viewer seeks back to the first minute;
// once the push has ended and the grace passed, the game is finished and its recording plays from the start, and a
// clip cut from it (by a fan the channel file gave the clipping right) downloads as an MP4 that ffprobe reads.
//
// To keep CI time small, the first push is real time (what a viewer meets at the start) and the second one sends its
// five minutes four times faster than real time (ffmpeg -readrate 4): nginx packages it by its timestamps, so the
// folder holds five minutes of game after about 75 s. The reconnect grace is 15 s here (60 s by default).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E_PORT } from './ports';
import { ProductionServer } from './production';
import { startNginx, type RunningNginx } from '../../scripts/nginx.mjs';
import { FFMPEG, FFPROBE } from '../../server/media/ffmpeg.js';

const run = promisify(execFile);

/** This spec's own ports, after those of operating.spec.ts: the production server, its operator API, the host. */
const production = new ProductionServer('ingest', {
  server: E2E_PORT + 7,
  operator: E2E_PORT + 8,
  metrics: E2E_PORT + 11,
});
const HOST_PORT = E2E_PORT + 9;
const SERVER = production.url;
const HOST = `http://localhost:${HOST_PORT}`;
const CHANNEL = 'lakeside';
const GRACE_SECONDS = 15;
const FAN = { email: 'fan@lakeside.example', password: 'fan-pass-1' };

let nginx: RunningNginx | undefined;
let host: http.Server | undefined;
let eventId = 0;
let rtmpUrl = '';
let streamKey = '';
const pushes: ChildProcess[] = [];

const cli = (args: string[], dataDir?: string) => production.cli(args, dataDir);

/**
 * ffmpeg pushing a 640x360 test pattern at 30 fps with a 1 kHz tone for `seconds`, as an encoder does (H.264 with a
 * keyframe every 2 s, AAC, FLV over RTMP); `readrate` above 1 sends it faster than real time. Resolves with ffmpeg's
 * exit code and its error output.
 */
function push(key: string, seconds: number, readrate = 1): { child: ChildProcess; done: Promise<[number, string]> } {
  const child = spawn(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ...(readrate === 1 ? ['-re'] : ['-readrate', String(readrate)]),
    ...['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=30:duration=${seconds}`],
    ...(readrate === 1 ? ['-re'] : ['-readrate', String(readrate)]),
    ...['-f', 'lavfi', '-i', `sine=frequency=1000:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-g', '60', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '96k', '-f', 'flv', `${rtmpUrl}/${key}`],
  ]);
  pushes.push(child);
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const done = new Promise<[number, string]>((resolve) => child.once('exit', (code) => resolve([code ?? 1, errors])));
  return { child, done };
}

/** The seconds nginx has packaged so far (the sum of its playlist's EXTINF). */
function packagedSeconds(): number {
  const file = path.join(nginx!.hlsDir, `event-${eventId}`, 'index.m3u8');
  if (!fs.existsSync(file)) return 0;
  return [...fs.readFileSync(file, 'utf8').matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** The event as a guest's channel API answers it. */
async function eventAnswer(): Promise<{ stream_status: string; duration: number | null }> {
  const key = await (
    await fetch(`${SERVER}/api/get_api_key`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel_key: CHANNEL }),
    })
  ).json();
  const res = await fetch(`${SERVER}/api/events/${eventId}?api_key=${key.data.api_key}`);
  return (await res.json()).data;
}

function hostPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <link rel="icon" href="data:,">
  <title>${title}</title>
  <script src="${SERVER}/channel-elements.js" data-channel-key="${CHANNEL}" async></script>
</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>`;
}

/** The player's video: where it plays and whether it has a frame. */
const videoState = (page: Page) =>
  page.locator('channel-player video').evaluate((video: HTMLVideoElement) => ({
    time: video.currentTime,
    ready: video.readyState,
    paused: video.paused,
    seekableEnd: video.seekable.length ? video.seekable.end(video.seekable.length - 1) : 0,
    duration: video.duration,
  }));

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  nginx = await startNginx({ hookOrigin: production.operatorUrl });
  rtmpUrl = nginx.rtmpUrl;
  // The channel, made and exported in a scratch folder, comes in by `import` with one fan's account (a channel file
  // may carry accounts: the demo's do) who may cut and download clips.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'channel-ingest-made-'));
  const file = path.join(scratch, 'lakeside.json');
  await cli(['channel', 'create', '--key', CHANNEL, '--name', 'Lakeside Sports', '--currency', 'USD'], scratch);
  await cli(['export', '--channel', CHANNEL, '--out', file], scratch);
  const channelFile = JSON.parse(fs.readFileSync(file, 'utf8'));
  channelFile.users = [{ ...FAN, capabilities: ['watch', 'clipping', 'download_clip'] }];
  fs.writeFileSync(file, JSON.stringify(channelFile));
  await cli(['import', file]);
  fs.rmSync(scratch, { recursive: true, force: true });
  await production.addOwner(CHANNEL, 'owner@lakeside.example');
  await production.start({
    INGEST_RTMP_URL: nginx.rtmpUrl,
    INGEST_HLS_DIR: nginx.hlsDir,
    INGEST_GRACE_SECONDS: String(GRACE_SECONDS),
  });
  // Scheduled an hour ago: an ingest event is upcoming until its encoder pushes, whatever its schedule says.
  const starts = new Date(Date.now() - 3600_000).toISOString().slice(0, 16);
  eventId = Number(
    await cli([
      ...['events', 'add', '--channel', CHANNEL, '--name', 'Lakeside derby', '--starts', starts],
      ...['--tz', 'UTC', '--type', 'free', '--duration', '120', '--ingest'],
    ]),
  );
  host = http
    .createServer((req, res) => {
      const url = new URL(req.url ?? '/', HOST);
      const body =
        url.pathname === '/schedule.html'
          ? hostPage('Lakeside schedule', '<channel-schedule kind="all"></channel-schedule>')
          : url.pathname === '/watch.html'
            ? hostPage('Lakeside derby', `<channel-player event-id="${eventId}" autoplay muted></channel-player>`)
            : undefined;
      res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(body ?? 'not found');
    })
    .listen(HOST_PORT);
});

test.afterAll(async () => {
  for (const child of pushes) if (child.exitCode === null) child.kill('SIGKILL');
  host?.close();
  await production.stop();
  await nginx?.stop();
});

const card = (page: Page) =>
  page.locator('channel-schedule [part~="event"]').filter({ has: page.locator(`a[href$="/watch/${eventId}"]`) });

test('the command line prints the RTMP URL and the stream key; nginx refuses a wrong key', async () => {
  const printed = await cli(['events', 'ingest', String(eventId), '--channel', CHANNEL]);
  const [, url, key] = /RTMP URL:\s+(\S+)\nStream key:\s+(\S+)/.exec(printed) ?? [];
  expect(url).toBe(rtmpUrl);
  expect(key).toMatch(/^[\w-]{32}$/);
  streamKey = key!;
  // A rotation makes a new key; the old one is refused from then on.
  const rotated = await cli(['events', 'ingest', String(eventId), '--channel', CHANNEL, '--rotate']);
  const newKey = /Stream key:\s+(\S+)/.exec(rotated)![1]!;
  expect(newKey).not.toBe(streamKey);
  for (const wrong of [streamKey, 'not-the-key']) {
    const [code, errors] = await push(wrong, 5).done;
    expect(code).not.toBe(0);
    expect(errors).toMatch(/Input\/output error|Connection refused|Server error/i);
  }
  streamKey = newKey;
  expect(packagedSeconds()).toBe(0);
  expect((await eventAnswer()).stream_status).toBe('upcoming');
  expect(production.output).not.toContain(streamKey);
});

test('a push goes live: the schedule shows it, a viewer sees a frame within 10 s, a drop within the grace continues', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const started = Date.now();
  const first = push(streamKey, 16);
  await expect.poll(async () => (await eventAnswer()).stream_status, { timeout: 10_000 }).toBe('live');
  await page.goto(`${HOST}/watch.html`);
  await expect
    .poll(
      async () => {
        const state = await videoState(page).catch(() => undefined);
        return Boolean(state && state.ready >= 2 && state.time > 0);
      },
      { timeout: 20_000, intervals: [100] },
    )
    .toBe(true);
  const firstFrame = Date.now() - started;
  test.info().annotations.push({ type: 'first frame after the push began (ms)', description: String(firstFrame) });
  expect(firstFrame).toBeLessThan(10_000);

  const schedule = await page.context().newPage();
  await schedule.goto(`${HOST}/schedule.html`);
  await expect(card(schedule).locator('[part~="badge-live"]')).toBeVisible({ timeout: 15_000 });
  await schedule.close();

  // The encoder drops (the first push ends) and comes back two seconds later: the same live stream goes on.
  const [code] = await first.done;
  expect(code).toBe(0);
  await page.waitForTimeout(2000);
  expect((await eventAnswer()).stream_status).toBe('live');
  const before = packagedSeconds();
  const second = push(streamKey, 300, 4);
  // Five minutes of game, most of it sent faster than real time.
  await expect.poll(packagedSeconds, { timeout: 150_000, intervals: [1000] }).toBeGreaterThan(300);
  expect((await eventAnswer()).stream_status).toBe('live');
  const playlist = fs.readFileSync(path.join(nginx!.hlsDir, `event-${eventId}`, 'index.m3u8'), 'utf8');
  expect(playlist.match(/#EXT-X-DISCONTINUITY/g)?.length, 'one folder, two pushes').toBe(2);
  expect(before).toBeGreaterThan(10);

  // The viewer seeks back to the first minute (the DVR window is the whole event) and it plays there.
  await page.locator('channel-player video').evaluate((video: HTMLVideoElement) => {
    video.currentTime = 30;
  });
  await expect
    .poll(
      async () => {
        const state = await videoState(page);
        return state.time > 30.5 && state.time < 50 && state.ready >= 2;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  expect((await videoState(page)).seekableEnd).toBeGreaterThan(250);
  expect((await second.done)[0]).toBe(0);
  expect(production.output).not.toContain(streamKey);
});

test('after the push ends and the grace passes, the game is finished and plays from the start', async ({ page }) => {
  test.setTimeout(120_000);
  await expect
    .poll(async () => (await eventAnswer()).stream_status, { timeout: (GRACE_SECONDS + 20) * 1000 })
    .toBe('finished');
  const event = await eventAnswer();
  // The recording's own length, not the schedule's two hours.
  expect(event.duration).toBeGreaterThan(300);
  expect(event.duration).toBeLessThan(330);
  // A push now is refused: the game is over.
  const [code] = await push(streamKey, 3).done;
  expect(code).not.toBe(0);

  await page.goto(`${HOST}/watch.html`);
  await expect
    .poll(
      async () => {
        const state = await videoState(page).catch(() => undefined);
        return Boolean(state && state.ready >= 2 && state.time > 0.5 && state.time < 20);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const state = await videoState(page);
  expect(state.duration).toBeGreaterThan(300);
  expect(production.output).not.toContain(streamKey);
});

test('a clip of the recording downloads as an MP4 that ffprobe reads', async () => {
  test.setTimeout(120_000);
  const api = (await (await fetch(`${SERVER}/api/get_api_key`, json({ channel_key: CHANNEL }))).json()).data.api_key;
  const signedIn = await (await fetch(`${SERVER}/api/v2/auth/login`, json({ api_key: api, ...FAN }))).json();
  const auth = { Authorization: `Bearer ${signedIn.data.token}` };
  // Ten seconds from the first minute of the game, as the clip maker sends them.
  const made = await fetch(
    `${SERVER}/api/clip`,
    json(
      { api_key: api, event_id: eventId, name: 'Opening goal', start_time: 40, duration: 10, tags: ['highlight'] },
      auth,
    ),
  );
  expect(made.status, await made.clone().text()).toBe(201);
  const id = (await made.json()).data.id as number;
  await expect
    .poll(
      async () => {
        const list = await (await fetch(`${SERVER}/api/clips/user?api_key=${api}`, { headers: auth })).json();
        return (list.data as Array<{ id: number; status: string }>).find((clip) => clip.id === id)?.status;
      },
      { timeout: 60_000 },
    )
    .toBe('done');
  const link = await (await fetch(`${SERVER}/api/clip/download/${id}?api_key=${api}`, { headers: auth })).json();
  const mp4 = await fetch(link.data.url);
  expect(mp4.status).toBe(200);
  expect(mp4.headers.get('content-type')).toBe('video/mp4');
  const file = path.join(production.dataDir, `clip-${id}.mp4`);
  fs.writeFileSync(file, new Uint8Array(await mp4.arrayBuffer()));
  const { stdout } = await run(FFPROBE, [
    ...['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'csv=p=0', file],
  ]);
  const lines = stdout.trim().split('\n');
  expect(lines.slice(0, 2)).toEqual(['h264', 'aac']);
  expect(Math.round(Number(lines[2]))).toBe(10);
});

/** A JSON POST's fetch options. */
function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
