/**
 * An ingest event's HLS folder as nginx-rtmp writes it (hls_nested, hls_continuous), made with ffmpeg for tests:
 * `{n}.ts` segments of 2 s and an `index.m3u8` that begins with `#EXT-X-DISCONTINUITY`, has no `#EXT-X-ENDLIST`, and
 * where a push that came back adds another `#EXT-X-DISCONTINUITY` before numbering on. Each push is its own ffmpeg
 * run (its timestamps start again, as a new RTMP publish's do) with its own picture, so tests can tell them apart.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FFMPEG, run } from '../media/ffmpeg.js';

/** One push: its picture (a lavfi source) and length in seconds (a multiple of 2). */
export interface TestPush {
  /** A lavfi picture source, with options or not (`testsrc2`, `color=c=blue`). */
  picture: string;
  seconds: number;
}

/** Makes the folder `dir` (emptied first) from `pushes` in order; answers each segment's file and duration. */
export async function makeIngestFolder(
  dir: string,
  pushes: TestPush[],
): Promise<Array<{ file: string; duration: number }>> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-TARGETDURATION:2'];
  const segments: Array<{ file: string; duration: number }> = [];
  for (const push of pushes) {
    const first = segments.length;
    const playlist = join(dir, `push-${first}.m3u8`);
    await run(
      FFMPEG,
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
        ...[
          '-f',
          'lavfi',
          '-t',
          String(push.seconds),
          '-i',
          `${push.picture}${push.picture.includes('=') ? ':' : '='}size=640x360:rate=30`,
        ],
        ...['-f', 'lavfi', '-t', String(push.seconds), '-i', 'sine=frequency=440:sample_rate=44100'],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0'],
        ...['-c:a', 'aac', '-f', 'hls', '-hls_time', '2', '-hls_list_size', '0', '-start_number', String(first)],
        ...['-hls_segment_filename', join(dir, '%d.ts'), playlist],
      ],
      dir,
    );
    lines.push('#EXT-X-DISCONTINUITY');
    for (let i = 0; i < push.seconds / 2; i++) {
      segments.push({ file: `${first + i}.ts`, duration: 2 });
      lines.push('#EXTINF:2.000,', `${first + i}.ts`);
    }
    rmSync(playlist);
  }
  writeFileSync(join(dir, 'index.m3u8'), `${lines.join('\n')}\n`);
  return segments;
}
