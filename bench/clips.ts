/**
 * The clips and library benchmark (part of `npm run bench`):
 * - clip turnaround: from `POST clip` to the clip reading `done` in `GET clips/user`, for a 10 s and a 60 s clip
 *   of a finished event's recording, as `fan@example.com` (who has `clipping`), polled every 100 ms; each run cuts
 *   a new range, so nothing comes from a cache;
 * - the library page (`/site/vod_library` on the CMS host): our JavaScript before its first card, and the time
 *   from navigation to that card (median of several loads, a fresh browser context each).
 */
import { gzipSync } from 'node:zlib';
import type { Browser } from '@playwright/test';
import { watchMarks } from './marks.js';

/** The figures. */
export interface ClipsBench {
  turnaround10sMs: number[];
  turnaround60sMs: number[];
  libraryJsGzipBytes: number;
  libraryJsFiles: { url: string; gzip_bytes: number }[];
  libraryFirstCardMs: number[];
}

/** A library card in the site: what "first content" means on the library page. */
const LIBRARY_CARD = '[part~="library-card"]';

const PROBE = `
  window.__firstCard = undefined;
  const poll = () => {
    const root = document.querySelector('channel-app')?.shadowRoot;
    if (root && root.querySelector(${JSON.stringify(LIBRARY_CARD)})) window.__firstCard = performance.now();
    else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
`;

async function json<T>(answer: Promise<Response>): Promise<T> {
  const response = await answer;
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`bench: ${response.url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Makes one clip and waits until it is done; answers the milliseconds it took. */
async function turnaround(
  api: (path: string, init?: RequestInit) => Promise<Response>,
  eventId: number,
  start: number,
  duration: number,
): Promise<number> {
  const started = performance.now();
  const made = await json<{ data: { id: number } }>(
    api('clip', {
      method: 'POST',
      body: JSON.stringify({
        event_id: eventId,
        name: `Bench ${duration} s`,
        start_time: start,
        duration,
        tags: ['highlight'],
      }),
    }),
  );
  for (;;) {
    const list = await json<{ data: { id: number; status: string }[] }>(api('clips/user'));
    const clip = list.data.find((c) => c.id === made.data.id);
    if (clip?.status === 'done') break;
    if (!clip || clip.status === 'failed') throw new Error(`bench: clip ${made.data.id} ${clip?.status ?? 'vanished'}`);
    if (performance.now() - started > 300_000) throw new Error('bench: a clip took over 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ms = performance.now() - started;
  await api(`clip/${made.data.id}`, { method: 'DELETE' });
  return ms;
}

/** Runs the clips and library benchmark. */
export async function benchClips(
  browser: Browser,
  origin: string,
  hostOrigin: string,
  runs: number,
): Promise<ClipsBench> {
  const key = (
    await json<{ data: { api_key: string } }>(
      fetch(`${origin}/api/get_api_key`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ channel_key: 'demo' }),
      }),
    )
  ).data.api_key;
  const login = await json<{ data: { token: string } }>(
    fetch(`${origin}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: key, email: 'fan@example.com', password: 'fan-pass-1' }),
    }),
  );
  const api = (path: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const keyed = method === 'GET' || method === 'DELETE';
    const url = new URL(`/api/${path}`, origin);
    if (keyed) url.searchParams.set('api_key', key);
    const body = keyed
      ? undefined
      : JSON.stringify({ ...(JSON.parse(String(init.body ?? '{}')) as object), api_key: key });
    return fetch(url, {
      ...init,
      body,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${login.data.token}` },
    });
  };
  const finished = await json<{ data: { id: number; type: string; has_recording: boolean; duration?: number }[] }>(
    api('events?stream_status=finished&limit=100'),
  );
  const event = finished.data.find((e) => e.type === 'free' && e.has_recording && (e.duration ?? 0) >= 70);
  if (!event) throw new Error('bench: no free finished event with a recording of 70 s or more');

  const turnaround10sMs: number[] = [];
  const turnaround60sMs: number[] = [];
  const count = Math.max(3, Math.ceil(runs / 2));
  for (let i = 0; i < count; i++) {
    // A different range each run (whole seconds), so every run is cut for real.
    turnaround10sMs.push(await turnaround(api, event.id, 3 + i * 7, 10));
    turnaround60sMs.push(await turnaround(api, event.id, 1 + i * 3, 60));
  }

  // The library page: JavaScript before the first card, then the time to it.
  const page = `${hostOrigin}/site/vod_library`;
  const files: { url: string; gzip_bytes: number }[] = [];
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    const pending: Promise<void>[] = [];
    let counting = true;
    p.on('response', (response) => {
      if (!counting || !/javascript/.test(response.headers()['content-type'] ?? '')) return;
      pending.push(
        response
          .body()
          .then((body) => void files.push({ url: response.url(), gzip_bytes: gzipSync(body, { level: 9 }).length }))
          .catch(() => undefined),
      );
    });
    await p.addInitScript(PROBE);
    const { marks } = await watchMarks(p, ['__firstCard']);
    await p.goto(page);
    await marks;
    counting = false;
    await Promise.all(pending);
    await context.close();
  }
  const libraryFirstCardMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    await p.addInitScript(PROBE);
    const { marks } = await watchMarks(p, ['__firstCard']);
    await p.goto(page);
    libraryFirstCardMs.push((await marks).__firstCard);
    await context.close();
  }
  const ours = (f: { url: string }) => /\/(chunks\/[^/]+|channel-elements)\.js$/.test(new URL(f.url).pathname);
  return {
    turnaround10sMs,
    turnaround60sMs,
    libraryJsGzipBytes: files.filter(ours).reduce((sum, f) => sum + f.gzip_bytes, 0),
    libraryJsFiles: files.filter(ours).sort((a, b) => b.gzip_bytes - a.gzip_bytes),
    libraryFirstCardMs,
  };
}
