/**
 * `npm run bench` (or alone: `node --import tsx bench/ingest.ts`): a pushed live stream's delays, end to end through
 * nginx-rtmp, measured in headless Chromium.
 *
 * Each round pushes a new stream with ffmpeg as an encoder would (`-re`, x264 veryfast zerolatency, a key frame every
 * 2 s, AAC, FLV over RTMP) into a throw-away nginx with the RTMP module (the configuration below: HLS in 2 s
 * fragments, the whole push kept), while two viewers wait for it: hls.js light (our player's engine) and a bare
 * `<video>` (the browser's own HLS engine); one more of each joins JOIN_SECONDS into the push. The picture carries
 * its frame number as a strip of 16 black or white blocks (ffmpeg's `geq`), which the viewer reads back from the
 * frame on screen (a canvas, once per shown frame), so that each frame's push time is known: the push's start
 * (nginx's `on_publish` call, when the encoder's first bytes arrive) plus its frame number over the frame rate.
 *
 * - first frame: from the push's start (or the page's opening, for a viewer who joins) to its first frame on screen;
 * - behind live: how far behind the encoder a viewer plays (now minus the shown frame's push time), the median over
 *   its frames from 15 s to 25 s after the push began (steady state).
 * Targets (issue 52): first frame at most 10 s; behind live at most 3 segment durations plus 1 s (7 s at 2 s).
 * The median of BENCH_INGEST_ROUNDS pushes (default 5). WebKit (Safari's engine) is measured when Playwright's WebKit
 * is installed (`npx playwright install webkit`; the project itself uses Debian's Chromium), else reported as not run.
 *
 * Until the server serves an ingest event's folder under its signed URLs (part I1), the viewers read the folder
 * through nginx's own HTTP server: the figures are those of the packaging and the players, not of our server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, webkit, type Browser } from '@playwright/test';
// @ts-expect-error: a plain .mjs helper without type declarations
import { launchOptions } from '../scripts/chromium.mjs';
import { FFMPEG } from '../server/media/ffmpeg.js';

const SEGMENT_SECONDS = 2;
const FPS = 30;
const PUSH_SECONDS = 28;
const STEADY = { from: 15, to: 25 };
/** When the second viewer of each engine opens its page, seconds after the push began. */
const JOIN_SECONDS = 10;
const TARGETS = { firstFrameMs: 10_000, behindMs: (3 * SEGMENT_SECONDS + 1) * 1000 };
const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';

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

/** A free TCP port on the loopback (listened to and closed). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The throw-away nginx configuration: RTMP in, HLS out into `dir/hls/{stream}/`, served over HTTP with a page. */
function nginxConf(dir: string, rtmp: number, http: number, hook: number): string {
  return `daemon off;
user root;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
load_module ${RTMP_MODULE};
events { worker_connections 256; }
rtmp {
  server {
    listen 127.0.0.1:${rtmp};
    application live {
      live on;
      hls on;
      hls_path ${dir}/hls;
      hls_nested on;
      hls_fragment ${SEGMENT_SECONDS}s;
      hls_playlist_length 4h;
      hls_continuous on;
      hls_cleanup off;
      on_publish http://127.0.0.1:${hook}/publish;
    }
  }
}
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  types { text/html html; text/javascript mjs; application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
  server {
    listen 127.0.0.1:${http};
    root ${dir}/www;
    location /hls/ { alias ${dir}/hls/; add_header Cache-Control no-cache; }
  }
}
`;
}

