/**
 * HLS playlists for the generated media (media.ts), written per request:
 *
 * - the master playlist lists the video renditions (BANDWIDTH, AVERAGE-BANDWIDTH, RESOLUTION, CODECS,
 *   FRAME-RATE) and the WebVTT subtitles as EXT-X-MEDIA TYPE=SUBTITLES;
 * - on demand: every segment once, `#EXT-X-PLAYLIST-TYPE:VOD` and `#EXT-X-ENDLIST`;
 * - live: the segments since LIVE_LEAD segments before the event's start, one more per SEGMENT_SECONDS of wall
 *   clock, of which the playlist keeps the newest LIVE_DVR_SECONDS (the DVR window viewers can seek back in),
 *   looping over the clip with `#EXT-X-DISCONTINUITY` at each loop (and the matching
 *   `#EXT-X-DISCONTINUITY-SEQUENCE`), without an end.
 *
 * Every URI is relative (`360p/index.m3u8`, `17.ts`), so a playlist works under whatever signed prefix served it.
 * Segment n of a stream is file `n mod count` of its track.
 */
import { SEGMENT_SECONDS, type Asset, type Segment, type Track } from './media.js';

/** Segments a live stream has at its start (the minutes before kick-off), so a player that arrives at once plays. */
export const LIVE_LEAD = 6;
/** The live window: how far back a viewer can seek in a live stream (10 minutes). */
export const LIVE_DVR_SECONDS = 600;
const DVR_SEGMENTS = LIVE_DVR_SECONDS / SEGMENT_SECONDS;

/** The extension of a track's segments in URLs: subtitles are WebVTT, video renditions MPEG-TS. */
export const segmentExtension = (track: Track): 'vtt' | 'ts' => (track.name.startsWith('subs-') ? 'vtt' : 'ts');

/** A quoted attribute value; our values never contain quotes or line breaks. */
const quoted = (value: string) => `"${value}"`;

export function masterPlaylist(asset: Asset): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const track of asset.subtitles) {
    const attributes = [
      'TYPE=SUBTITLES',
      `GROUP-ID=${quoted('subs')}`,
      `NAME=${quoted(track.label)}`,
      `LANGUAGE=${quoted(track.language)}`,
      'DEFAULT=NO',
      'AUTOSELECT=YES',
      'FORCED=NO',
      `URI=${quoted(`${track.name}/index.m3u8`)}`,
    ];
    lines.push(`#EXT-X-MEDIA:${attributes.join(',')}`);
  }
  for (const r of asset.renditions) {
    const attributes = [
      `BANDWIDTH=${r.bandwidth}`,
      `AVERAGE-BANDWIDTH=${r.averageBandwidth}`,
      `RESOLUTION=${r.width}x${r.height}`,
      `FRAME-RATE=${r.frameRate.toFixed(3)}`,
      `CODECS=${quoted(r.codecs)}`,
      ...(asset.subtitles.length ? [`SUBTITLES=${quoted('subs')}`] : []),
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, `${r.name}/index.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}

/** EXT-X-TARGETDURATION: the longest segment, rounded as the HLS spec rounds EXTINF. */
const targetDuration = (segments: Segment[]) => Math.max(1, ...segments.map((s) => Math.round(s.duration)));
const extinf = (segment: Segment) => `#EXTINF:${segment.duration.toFixed(3)},`;

export function vodPlaylist(track: Track): string {
  const ext = segmentExtension(track);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${targetDuration(track.segments)}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
  ];
  track.segments.forEach((segment, i) => lines.push(extinf(segment), `${i}.${ext}`));
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/**
 * Where a live stream stands at `nowMs`: its first and last segment numbers and the discontinuity sequence.
 * Segment n covers the SEGMENT_SECONDS from start + (n - LIVE_LEAD) segments: the newest one has just ended.
 */
export function liveWindow(
  track: Track,
  startMs: number,
  nowMs: number,
): { first: number; last: number; discontinuitySequence: number } {
  const count = track.segments.length;
  const last = Math.max(0, Math.floor((nowMs - startMs) / (SEGMENT_SECONDS * 1000))) + LIVE_LEAD - 1;
  const first = Math.max(0, last - DVR_SEGMENTS + 1);
  // A discontinuity precedes every segment that starts a loop (n = count, 2 count, ...); the sequence counts those
  // that have slid out of the window, i.e. precede the first segment.
  const discontinuitySequence = first > 0 ? Math.floor((first - 1) / count) : 0;
  return { first, last, discontinuitySequence };
}

export function livePlaylist(track: Track, startMs: number, nowMs: number): string {
  const ext = segmentExtension(track);
  const count = track.segments.length;
  const { first, last, discontinuitySequence } = liveWindow(track, startMs, nowMs);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${targetDuration(track.segments)}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${discontinuitySequence}`,
  ];
  for (let n = first; n <= last; n++) {
    if (n > 0 && n % count === 0) lines.push('#EXT-X-DISCONTINUITY');
    const at = new Date(startMs + (n - LIVE_LEAD) * SEGMENT_SECONDS * 1000).toISOString();
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${at}`, extinf(track.segments[n % count]!), `${n}.${ext}`);
  }
  return `${lines.join('\n')}\n`;
}
