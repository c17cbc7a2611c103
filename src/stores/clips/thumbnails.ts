/**
 * The thumbnails track of an event (its `thumbnails` media): a WebVTT file whose cues name a sprite image and the
 * crop of one preview (`sprite.jpg#xywh=x,y,w,h`), one cue per few seconds of the video. The clip maker's timeline
 * shows them. Fetched through the environment's fetch, once per URL.
 */
import { env } from '../../lib/env.js';

/** One preview: from `start` to `end` (seconds), the crop `x, y, w, h` of the sprite at `url` (else all of it). */
export interface Thumbnail {
  start: number;
  end: number;
  url: string;
  crop?: { x: number; y: number; w: number; h: number } | undefined;
}

const TIME = /^(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?$/;

/** A WebVTT timestamp (`hh:mm:ss.ttt` or `mm:ss.ttt`) in seconds, or undefined. */
function seconds(stamp: string): number | undefined {
  const m = TIME.exec(stamp.trim());
  if (!m) return undefined;
  const fraction = m[4] ? Number(m[4].padEnd(3, '0')) / 1000 : 0;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + fraction;
}

/** The cues of a thumbnails track; image URLs resolve against `base` (the track's own URL); http(s) only. */
export function parseThumbnails(vtt: string, base: string): Thumbnail[] {
  const cues: Thumbnail[] = [];
  const lines = vtt.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const timing = /^(\S+)\s+-->\s+(\S+)/.exec(lines[i]!.trim());
    if (!timing) continue;
    const start = seconds(timing[1]!);
    const end = seconds(timing[2]!);
    const text = lines[i + 1]?.trim();
    if (start === undefined || end === undefined || !text) continue;
    const [path, fragment] = text.split('#', 2) as [string, string | undefined];
    let url: URL;
    try {
      url = new URL(path, base);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const xywh = /^xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(fragment ?? '');
    const crop = xywh ? { x: +xywh[1]!, y: +xywh[2]!, w: +xywh[3]!, h: +xywh[4]! } : undefined;
    cues.push({ start, end, url: url.href, crop });
    i++;
  }
  return cues.sort((a, b) => a.start - b.start);
}

/** The preview showing at `time` (the last one before it past the end). */
export function thumbnailAt(list: readonly Thumbnail[], time: number): Thumbnail | undefined {
  let found: Thumbnail | undefined;
  for (const cue of list) {
    if (cue.start > time) break;
    found = cue;
  }
  return found ?? list[0];
}

const loaded = new Map<string, Promise<Thumbnail[]>>();

/** The previews of a thumbnails track, fetched once per URL; none when it cannot be had (previews are extras). */
export function loadThumbnails(url: string): Promise<Thumbnail[]> {
  let pending = loaded.get(url);
  if (!pending) {
    pending = env()
      .fetch(url, { credentials: 'omit' })
      .then((response) => (response.ok ? response.text() : ''))
      .then((text) => parseThumbnails(text, url))
      .catch(() => {
        loaded.delete(url);
        return [];
      });
    loaded.set(url, pending);
  }
  return pending;
}