/** The viewer page: plays ?src= with hls.js light or, with ?engine=native, the browser's own; reads frame numbers. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>ingest bench</title></head>
<body><video id="video" muted autoplay playsinline width="320" height="180"></video>
<script type="module" src="/viewer.mjs"></script></body></html>
`;
const VIEWER = `import Hls from '/hls.light.mjs';
const params = new URLSearchParams(location.search);
const src = params.get('src');
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
const onFrame = () => {
  window.frames_.push({ at: Date.now(), n: read() });
  video.requestVideoFrameCallback(onFrame);
};
video.requestVideoFrameCallback(onFrame);
// Before the push, the playlist is missing: ask again until it is there, as a viewer's page would.
const start = () => {
  if (params.get('engine') === 'native') {
    video.src = src;
    video.play().catch(() => {});
    video.onerror = () => setTimeout(start, 250);
    return;
  }
  const hls = new Hls();
  hls.on(Hls.Events.ERROR, (_, data) => {
    if (!data.fatal) return;
    hls.destroy();
    setTimeout(start, 250);
  });
  hls.on(Hls.Events.MANIFEST_PARSED, () => video.play().catch(() => {}));
  hls.loadSource(src);
  hls.attachMedia(video);
};
start();
`;

/** Starts nginx with the configuration; answers it and its ports once it listens. */
async function startNginx(dir: string, hook: number) {
  const [rtmp, http] = [await freePort(), await freePort()];
  for (const sub of ['hls', 'www', 'tmp']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'nginx.conf'), nginxConf(dir, rtmp, http, hook));
  const child = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx stopped: ${err}`);
    const up = await fetch(`http://127.0.0.1:${http}/index.html`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { child, rtmp, http };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not start: ${err}`);
}

/** Pushes a test pattern whose top strip carries the frame number for PUSH_SECONDS, as an encoder would. */
function push(rtmp: number, stream: string): ChildProcess {
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
      ...['-c:a', 'aac', '-f', 'flv', `rtmp://127.0.0.1:${rtmp}/live/${stream}`],
    ],
    { stdio: 'ignore' },
  );
}

/** Runs the bench; answers its figures (printed by the caller). */
export async function benchIngest(rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 5)): Promise<IngestBench> {
  if (!existsSync(NGINX) || !existsSync(RTMP_MODULE))
    return {
      rounds: 0,
      engines: {
        all: 'not run: nginx and its RTMP module are missing (apt-get install -y nginx libnginx-mod-rtmp, as root)',
      },
    };
  const dir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  const published = new Map<string, number>();
  const hook: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const name = new URLSearchParams(body).get('name');
      if (name) published.set(name, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  mkdirSync(join(dir, 'www'));
  writeFileSync(join(dir, 'www', 'index.html'), PAGE);
  writeFileSync(join(dir, 'www', 'viewer.mjs'), VIEWER);
  copyFileSync(
    join(import.meta.dirname, '..', 'node_modules', 'hls.js', 'dist', 'hls.light.mjs'),
    join(dir, 'www', 'hls.light.mjs'),
  );
  const nginx = await startNginx(dir, (hook.address() as AddressInfo).port);

  const browsers: Record<string, Browser | string> = {
    'hls.js light, Chromium': await chromium.launch(launchOptions() as Parameters<typeof chromium.launch>[0]),
  };
  browsers['own engine, Chromium'] = browsers['hls.js light, Chromium']!;
  browsers['own engine, WebKit'] = await webkit
    .launch()
    .catch((error: Error) => `not run: Playwright's WebKit is not installed (${error.message.split('\n')[0]})`);
  const runs: Record<string, ViewerRun[]> = {};
  try {
    for (let round = 0; round < rounds; round++) {
      const stream = `event-${round + 1}`;
      const src = `http://127.0.0.1:${nginx.http}/hls/${stream}/index.m3u8`;
      const open = async (name: string, browser: Browser) => {
        const page = await (await browser.newContext()).newPage();
        const engine = name.startsWith('hls.js') ? 'hls' : 'native';
        const at = Date.now();
        await page.goto(`http://127.0.0.1:${nginx.http}/index.html?engine=${engine}&src=${encodeURIComponent(src)}`);
        return { page, at };
      };
      const live = Object.entries(browsers).filter((entry): entry is [string, Browser] => typeof entry[1] !== 'string');
      // One viewer of each engine waits for the push (its page open before); another joins JOIN_SECONDS into it.
      const waiting = await Promise.all(
        live.map(async ([name, browser]) => ({ name, ...(await open(name, browser)) })),
      );
      const encoder = push(nginx.rtmp, stream);
      const ended = new Promise((resolve) => encoder.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, JOIN_SECONDS * 1000));
      const joining = await Promise.all(
        live.map(async ([name, browser]) => ({ name, ...(await open(name, browser)) })),
      );
      await ended;
      const start = published.get(stream);
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
    nginx.child.kill('SIGTERM');
    await new Promise((resolve) => nginx.child.once('close', resolve));
    hook.close();
    rmSync(dir, { recursive: true, force: true });
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
