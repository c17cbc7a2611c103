/**
 * Tests of what the server makes from an ingest event's HLS folder (media/ingest/recording.ts), on folders made as
 * nginx-rtmp writes them (testing/ingest-folder.ts: two pushes, the second after a reconnect): the playlist reader,
 * the thumbnails track (cue times of a finished and of a live event, the pictures made on demand), and the recording
 * as one MP4, made once when two callers (two processes) ask at once.
 * Run: node --import tsx --test server/media/ingest-recording.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { FFMPEG, FFPROBE } from './ffmpeg.js';
import {
  ensureRecording,
  folderThumbnail,
  folderThumbnailsVtt,
  IngestMedia,
  LIVE_THUMBS_LOOP,
  recordingFile,
  THUMBNAIL_RUNS,
  thumbnailRuns,
} from './ingest/recording.js';
import {
  ingestMasterPlaylist,
  ingestMediaPlaylist,
  parseNginxPlaylist as parseFolderPlaylist,
  readHlsFolder,
  readHlsFolderSync as readFolderPlaylist,
} from './ingest/hls-folder.js';
import { makeIngestFolder } from '../testing/ingest-folder.js';

const exec = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'ingest-recording-test-'));
const hlsDir = join(tmp, 'hls');
const dataDir = join(tmp, 'data');
/** Event 7's folder: 8 s of testsrc2, then (a reconnect) 6 s of blue. */
const folder = join(hlsDir, 'event-7');
before(async () => {
  await makeIngestFolder(folder, [
    { picture: 'testsrc2', seconds: 8 },
    { picture: 'color=c=blue', seconds: 6 },
  ]);
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** ffprobe's answer for one entry of a file. */
async function probe(file: string, entries: string): Promise<string> {
  const { stdout } = await exec(FFPROBE, ['-v', 'error', '-show_entries', entries, '-of', 'csv=p=0', file]);
  return stdout.trim();
}

/** Whether the picture at `at` s of a file is the second push's blue (its mean Cb is high; testsrc2's is about 128). */
async function blue(file: string, at = 0): Promise<boolean> {
  const { stderr } = await exec(FFMPEG, [
    ...['-hide_banner', ...(at ? ['-ss', String(at)] : []), '-i', file, '-frames:v', '1'],
    ...['-vf', 'signalstats,metadata=print:key=lavfi.signalstats.UAVG', '-f', 'null', '-'],
  ]);
  const m = /UAVG=([\d.]+)/.exec(stderr);
  assert.ok(m, stderr);
  return Number(m[1]) > 200;
}

/** The cues of a WebVTT text: [from, to, text] with times in seconds. */
function cues(vtt: string): Array<[number, number, string]> {
  const seconds = (t: string) => t.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
  return [...vtt.matchAll(/^([\d:.]+) --> ([\d:.]+)\n(.+)$/gm)].map((m) => [seconds(m[1]!), seconds(m[2]!), m[3]!]);
}

describe('the folder playlist', () => {
  test('reads nginx-rtmp’s playlist: segments in order with their start, discontinuities, no end', () => {
    const playlist = readFolderPlaylist(folder);
    assert.ok(playlist);
    assert.deepEqual(
      playlist.segments.map((s) => [s.file, s.start, s.discontinuity]),
      [
        ['0.ts', 0, true],
        ['1.ts', 2, false],
        ['2.ts', 4, false],
        ['3.ts', 6, false],
        ['4.ts', 8, true],
        ['5.ts', 10, false],
        ['6.ts', 12, false],
      ],
    );
    assert.equal(playlist.duration, 14);
    assert.equal(playlist.ended, false);
    assert.equal(readFolderPlaylist(join(hlsDir, 'event-8')), undefined, 'no folder yet: no playlist');
  });

  test('keeps only plain segment names: nothing that could leave the folder', () => {
    const text = '#EXTM3U\n#EXTINF:2,\n../secret.ts\n#EXTINF:2,\n/etc/passwd\n#EXTINF:2.5,\n12.ts\n#EXT-X-ENDLIST\n';
    const playlist = parseFolderPlaylist(text);
    assert.deepEqual(
      playlist.segments.map((s) => [s.file, s.start, s.duration]),
      [['12.ts', 0, 2.5]],
    );
    assert.equal(playlist.ended, true);
  });
});

describe('thumbnails', () => {
  test('a finished event’s track: one cue per 10 s or so, at recording positions, each naming its segment’s picture', () => {
    const vtt = folderThumbnailsVtt(readFolderPlaylist(folder)!);
    assert.match(vtt, /^WEBVTT\n\n/);
    assert.deepEqual(cues(vtt), [
      [0, 10, '0.jpg'],
      [10, 14, '5.jpg'],
    ]);
    assert.deepEqual(
      cues(folderThumbnailsVtt(readFolderPlaylist(folder)!, undefined, 4)),
      [
        [0, 4, '0.jpg'],
        [4, 8, '2.jpg'],
        [8, 12, '4.jpg'],
        [12, 14, '6.jpg'],
      ],
      'at another interval, a cue per 4 s',
    );
  });

  test('a live event’s track is on the event’s clock: the newest segment ends now, and the edge never wraps', () => {
    const playlist = readFolderPlaylist(folder)!;
    // 100 s after the scheduled start the newest segment ended: the push began 86 s after the start.
    assert.deepEqual(cues(folderThumbnailsVtt(playlist, { edge: 100 }, 4)), [
      [86, 90, '0.jpg'],
      [90, 94, '2.jpg'],
      [94, 98, '4.jpg'],
      [98, LIVE_THUMBS_LOOP, '6.jpg'],
    ]);
    // 5 s after the start: the first 9 s were pushed before it, at the wrapped end of the player's loop.
    assert.deepEqual(cues(folderThumbnailsVtt(playlist, { edge: 5 }, 4)), [
      [0, 3, '4.jpg'],
      [3, LIVE_THUMBS_LOOP - 9, '6.jpg'],
      [LIVE_THUMBS_LOOP - 9, LIVE_THUMBS_LOOP - 5, '0.jpg'],
      [LIVE_THUMBS_LOOP - 5, LIVE_THUMBS_LOOP - 1, '2.jpg'],
      [LIVE_THUMBS_LOOP - 1, LIVE_THUMBS_LOOP, '4.jpg'],
    ]);
    // The player takes the cue at wrap(t) with the loop the last cue's end: t = -7 (7 s before the start) is 0.jpg.
    const wrap = (t: number) => ((t % LIVE_THUMBS_LOOP) + LIVE_THUMBS_LOOP) % LIVE_THUMBS_LOOP;
    const at = (t: number) => cues(folderThumbnailsVtt(playlist, { edge: 5 }, 4)).findLast(([from]) => from <= wrap(t));
    assert.equal(at(-7)?.[2], '0.jpg');
    assert.equal(at(4)?.[2], '6.jpg');
    assert.equal(at(6)?.[2], '6.jpg', 'just past the edge: still the newest picture');
  });

  test('a picture is its segment’s first frame, 160x90, made once into the cache; other names are refused', async () => {
    const cache = join(dataDir, 'thumbs-test');
    const [a, b] = await Promise.all([
      folderThumbnail(folder, cache, '5.jpg'),
      folderThumbnail(folder, cache, '5.jpg'),
    ]);
    assert.equal(a, join(cache, '5.jpg'));
    assert.equal(b, a);
    assert.equal(await probe(a!, 'stream=codec_name,width,height'), 'mjpeg,160,90');
    assert.deepEqual(readdirSync(cache), ['5.jpg'], 'no scratch file left behind');
    const first = await folderThumbnail(folder, cache, '0.jpg');
    assert.ok((await blue(a!)) && !(await blue(first!)), 'segment 5 is the second push’s, segment 0 the first’s');
    for (const name of ['9.jpg', '../event-7/0.jpg', 'sprite.jpg', '0.ts']) {
      assert.equal(await folderThumbnail(folder, cache, name), undefined, name);
    }
    assert.ok(!existsSync(join(cache, '9.jpg')));
  });
});

describe('the recording', () => {
  test('is one MP4 of every segment, both pushes, without re-encoding, index first', async () => {
    const ingest = new IngestMedia(hlsDir, join(dataDir, 'one'));
    const recording = await ingest.recording(7);
    assert.equal(recording.file, recordingFile(join(dataDir, 'one'), 7));
    assert.ok(recording.made);
    assert.ok(Math.abs(recording.duration - 14) < 0.5, `14 s long, not ${recording.duration}`);
    assert.equal(recording.bytes, statSync(recording.file).size);
    assert.equal(await probe(recording.file, 'stream=codec_name'), 'h264\naac');
    // faststart: the index (moov) comes before the media (mdat).
    const bytes = readFileSync(recording.file);
    assert.ok(bytes.indexOf('moov') > 0 && bytes.indexOf('moov') < bytes.indexOf('mdat'), 'moov before mdat');
    // The second push follows the first: blue after 8 s, not before.
    assert.deepEqual([await blue(recording.file, 4), await blue(recording.file, 10)], [false, true]);
    const again = await ingest.recording(7);
    assert.equal(again.made, false, 'the second need finds it made');
  });

  test('two callers at once make it once (one makes, the other waits for it)', async () => {
    const file = recordingFile(join(dataDir, 'two'), 7);
    const [a, b] = await Promise.all([ensureRecording(folder, file), ensureRecording(folder, file)]);
    assert.deepEqual([a.made, b.made].sort(), [false, true]);
    assert.equal(a.bytes, b.bytes);
    assert.deepEqual(
      readdirSync(join(dataDir, 'two', 'recordings')),
      ['event-7.mp4', 'event-7.mp4.json'],
      'the MP4 and its sidecar: no list, scratch or lock left',
    );
  });

  test('two processes at once make it once', async () => {
    const file = recordingFile(join(dataDir, 'three'), 7);
    const module = pathToFileURL(join(import.meta.dirname, 'ingest', 'recording.ts')).href;
    const call = `ensureRecording(${JSON.stringify(folder)}, ${JSON.stringify(file)})`;
    const script = `import(${JSON.stringify(module)}).then(async (m) => console.log(JSON.stringify(await m.${call})))`;
    const child = () => exec(process.execPath, ['--import', 'tsx', '-e', script]);
    const answers = (await Promise.all([child(), child()])).map((r) => JSON.parse(r.stdout) as { made: boolean });
    assert.deepEqual(answers.map((r) => r.made).sort(), [false, true]);
  });

  test('a folder without segments has no recording', async () => {
    await assert.rejects(
      ensureRecording(join(hlsDir, 'event-9'), recordingFile(join(dataDir, 'four'), 9)),
      /This event has no recording\./,
    );
  });
});

/**
 * A copy of event 7's folder as `event-{id}` whose playlist goes on with `more` segments (copies of 1.ts..6.ts,
 * numbered on), as nginx's would when the push goes on. Answers the folder.
 */
function grownFolder(id: number, more: number): string {
  const dir = join(hlsDir, `event-${id}`);
  if (!existsSync(dir)) cpSync(folder, dir, { recursive: true });
  const base = readFileSync(join(folder, 'index.m3u8'), 'utf8');
  const lines: string[] = [];
  for (let n = 7; n < 7 + more; n++) {
    if (!existsSync(join(dir, `${n}.ts`))) copyFileSync(join(folder, `${1 + ((n - 7) % 6)}.ts`), join(dir, `${n}.ts`));
    lines.push('#EXTINF:2.000,', `${n}.ts`);
  }
  writeFileSync(join(dir, 'index.m3u8'), base + lines.map((l) => `${l}\n`).join(''));
  return dir;
}

describe('the folder, read once per version of its playlist', () => {
  test('an unchanged playlist is not read again; a grown one is, sync and async alike', async () => {
    const dir = grownFolder(20, 0);
    const a = await readHlsFolder(dir);
    assert.ok(a);
    assert.equal(await readHlsFolder(dir), a, 'the same reading, not parsed again');
    assert.equal(readFolderPlaylist(dir), a, 'the synchronous reader shares it');
    grownFolder(20, 2);
    const b = readFolderPlaylist(dir);
    assert.notEqual(b, a);
    assert.deepEqual(
      b!.segments.slice(-2).map((s) => [s.file, s.start]),
      [
        ['7.ts', 14],
        ['8.ts', 16],
      ],
    );
    assert.equal(await readHlsFolder(dir), b);
  });

  test('the master playlist counts each segment’s size once, then only new ones', async () => {
    const dir = grownFolder(21, 0);
    const first = await ingestMasterPlaylist(await readHlsFolder(dir));
    const rate = (text: string) => /AVERAGE-BANDWIDTH=(\d+)/.exec(text)?.[1];
    assert.ok(Number(rate(first)) > 10_000, first);
    // A counted segment is not looked at again: its file growing tenfold changes nothing.
    writeFileSync(join(dir, '0.ts'), Buffer.alloc(statSync(join(dir, '0.ts')).size * 10));
    assert.equal(await ingestMasterPlaylist(await readHlsFolder(dir)), first);
    // A new one is counted: a huge 7.ts raises the peak.
    writeFileSync(join(dir, '7.ts'), Buffer.alloc(4_000_000));
    grownFolder(21, 1);
    const grown = await ingestMasterPlaylist(await readHlsFolder(dir));
    assert.match(grown, /BANDWIDTH=16000000,/);
  });

  test('the media playlist’s target duration stays the same from the first ask on, live and finished', async () => {
    const target = (text: string) => /#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1];
    // The fragment (2 s): segments of an encoder with a key frame every 2 s, from the first one on.
    assert.equal(target(ingestMediaPlaylist(undefined, true)), '2', 'before any segment');
    const dir = grownFolder(22, 0);
    assert.equal(target(ingestMediaPlaylist(await readHlsFolder(dir), true)), '2');
    grownFolder(22, 30);
    assert.equal(target(ingestMediaPlaylist(await readHlsFolder(dir), true)), '2', 'a minute on');
    assert.equal(target(ingestMediaPlaylist(await readHlsFolder(dir), false)), '2');
    // nginx's own value, when larger, is kept (a segment may be as long as it says).
    const text = readFileSync(join(dir, 'index.m3u8'), 'utf8').replace(
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-TARGETDURATION:6',
    );
    writeFileSync(join(dir, 'index.m3u8'), text);
    assert.equal(target(ingestMediaPlaylist(await readHlsFolder(dir), true)), '6');
  });
});

describe('thumbnail pictures, bounded', () => {
  test('only the names the track names are made; one run per name at a time, at most THUMBNAIL_RUNS at once', async () => {
    const dir = grownFolder(23, 42); // 98 s: ten cues
    const cache = join(dataDir, 'thumbs-23');
    const names = [...folderThumbnailsVtt(readFolderPlaylist(dir)!).matchAll(/^(\d+\.jpg)$/gm)].map((m) => m[1]!);
    assert.equal(names.length, 10);
    assert.equal(await folderThumbnail(dir, cache, '1.jpg'), undefined, 'a segment no cue names');
    assert.equal(await folderThumbnail(dir, cache, '9.jpg'), undefined);
    thumbnailRuns.most = 0;
    const before = thumbnailRuns.made;
    const files = await Promise.all([...names, ...names, ...names].map((name) => folderThumbnail(dir, cache, name)));
    assert.deepEqual(
      files.slice(0, 10),
      names.map((name) => join(cache, name)),
    );
    assert.equal(thumbnailRuns.made - before, 10, 'each picture made once although asked three times at once');
    assert.equal(thumbnailRuns.most, THUMBNAIL_RUNS);
    assert.deepEqual(readdirSync(cache).sort(), [...names].sort());
    // Asked again: nothing to make. A segment written anew (the folder reset and pushed again): made again.
    await folderThumbnail(dir, cache, names[1]!);
    assert.equal(thumbnailRuns.made - before, 10);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, names[1]!.replace('.jpg', '.ts')), later, later);
    await folderThumbnail(dir, cache, names[1]!);
    assert.equal(thumbnailRuns.made - before, 11);
  });
});

