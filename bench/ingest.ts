/**
 * `npm run bench` (or alone: `node --import tsx bench/ingest.ts`): a pushed live
 * stream's delays, end to end through nginx-rtmp and our channel server, measured in headless Chromium.
 *
 * The set-up is production's, as in test/e2e/ingest.spec.ts: nginx with its RTMP module from scripts/nginx.mjs (the
 * repo's RTMP block, its hooks on our operator listener), a production channel server on its own ports with an
 * embedded database in a temp DATA_DIR and INGEST_RTMP_URL / INGEST_HLS_DIR / INGEST_GRACE_SECONDS, a channel and an
 * owner made with the command line. Each round makes a new free ingest event with `channel-server events add
 * --ingest` and reads its stream key from `channel-server events ingest ID`; ffmpeg pushes to that URL and key as an
 * encoder would (`-re`, x264 veryfast zerolatency, a key frame every 2 s, AAC, FLV over RTMP), while two viewers
 * wait for it: hls.js light (our player's engine) and a bare `<video>` (the browser's own HLS engine); one more of
 * each joins JOIN_SECONDS into the push. Each viewer's page (on a host page's origin, as an embed's is) asks the
 * channel API for the event as a guest (a free event: a guest has access), every 250 ms until its answer carries the
 * live stream, and plays that signed URL: the playlist and segments come from our server, out of nginx's folder.
 * The picture carries its frame number as a strip of 16 black or white blocks (ffmpeg's `geq`), which the viewer
 * reads back from the frame on screen (a canvas, once per shown frame), so that each frame's push time is known: the
 * push's start (our server's log line "ingest: a push started", written when nginx's `on_publish` reaches it, that is
 * when the encoder's first bytes arrive) plus its frame number over the frame rate.
 *
 * - first frame: from the push's start (or the page's opening, for a viewer who joins) to its first frame on screen;
 * - behind live: how far behind the encoder a viewer plays (now minus the shown frame's push time), the median over
 *   its frames from 15 s to 25 s after the push began (steady state).
 * Targets (issue 52): first frame at most 10 s; behind live at most 3 segment durations plus 1 s (7 s at 2 s).
 * The median of BENCH_INGEST_ROUNDS pushes (default 5). WebKit (Safari's engine) is measured when Playwright's WebKit
 * is installed (`npx playwright install webkit`; the project itself uses Debian's Chromium), else reported as not run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium, webkit, type Browser } from '@playwright/test';
// @ts-expect-error: a plain .mjs helper without type declarations
import { launchOptions } from '../scripts/chromium.mjs';
import { freePort, startNginx, type RunningNginx } from '../scripts/nginx.mjs';
import { FFMPEG } from '../server/media/ffmpeg.js';
import { ProductionServer } from '../test/e2e/production.js';

const ROOT = join(import.meta.dirname, '..');
const CHANNEL = 'benchingest';
/** nginx-rtmp's fragments (server/media/ingest/nginx-rtmp.conf: `hls_fragment 2s`, at the encoder's key frames). */
const SEGMENT_SECONDS = 2;
const FPS = 30;
const PUSH_SECONDS = 28;
const STEADY = { from: 15, to: 25 };
/** When the second viewer of each engine opens its page, seconds after the push began. */
const JOIN_SECONDS = 10;
/** Each round's event ends this long after its push (the reconnect grace; 60 s by default, not measured here). */
const GRACE_SECONDS = 5;
const TARGETS = { firstFrameMs: 10_000, behindMs: (3 * SEGMENT_SECONDS + 1) * 1000 };

/** One viewer's figures for one push. */
interface ViewerRun {
  firstFrameMs: number | null;
  behindMs: number | null;
}

/** What the bench reports: per engine, the rounds and their medians; or why an engine was not measured. */
export interface IngestBench {
  rounds: number;
  engines: Record<string, { runs: ViewerRun[]; firstFrameMs: number | null; behindMs: number | null } | string>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : null;
};

