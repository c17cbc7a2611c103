// Library fixtures shared by the library's element and site tests: contract-shaped items, rails and categories,
// fake answers that page and search like the reference server, the element's timers recorded through env(), and
// a reduced-motion preference.
import { setEnv } from '../../src/lib/env.js';
import { ok, type Recorded, type Reply } from '../unit/helpers.js';

/** A library item: free and watchable unless `extra` says otherwise, with an image and a preview. */
export function item(id: number, title: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    title,
    date: '2026-03-14',
    type: 'free',
    has_access: true,
    duration: 95,
    description: `About ${title}.`,
    vod_media_category_id: 1,
    assets: [
      { type: 'image', path: `/media/library/${id}.jpg` },
      { type: 'preview', path: `/media/library/${id}.mp4` },
    ],
    media: [],
    ...extra,
  };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** Three rails: six free items, six of which two are locked (sign-in, membership), and an empty one. */
export const RAILS = [
  { id: 1, title: 'Featured', vod_media_items: range(201, 6).map((id) => item(id, `Featured ${id}`)) },
  {
    id: 2,
    title: 'Hockey classics',
    vod_media_items: range(301, 6).map((id, i) =>
      item(id, `Hockey ${id}`, {
        vod_media_category_id: 2,
        ...(i === 1 ? { type: 'register', has_access: false } : {}),
        ...(i === 2 ? { type: 'paid', has_access: false } : {}),
      }),
    ),
  },
  { id: 3, title: 'Coming soon', vod_media_items: [] },
];

/** Two categories. */
export const CATEGORIES = [
  { id: 1, name: 'Basketball', alias: 'basketball', items_count: 14 },
  { id: 2, name: 'Hockey', alias: 'hockey', items_count: 6 },
];

/** Basketball's 14 items (category 1), newest first, and hockey's 6. */
export const CATEGORY_ITEMS = [
  ...range(401, 14).map((id) => item(id, `Basketball ${id}`)),
  ...RAILS[1]!.vod_media_items,
];

/** What search finds: three classics and fourteen games (Game 1 to Game 14). */
export const SEARCH_ITEMS = [
  ...range(1, 3).map((n) => item(500 + n, `Classic ${n}`)),
  ...range(1, 14).map((n) => item(600 + n, `Game ${n}`)),
];

/** `GET vod-media-items`: a category's items paged by offset and limit. */
export function pagedItems(all: ReturnType<typeof item>[]) {
  return (req: Recorded): Reply => {
    const category = Number(req.query.vod_media_category_id);
    const offset = Number(req.query.offset ?? 0);
    const limit = Number(req.query.limit ?? 12);
    const found = all.filter((i) => !category || i.vod_media_category_id === category);
    return {
      status: 200,
      body: { data: found.slice(offset, offset + limit), meta: { total: found.length, offset, limit } },
    };
  };
}

/** `GET vod-media/search`: title substring, case-insensitive, paged. */
export function searchAnswer(all: ReturnType<typeof item>[]) {
  return (req: Recorded): Reply => {
    const title = (req.query.title ?? '').toLowerCase();
    const offset = Number(req.query.offset ?? 0);
    const limit = Number(req.query.limit ?? 10);
    const found = all.filter((i) => i.title.toLowerCase().includes(title));
    return {
      status: 200,
      body: { data: found.slice(offset, offset + limit), meta: { total: found.length, offset, limit } },
    };
  };
}

/** One item's answer (`GET vod-media-items/{id}`). */
export const itemAnswer = (value: ReturnType<typeof item>) => ok(value);

/** The element's timers as env() hands them out: nothing fires unless a test fires it. */
export interface Timers {
  /** Timers of `ms` armed and neither fired nor cleared. */
  live(ms: number): { fn: () => void; ms: number }[];
  /** Every timer of `ms` ever armed. */
  all(ms: number): { fn: () => void; ms: number }[];
  /** Fires the live timers of `ms`. */
  fire(ms: number): void;
}

/** Records the environment's timers (install after the test's other setEnv calls). */
export function recordTimers(): Timers {
  const list: { fn: () => void; ms: number; live: boolean }[] = [];
  setEnv({
    setTimeout: (fn, ms) => list.push({ fn, ms, live: true }) - 1,
    clearTimeout: (id) => {
      const timer = list[id as number];
      if (timer) timer.live = false;
    },
  });
  return {
    live: (ms) => list.filter((t) => t.live && t.ms === ms),
    all: (ms) => list.filter((t) => t.ms === ms),
    fire(ms) {
      for (const timer of list.filter((t) => t.live && t.ms === ms)) {
        timer.live = false;
        timer.fn();
      }
    },
  };
}

/** Makes `matchMedia('(prefers-reduced-motion: reduce)')` match; returns the restore. */
export function stubReducedMotion(): () => void {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => {
    if (!query.includes('prefers-reduced-motion: reduce')) return original.call(window, query);
    const list: Partial<MediaQueryList> = {
      matches: true,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    };
    return list as MediaQueryList;
  }) as typeof window.matchMedia;
  return () => {
    window.matchMedia = original;
  };
}