describe('the recording, kept and remade', () => {
  test('its size and length are kept with it: later asks run no ffprobe', async () => {
    const dir = grownFolder(24, 0);
    const file = recordingFile(join(dataDir, 'five'), 24);
    const made = await ensureRecording(dir, file);
    assert.ok(made.made);
    const sidecar = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { bytes: number; duration: number };
    assert.equal(sidecar.bytes, statSync(file).size);
    assert.ok(Math.abs(sidecar.duration - made.duration) < 0.001);
    // A length that only the sidecar says (the MP4's own is 14 s): read back, not probed.
    writeFileSync(`${file}.json`, JSON.stringify({ ...sidecar, duration: 99 }));
    const later = new Date(Date.now() + 1000);
    utimesSync(file, later, later); // another version of the file: this process reads the sidecar again
    const again = await ensureRecording(dir, file);
    assert.deepEqual([again.made, again.duration, again.bytes], [false, 99, sidecar.bytes]);
  });

  test('a folder that grew after it was made (a later push) has it made again; discard forgets it all', async () => {
    const dir = grownFolder(25, 0);
    const ingest = new IngestMedia(hlsDir, join(dataDir, 'six'));
    const first = await ingest.recording(25);
    assert.ok(Math.abs(first.duration - 14) < 0.5);
    grownFolder(25, 3);
    const second = await ingest.recording(25);
    assert.equal(second.made, true, 'made again from the grown folder');
    assert.ok(Math.abs(second.duration - 20) < 0.5, `20 s, not ${second.duration}`);
    assert.equal((await ingest.recording(25)).made, false);
    await ingest.thumbnail(25, '0.jpg');
    assert.ok(existsSync(join(ingest.thumbsDir(25), '0.jpg')));
    ingest.discard(25);
    assert.ok(!existsSync(second.file) && !existsSync(`${second.file}.json`), 'the MP4 and its sidecar are gone');
    assert.ok(!existsSync(ingest.thumbsDir(25)), 'the thumbnails are gone');
    rmSync(dir, { recursive: true, force: true }); // the operator's reset clears the folder too
    assert.equal(ingest.playlist(25), undefined);
    await assert.rejects(ingest.recording(25), /This event has no recording\./);
  });
});