/** The viewer page: plays the event's live stream with hls.js light or, with ?engine=native, the browser's own. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>ingest bench</title></head>
<body><video id="video" muted autoplay playsinline width="320" height="180"></video>
<script type="module" src="/viewer.mjs"></script></body></html>
`;
const VIEWER = `import Hls from '/hls.light.mjs';
const params = new URLSearchParams(location.search);
const server = params.get('server');
const video = document.getElementById('video');
const canvas = new OffscreenCanvas(320, 20);
const context = canvas.getContext('2d', { willReadFrequently: true });
window.frames_ = [];
const read = () => {
  context.drawImage(video, 0, 0, 320, 20, 0, 0, 320, 20);
  const { data } = context.getImageData(0, 0, 320, 20);
  let n = 0;
  for (let bit = 0; bit < 16; bit++) {
    const i = (10 * 320 + bit * 20 + 10) * 4;
    if (data[i] > 128) n |= 1 << bit;
  }
  return n;
};
// Once per shown frame. A new source may drop the callback (Chromium's own engine, set again after an error): it is
// asked for again at each start.
let callback = 0;
const onFrame = () => {
  window.frames_.push({ at: Date.now(), n: read() });
  callback = video.requestVideoFrameCallback(onFrame);
};
const watch = () => {
  video.cancelVideoFrameCallback(callback);
  callback = video.requestVideoFrameCallback(onFrame);
};
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The event's live stream as the channel API hands it to a guest: there once the push has begun.
const streamUrl = async () => {
  const answer = await fetch(server + '/api/get_api_key', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ channel_key: params.get('channel') }),
  }).then((res) => res.json());
  for (;;) {
    const event = await fetch(server + '/api/events/' + params.get('event') + '?api_key=' + answer.data.api_key)
      .then((res) => res.json())
      .catch(() => undefined);
    const live = event && event.data && (event.data.media || []).find((m) => m.type === 'live');
    if (live) return new URL(live.url, server).href;
    await wait(250);
  }
};
// The playlist may lag the API's answer by a moment: ask again until it plays, as a viewer's page would.
const start = (src) => {
  if (params.get('engine') === 'native') {
    // The stream is on our server's origin, not the page's: a CORS request (the server allows any origin), else the
    // canvas is tainted and the frame number cannot be read back.
    video.crossOrigin = 'anonymous';
    video.src = src;
    watch();
    video.play().catch(() => {});
    video.onerror = () => setTimeout(() => start(src), 250);
    return;
  }
  const hls = new Hls();
  hls.on(Hls.Events.ERROR, (_, data) => {
    if (!data.fatal) return;
    hls.destroy();
    setTimeout(() => start(src), 250);
  });
  hls.on(Hls.Events.MANIFEST_PARSED, () => video.play().catch(() => {}));
  hls.loadSource(src);
  hls.attachMedia(video);
  watch();
};
streamUrl().then(start);
`;

/** Pushes a test pattern whose top strip carries the frame number for PUSH_SECONDS, as an encoder would. */
function push(url: string): ChildProcess {
  // Bit b of the frame number N as block b (20 px wide) of the top 20 rows: white for 1, black for 0.
  const strip = `geq=lum='255*mod(floor(N/pow(2,floor(X/20))),2)':cb=128:cr=128`;
  const filter = [
    '[0:v]scale=320:180[base]',
    `color=black:size=320x20:rate=${FPS},format=yuv420p,${strip}[bits]`,
    '[base][bits]overlay=0:0:shortest=1,format=yuv420p[v]',
  ].join(';');
  return spawn(
    FFMPEG,
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=${FPS}`, '-f', 'lavfi', '-i', 'sine'],
      ...['-filter_complex', filter, '-map', '[v]', '-map', '1:a', '-t', String(PUSH_SECONDS)],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-g', String(FPS * SEGMENT_SECONDS)],
      ...['-c:a', 'aac', '-f', 'flv', url],
    ],
    { stdio: 'ignore' },
  );
}

/** When our server accepted the push of `eventId`: its log line, written as nginx's on_publish reached it. */
function pushStarted(output: string, eventId: number): number | undefined {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; event?: number; time?: number };
    if (entry.msg === 'ingest: a push started' && entry.event === eventId) return entry.time;
  }
  return undefined;
}

/** The host page's origin: the viewer page, its script and hls.js light. */
function hostServer(): Server {
  const files: Record<string, [string, string]> = {
    '/index.html': ['text/html; charset=utf-8', PAGE],
    '/viewer.mjs': ['text/javascript', VIEWER],
    '/hls.light.mjs': [
      'text/javascript',
      readFileSync(join(ROOT, 'node_modules', 'hls.js', 'dist', 'hls.light.mjs'), 'utf8'),
    ],
  };
  return createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://host').pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file[0], 'Cache-Control': 'no-store' }).end(file[1]);
  });
}

/** Runs the bench; answers its figures (printed by the caller). */
export async function benchIngest(rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 5)): Promise<IngestBench> {
  const [port, operatorPort, hostPort] = [await freePort(), await freePort(), await freePort()];
  let nginx: RunningNginx;
  try {
    nginx = await startNginx({ hookOrigin: `http://127.0.0.1:${operatorPort}` });
  } catch (error) {
    // Not here and not installable by this process: the message says what to run.
    return { rounds: 0, engines: { all: `not run: ${(error as Error).message.replace(/\s*\n\s*/g, ' ')}` } };
  }
  // A production channel server with live ingest, started as an operator would (test/e2e/production.ts); the
  // operations listener on a free port (0): 9464, its default, may be another server's.
  const server = new ProductionServer('ingest-bench', { server: port, operator: operatorPort, metrics: 0 });
  const origin = `http://127.0.0.1:${port}`;
  const host = hostServer();
  const browsers: Record<string, Browser | string> = {};
  const runs: Record<string, ViewerRun[]> = {};
  try {
    await server.cli(['channel', 'create', '--key', CHANNEL, '--name', 'Ingest bench', '--currency', 'USD']);
    await server.addOwner(CHANNEL, 'owner@bench.example');
    await server.start({
      INGEST_RTMP_URL: nginx.rtmpUrl,
      INGEST_HLS_DIR: nginx.hlsDir,
      INGEST_GRACE_SECONDS: String(GRACE_SECONDS),
    });
    await new Promise<void>((resolve) => host.listen(hostPort, '127.0.0.1', resolve));
    browsers['hls.js light, Chromium'] = await chromium.launch(
      launchOptions() as Parameters<typeof chromium.launch>[0],
    );
    browsers['own engine, Chromium'] = browsers['hls.js light, Chromium'];
    browsers['own engine, WebKit'] = await webkit
      .launch()
      .catch((error: Error) => `not run: Playwright's WebKit is not installed (${error.message.split('\n')[0]})`);
    for (let round = 0; round < rounds; round++) {
      // A new free event each round, made and keyed as an operator does; scheduled before now, it is upcoming
      // until its encoder pushes.
      const starts = new Date(Date.now() - 600_000).toISOString().slice(0, 16);
      const eventId = Number(
        await server.cli([
          ...['events', 'add', '--channel', CHANNEL, '--name', `Bench push ${round + 1}`, '--starts', starts],
          ...['--tz', 'UTC', '--type', 'free', '--duration', '60', '--ingest'],
        ]),
      );
      const printed = await server.cli(['events', 'ingest', String(eventId), '--channel', CHANNEL]);
      const [, rtmpUrl, key] = /RTMP URL:\s+(\S+)\nStream key:\s+(\S+)/.exec(printed) ?? [];
      if (!rtmpUrl || !key) throw new Error(`bench: \`events ingest\` printed no URL and key:\n${printed}`);
      const open = async (name: string, browser: Browser) => {
        const page = await (await browser.newContext()).newPage();
        const engine = name.startsWith('hls.js') ? 'hls' : 'native';
        const query = new URLSearchParams({ engine, server: origin, channel: CHANNEL, event: String(eventId) });
        const at = Date.now();
        await page.goto(`http://127.0.0.1:${hostPort}/index.html?${query}`);
        return { page, at };
      };
      const live = Object.entries(browsers).filter((entry): entry is [string, Browser] => typeof entry[1] !== 'string');
      // One viewer of each engine waits for the push (its page open before); another joins JOIN_SECONDS into it.
      const waiting = await Promise.all(
        live.map(async ([name, browser]) => ({ name, ...(await open(name, browser)) })),
      );
      const encoder = push(`${rtmpUrl}/${key}`);
      const ended = new Promise((resolve) => encoder.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, JOIN_SECONDS * 1000));
      const joining = await Promise.all(
        live.map(async ([name, browser]) => ({ name, ...(await open(name, browser)) })),
      );
      await ended;
      const start = pushStarted(server.output, eventId);
      if (start === undefined) console.error(`bench: no "push started" line in the server's log for event ${eventId}`);
      const viewers = [
        ...waiting.map((v) => ({ ...v, key: `${v.name}|waiting`, from: start })),
        ...joining.map((v) => ({ ...v, key: `${v.name}|joining`, from: v.at })),
      ];
      for (const { key, page, from } of viewers) {
        const frames = (await page.evaluate('window.frames_')) as Array<{ at: number; n: number }>;
        await page.context().close();
        const behind = frames
          .filter((f) => start !== undefined && f.at - start >= STEADY.from * 1000 && f.at - start <= STEADY.to * 1000)
          .map((f) => f.at - (start! + (f.n / FPS) * 1000));
        (runs[key] ??= []).push({
          firstFrameMs: from !== undefined && frames[0] ? frames[0].at - from : null,
          behindMs: median(behind),
        });
      }
    }
  } finally {
    for (const browser of new Set(Object.values(browsers)))
      if (typeof browser !== 'string') await browser.close().catch(() => undefined);
    host.close();
    await server.stop();
    await nginx.stop();
  }
  const engines: IngestBench['engines'] = {};
  for (const [name, browser] of Object.entries(browsers)) {
    if (typeof browser === 'string') {
      engines[name] = browser;
      continue;
    }
    for (const role of ['waiting', 'joining']) {
      const list = runs[`${name}|${role}`] ?? [];
      const of = (key: keyof ViewerRun) => median(list.map((r) => r[key]).filter((v): v is number => v !== null));
      engines[`${name}, ${role === 'waiting' ? 'waiting for the push' : `joining ${JOIN_SECONDS} s in`}`] = {
        runs: list,
        firstFrameMs: of('firstFrameMs'),
        behindMs: of('behindMs'),
      };
    }
  }
  return { rounds, engines };
}

/** The bench's table rows: [measure, value, target]. */
export function ingestRows(bench: IngestBench): Array<[string, string, string]> {
  const ms = (v: number | null) => (v === null ? 'none' : `${(v / 1000).toFixed(1)} s`);
  const rows: Array<[string, string, string]> = [];
  for (const [name, figures] of Object.entries(bench.engines)) {
    if (typeof figures === 'string') {
      rows.push([`ingest: ${name}`, figures, '']);
      continue;
    }
    const each = (key: keyof ViewerRun) => figures.runs.map((r) => ms(r[key])).join(' / ');
    rows.push(
      [
        `ingest: first frame (from the push, or from joining), ${name}`,
        `${ms(figures.firstFrameMs)} (${each('firstFrameMs')})`,
        `<= ${ms(TARGETS.firstFrameMs)}`,
      ],
      [
        `ingest: behind the encoder, ${name}`,
        `${ms(figures.behindMs)} (${each('behindMs')})`,
        `<= ${ms(TARGETS.behindMs)}`,
      ],
    );
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bench = await benchIngest();
  for (const [measure, value, target] of ingestRows(bench)) console.log(`${measure}: ${value}  ${target}`);
}
