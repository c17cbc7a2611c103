/**
 * The clips store (src/stores/clips.ts and src/stores/clips/): the local rules and the body sent, the thumbnails
 * track, the ONE shared list (a clip made joins it at once), following a clip being made with backoff (paused
 * while the page is hidden), a page loaded with a clip still being made, delete, make again, sign-out, share
 * links, and a shared clip followed on its own.
 */
import { expect } from '@open-wc/testing';
import { cleanStores } from 'nanostores';
import { Clip, type User } from '../../../src/api/contract.js';
import { HttpError } from '../../../src/api/errors.js';
import { setEnv } from '../../../src/lib/env.js';
import { failureOf } from '../../../src/stores/account/messages.js';
import {
  clipPlayHref,
  clipStatus,
  $clips,
  $clipsVersion,
  $makerClips,
  CLIP_POLL_MS,
  clipShareUrl,
  copyClipLink,
  deleteClip,
  downloadClip,
  followClip,
  followOwnClip,
  loadClips,
  makeAnother,
  makeClip,
  makerClip,
  playerClip,
  remakeClip,
  shareClipLink,
  type ClipDraft,
} from '../../../src/stores/clips.js';
import { clipRequest, validateClip, type ClipSource } from '../../../src/stores/clips/validation.js';
import { parseThumbnails, thumbnailAt } from '../../../src/stores/clips/thumbnails.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import { $settings, $token, $user, resetSession } from '../../../src/stores/session.js';
import { Deferred, flush, installWorld, ok, T0, teardown, until, type World } from '../helpers.js';

const API = 'http://api.test/api';
/** A done clip's own media, on the channel's media origin. */
const OWN_MEDIA = [{ type: 'hls', url: 'https://media.test/s/g/clip-6/master.m3u8' }];
const KEYS = 'http://keys.test/keys';
const CLIPS = `${API}/clips/user`;
const UUID = '3f2a0c4e-8b1d-4e6f-9a7b-2c5d8e1f0a3b';

const user = (id: number): User => ({
  id,
  email: `fan${id}@example.test`,
  temporary_password: false,
  capabilities: ['clipping', 'download_clip'],
  trial_period_used: false,
  is_geo_blocked: false,
  email_verified: true,
  news: false,
  provider: 'email',
  has_password: true,
});

/** A clip as the server lists it (checked against the contract). */
const clip = (id: number, status: string, fields: Record<string, unknown> = {}): Clip =>
  Clip.parse({
    id,
    uuid: UUID,
    event_id: 501,
    name: `Clip ${id}`,
    start_time: 30,
    duration: 10,
    tags: ['goal'],
    status,
    event: { id: 501, name: 'Spring Final' },
    ...fields,
  });

const VOD: ClipDraft = {
  eventId: 501,
  name: 'Winning goal',
  tags: ['goal'],
  start: 12.34,
  end: 22.37,
  source: { kind: 'vod', duration: 120 },
};

function signIn(id: number): void {
  $token.set(`token-${id}`);
  $user.set(user(id));
}

/** The fake page's visibility, with its change listeners. */
function fakeVisibility() {
  let visible = true;
  const listeners = new Set<() => void>();
  setEnv({
    pageVisible: () => visible,
    onVisibilityChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  return {
    set(shown: boolean) {
      visible = shown;
      for (const listener of listeners) listener();
    },
    get listeners() {
      return listeners.size;
    },
  };
}

describe('clips: local rules and the body sent', () => {
  it('a good draft passes; each rule has its message, by the API field names', () => {
    expect(validateClip(VOD)).to.deep.equal({});
    const messages = (draft: Partial<ClipDraft>) =>
      Object.fromEntries(Object.entries(validateClip({ ...VOD, ...draft })).map(([k, m]) => [k, m.key]));
    expect(messages({ name: '  ', tags: [] })).to.deep.equal({
      name: 'forms:validation.input',
      tags: 'forms:validation.tag',
    });
    expect(messages({ tags: ['a', 'b', 'c', 'd', 'e', 'f'] })).to.deep.equal({ tags: 'forms:validation.clipTags' });
    expect(messages({ start: 100, end: 125 })).to.deep.equal({ duration: 'forms:validation.clipDuration' });
    expect(messages({ start: -1, end: 5 })).to.deep.equal({ start_time: 'forms:validation.clipDuration' });
    expect(messages({ start: 0, end: 61 })).to.deep.equal({ duration: 'forms:validation.clipTooLong' });
    expect(validateClip({ ...VOD, start: 0, end: 61 }).duration?.values).to.deep.equal({ max: 60 });
    expect(messages({ start: 10, end: 11.5 })).to.deep.equal({ duration: 'forms:validation.clipTooShort' });
    expect(messages({ start: 10, end: 9 })).to.deep.equal({ duration: 'forms:validation.clipTooShort' });
    // Exactly the limits pass.
    expect(messages({ start: 0, end: 60 })).to.deep.equal({});
    expect(messages({ start: 118, end: 120 })).to.deep.equal({});
  });

  it('a recording: start_time is seconds into it, to a tenth', () => {
    expect(clipRequest(VOD)).to.deep.equal({
      event_id: 501,
      name: 'Winning goal',
      start_time: 12.3,
      duration: 10,
      tags: ['goal'],
    });
  });

  it('live: start_time is when the selection was live, in seconds since the scheduled start', () => {
    const eventStart = T0 / 1000 - 3600; // started an hour ago
    const draft: ClipDraft = {
      ...VOD,
      // The video's clock: its 900 s were live at T0 (so its 0 was live 900 s before); the window its last 600 s;
      // the selection 30 s to 20 s behind.
      start: 870,
      end: 880,
      source: { kind: 'live', windowStart: 300, edge: 900, eventStart, clockMs: T0 - 900_000 },
    };
    expect(validateClip(draft)).to.deep.equal({});
    expect(clipRequest(draft)).to.include({ start_time: 3570, duration: 10 });
    // The clock, not the edge, says when: the same selection after the video fell 40 s further behind (a pause).
    expect(clipRequest({ ...draft, source: { ...draft.source, edge: 860 } as ClipSource })).to.include({
      start_time: 3570,
    });
    // Older than the window, or past the edge: refused.
    expect(Object.keys(validateClip({ ...draft, start: 290, end: 300 }))).to.deep.equal(['start_time']);
    expect(Object.keys(validateClip({ ...draft, start: 895, end: 905 }))).to.deep.equal(['duration']);
  });
});

describe('clips: the server’s messages', () => {
  it('a 422 puts the server’s texts (the client’s own) at their fields, translated', () => {
    const failure = failureOf(
      new HttpError(422, 'The given data was invalid.', 'u', {
        name: ['Please fill in the input field'],
        tags: ['Please select tag'],
        start_time: ['Your clip duration is longer than the end time'],
        duration: ['The clip can be at most 60 seconds long'],
      }),
    );
    expect(failure.fields).to.deep.equal({
      name: { key: 'forms:validation.input' },
      tags: { key: 'forms:validation.tag' },
      start_time: { key: 'forms:validation.clipDuration' },
      duration: { key: 'forms:validation.clipTooLong', values: { max: 60 } },
    });
    expect(
      failureOf(new HttpError(422, 'x', 'u', { duration: 'The clip must be at least 2 seconds long' })).fields,
    ).to.deep.equal({ duration: { key: 'forms:validation.clipTooShort', values: { min: 2 } } });
    expect(failureOf(new HttpError(403, 'Your account cannot make clips.', 'u')).message).to.deep.equal({
      key: 'clips:server.noClipping',
    });
    expect(failureOf(new HttpError(422, 'The clip is not ready yet.', 'u')).message).to.deep.equal({
      key: 'clips:server.notReady',
    });
  });

  it('every other refusal of the reference server has a translated text, its numbers kept', () => {
    const cases: Array<[string, { key: string; values?: Record<string, number> }]> = [
      ['Choose at most 5 tags', { key: 'forms:validation.clipTags', values: { max: 5 } }],
      ['The name may be at most 80 characters long', { key: 'clips:server.nameTooLong', values: { max: 80 } }],
      ['A tag may be at most 30 characters long', { key: 'clips:server.tagTooLong', values: { max: 30 } }],
      [
        'You have made too many clips. Please try again in 1 minute.',
        { key: 'clips:server.tooMany', values: { count: 1 } },
      ],
      [
        'You have made too many clips. Please try again in 7 minutes.',
        { key: 'clips:server.tooMany', values: { count: 7 } },
      ],
      [
        'You can keep at most 100 clips. Delete some to make new ones.',
        { key: 'clips:server.keptMax', values: { max: 100 } },
      ],
      ['The event has not started yet: clips can be made once it is live.', { key: 'clips:server.notStarted' }],
      ['This event has no recording.', { key: 'clips:server.noRecording' }],
      ['Clip making is busy. Please try again in a few minutes.', { key: 'clips:server.busy' }],
      ['This channel cannot keep more clips for now. Please try again later.', { key: 'clips:server.full' }],
    ];
    for (const [text, msg] of cases) expect(failureOf(new HttpError(422, text, 'u')).message, text).to.deep.equal(msg);
  });
});

describe('clips: the thumbnails track', () => {
  it('reads cues with sprite crops, resolved against the track URL; skips what is not a cue', () => {
    const vtt = [
      'WEBVTT',
      '',
      '00:00.000 --> 00:05.000',
      'sprite-0.jpg#xywh=0,0,160,90',
      '',
      'note',
      '00:00:05.000 --> 00:00:10.000',
      'sprite-0.jpg#xywh=160,0,160,90',
      '',
      '00:00:10.000 --> 00:00:15.000',
      'https://img.test/other.jpg',
      '',
      '00:00:15.000 --> 00:00:20.000',
      'javascript:alert(1)',
    ].join('\r\n');
    const cues = parseThumbnails(vtt, 'https://media.test/s/g/501/thumbs/index.vtt?sig=x');
    expect(cues).to.deep.equal([
      { start: 0, end: 5, url: 'https://media.test/s/g/501/thumbs/sprite-0.jpg', crop: { x: 0, y: 0, w: 160, h: 90 } },
      {
        start: 5,
        end: 10,
        url: 'https://media.test/s/g/501/thumbs/sprite-0.jpg',
        crop: { x: 160, y: 0, w: 160, h: 90 },
      },
      { start: 10, end: 15, url: 'https://img.test/other.jpg', crop: undefined },
    ]);
    expect(thumbnailAt(cues, 7)?.crop?.x).to.equal(160);
    expect(thumbnailAt(cues, 99)?.url).to.equal('https://img.test/other.jpg');
  });
});

describe('clips: the shared list', () => {
  let w: World;
  let page: ReturnType<typeof fakeVisibility>;
  const stops: (() => void)[] = [];
  /** A view following the list (the maker's Clip control, the profile section). */
  const watch = () => stops.push($clips.listen(() => undefined));
  const listCalls = () => w.server.to('GET', CLIPS);

  beforeEach(() => {
    w = installWorld();
    page = fakeVisibility();
    w.server
      .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-1' } })
      .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }))
      .on('GET', `${API}/user/access`, ok({ capabilities: ['clipping', 'download_clip'] }));
    setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://cdn.test/channel-elements.js');
    signIn(7);
  });
  afterEach(() => {
    stops.splice(0).forEach((stop) => stop());
    cleanStores($clips);
    $user.set(undefined);
    $config.set(undefined);
    resetSession();
    teardown();
  });

  it('a view following the list loads it once; a second view shares it', async () => {
    w.server.on('GET', CLIPS, ok([clip(2, 'done'), clip(1, 'failed')]));
    watch();
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    expect(listCalls()).to.have.length(1);
    expect(listCalls()[0]!.headers.authorization).to.equal('Bearer token-7');
    await w.advance(60_000);
    expect(listCalls(), 'nothing being made: no more looks').to.have.length(1);
  });

  it('a freshly signed URL is not a change: the clip on screen and the strips stay as they are', async () => {
    const media = (n: number) => ({ media: [{ type: 'vod', url: `https://m.test/s/${n}/clip-9/master.m3u8` }] });
    w.server.on('GET', CLIPS, ok([clip(9, 'done', media(1)), clip(3, 'processing', { progress: 10 })]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    const seen: (string | undefined)[] = [];
    stops.push(followOwnClip(clip(9, 'done', media(1)), (now) => seen.push(now?.status)));
    const version = $clipsVersion.get();
    // A minute on: clip 3 is still being made, clip 9's URL is signed again.
    w.server.on('GET', CLIPS, ok([clip(9, 'done', media(2)), clip(3, 'processing', { progress: 10 })]));
    await loadClips();
    expect(seen, 'the player is not told').to.deep.equal([]);
    expect($clipsVersion.get(), 'the strips are not told').to.equal(version);
    // A real change is.
    w.server.on('GET', CLIPS, ok([clip(9, 'done', { ...media(3), name: 'Renamed' }), clip(3, 'done')]));
    await loadClips();
    expect(seen).to.deep.equal(['done']);
    expect($clipsVersion.get()).to.equal(version + 1);
  });

  it('an own clip missing from a list loaded earlier is looked for once more before it is called gone', async () => {
    w.server.on('GET', CLIPS, ok([clip(1, 'done')]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    // Made in another tab since.
    w.server.on('GET', CLIPS, ok([clip(12, 'done'), clip(1, 'done')]));
    const found = await playerClip({ id: '12' }, new AbortController().signal, false);
    expect(found?.id).to.equal(12);
    expect(listCalls()).to.have.length(2);
    // Really gone: one more look, then 404.
    const gone = await playerClip({ id: '99' }, new AbortController().signal, false).catch((e: HttpError) => e);
    expect(gone).to.be.instanceOf(HttpError);
    expect((gone as HttpError).status).to.equal(404);
    expect(listCalls()).to.have.length(3);
  });

  it('nothing is sent while a rule fails', async () => {
    const outcome = await makeClip({ ...VOD, name: '', tags: [] });
    expect(outcome.ok).to.equal(false);
    expect(w.server.to('POST', `${API}/clip`)).to.have.length(0);
  });

  it('a clip made joins the list at once and is followed with backoff until it is done', async () => {
    w.server.on('GET', CLIPS, ok([clip(1, 'done')]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    w.server.on('POST', `${API}/clip`, ok(clip(9, 'queued', { progress: 0, name: 'Winning goal' })));
    const outcome = await makeClip(VOD);
    expect(outcome.ok).to.equal(true);
    const [post] = w.server.to('POST', `${API}/clip`);
    expect(post!.body).to.deep.include({
      event_id: 501,
      name: 'Winning goal',
      start_time: 12.3,
      duration: 10,
      tags: ['goal'],
    });
    const state = $clips.get();
    expect(state.status === 'ready' && state.value.map((c) => [c.id, c.status])).to.deep.equal([
      [9, 'queued'],
      [1, 'done'],
    ]);
    expect(makerClip(501, state.status === 'ready' ? state.value : [], $makerClips.get())?.id).to.equal(9);

    // Still being made: looks after 1, 2, 4, 8, then every 10 s.
    w.server.on('GET', CLIPS, ok([clip(9, 'processing', { progress: 40 }), clip(1, 'done')]));
    const before = listCalls().length;
    const start = w.clock.now;
    for (const wait of [...CLIP_POLL_MS, 10_000]) {
      const seen = listCalls().length;
      await w.advance(wait - 1);
      expect(listCalls().length, `no look before ${wait} ms`).to.equal(seen);
      await w.advance(1);
      expect(listCalls().length, `a look after ${wait} ms`).to.equal(seen + 1);
    }
    const looks = listCalls()
      .slice(before)
      .map((r) => r.at - start);
    expect(looks).to.deep.equal([1_000, 3_000, 7_000, 15_000, 25_000, 35_000]);
    const progress = $clips.get();
    expect(progress.status === 'ready' && progress.value[0]!.progress).to.equal(40);

    w.server.on('GET', CLIPS, ok([clip(9, 'done'), clip(1, 'done')]));
    await w.advance(10_000);
    const count = listCalls().length;
    await w.advance(60_000);
    expect(listCalls(), 'done: no more looks').to.have.length(count);
    const doneState = $clips.get();
    expect(doneState.status === 'ready' && doneState.value[0]!.status).to.equal('done');
  });

  it('pauses while the page is hidden and looks at once when it is shown again', async () => {
    w.server.on('GET', CLIPS, ok([clip(3, 'processing', { progress: 10 })]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    await w.advance(1_000);
    expect(listCalls()).to.have.length(2);
    page.set(false);
    await w.advance(120_000);
    expect(listCalls(), 'nothing while hidden').to.have.length(2);
    page.set(true);
    await flush();
    expect(listCalls(), 'a look as soon as it shows').to.have.length(3);
    // And on with the backoff where it was (the next wait is 4 s).
    await w.advance(4_000);
    expect(listCalls()).to.have.length(4);
  });

  it('a page loaded with a clip still being made follows it (the maker shows it)', async () => {
    w.server.on('GET', CLIPS, ok([clip(4, 'processing', { progress: 70 }), clip(1, 'done', { event_id: 777 })]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    const state = $clips.get();
    const list = state.status === 'ready' ? state.value : [];
    expect(makerClip(501, list, $makerClips.get())?.id).to.equal(4);
    expect(makerClip(777, list, $makerClips.get()), 'a done clip is not followed').to.equal(undefined);
    makeAnother(501);
    expect(makerClip(501, list, $makerClips.get()), 'Make another: the form').to.equal(undefined);
    w.server.on('GET', CLIPS, ok([clip(4, 'done'), clip(1, 'done', { event_id: 777 })]));
    await w.advance(1_000);
    expect(listCalls()).to.have.length(2);
  });

  it('a clip not made within CLIP_TIME_LIMIT_SECONDS shows failed (with Retry) and is no longer looked at', async () => {
    // One whose server date is an hour ahead of this device's clock (only the device's own clock counts: the server's
    // date against a clock that runs ahead or late would fail a clip too soon or never).
    const ahead = Math.floor(w.clock.now / 1000) + 3600;
    w.server.on('GET', CLIPS, ok([clip(7, 'processing', { created_at: ahead })]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    const statuses = () => {
      const state = $clips.get();
      return state.status === 'ready' ? state.value.map((c) => clipStatus(c)) : [];
    };
    expect(statuses()).to.deep.equal(['pending']);
    // A minute later a second clip is in the list (made in another tab, say).
    await w.advance(60_000);
    w.server.on('GET', CLIPS, ok([clip(8, 'queued'), clip(7, 'processing', { created_at: ahead })]));
    await w.advance(10_000);
    expect(statuses()).to.deep.equal(['pending', 'pending']);
    // Looks every 10 s: the first after 5 minutes from when each was first seen shows it failed.
    await w.advance(240_000);
    expect(statuses(), 'the first, 5 minutes after it was first seen').to.deep.equal(['pending', 'failed']);
    await w.advance(70_000);
    expect(statuses(), 'the second, 5 minutes after it was first seen').to.deep.equal(['failed', 'failed']);
    const looks = listCalls().length;
    await w.advance(120_000);
    expect(listCalls(), 'no more looks').to.have.length(looks);
  });

  it('no view following: no looks (the next view to follow starts them again)', async () => {
    w.server.on('GET', CLIPS, ok([clip(5, 'queued')]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    stops.splice(0).forEach((stop) => stop());
    cleanStores($clips);
    await w.advance(60_000);
    expect(listCalls()).to.have.length(1);
    expect(page.listeners, 'the visibility listener is gone').to.equal(0);
    watch();
    await w.advance(1_000);
    expect(listCalls()).to.have.length(2);
  });

  it('delete takes the clip out (a look sent before cannot bring it back); 404 is gone all the same', async () => {
    w.server.on('GET', CLIPS, ok([clip(6, 'done'), clip(7, 'processing')]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    w.server.on('DELETE', `${API}/clip/6`, ok({ message: 'Clip deleted.' }));
    w.server.on('DELETE', `${API}/clip/7`, { status: 404, body: { message: 'Clip not found.' } });
    const answer = new Deferred();
    w.server.on('GET', CLIPS, answer);
    const slow = loadClips();
    await until(() => answer.request !== undefined, 'the look sent');
    expect((await deleteClip({ id: 6 })).ok).to.equal(true);
    answer.resolve(ok([clip(6, 'done'), clip(7, 'processing')]));
    await slow;
    const after = $clips.get();
    expect(after.status === 'ready' && after.value.map((c) => c.id)).to.deep.equal([7]);
    expect((await deleteClip({ id: 7 })).ok).to.equal(true);
    expect($clips.get()).to.deep.equal({ status: 'ready', value: [] });
    expect(w.server.to('DELETE', `${API}/clip/6`)[0]!.query.api_key).to.equal('ak-1');
  });

  it('make again: a new clip with the failed one’s values, and the failed one goes', async () => {
    const broken = clip(8, 'failed', { name: 'Save', start_time: 40, duration: 12, tags: ['save'] });
    w.server.on('GET', CLIPS, ok([broken]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    w.server.on('POST', `${API}/clip`, ok(clip(10, 'queued', { name: 'Save' })));
    w.server.on('DELETE', `${API}/clip/8`, ok({ message: 'Clip deleted.' }));
    expect((await remakeClip(broken)).ok).to.equal(true);
    expect(w.server.to('POST', `${API}/clip`)[0]!.body).to.deep.include({
      event_id: 501,
      name: 'Save',
      start_time: 40,
      duration: 12,
      tags: ['save'],
    });
    await until(() => w.server.to('DELETE', `${API}/clip/8`).length === 1, 'the failed clip deleted');
    const state = $clips.get();
    expect(state.status === 'ready' && state.value.map((c) => c.id)).to.deep.equal([10]);
  });

  it('download: the signed MP4 URL, then the user’s counts are reloaded', async () => {
    w.server.on('GET', `${API}/clip/download/6`, ok({ url: 'https://media.test/download/6.mp4' }));
    w.server.on(
      'GET',
      `${API}/user/access`,
      ok({ capabilities: ['clipping'], featureCount: { clips: 3, downloads: 1 } }),
    );
    const outcome = await downloadClip({ id: 6, media: OWN_MEDIA });
    expect(outcome).to.deep.equal({ ok: true, value: 'https://media.test/download/6.mp4' });
    expect($user.get()?.featureCount).to.deep.equal({ clips: 3, downloads: 1 });
  });

  it('a download URL that is a script, plain http elsewhere, or a path is the download’s failure', async () => {
    w.server.on('GET', `${API}/user/access`, ok({ capabilities: ['clipping'] }));
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'http://elsewhere.test/6.mp4', '/api/files/6.mp4']) {
      w.server.on('GET', `${API}/clip/download/6`, ok({ url }));
      const outcome = await downloadClip({ id: 6, media: OWN_MEDIA });
      expect(outcome.ok, url).to.equal(false);
      expect(outcome.ok === false && outcome.failure.message, url).to.deep.equal({ key: 'errors.generic' });
    }
    // An https storage host the API names is taken (a download is a navigation, never a script).
    w.server.on('GET', `${API}/clip/download/6`, ok({ url: 'https://storage.test/clips/6.mp4?sig=1' }));
    expect(await downloadClip({ id: 6, media: OWN_MEDIA })).to.deep.equal({
      ok: true,
      value: 'https://storage.test/clips/6.mp4?sig=1',
    });
    // The API's own origin is the channel's too.
    w.server.on('GET', `${API}/clip/download/6`, ok({ url: 'http://api.test/api/files/6.mp4' }));
    expect(await downloadClip({ id: 6, media: [] })).to.deep.equal({
      ok: true,
      value: 'http://api.test/api/files/6.mp4',
    });
  });

  it('a 403 download says so in the clips texts', async () => {
    w.server.on('GET', `${API}/clip/download/6`, {
      status: 403,
      body: { message: 'Your account cannot download clips.' },
    });
    const outcome = await downloadClip({ id: 6, media: OWN_MEDIA });
    expect(outcome.ok === false && outcome.failure.message?.key).to.equal('clips:server.noDownload');
  });

  it('sign-out forgets the list; another user gets theirs', async () => {
    w.server.on('GET', CLIPS, ok([clip(1, 'done')]));
    watch();
    await until(() => $clips.get().status === 'ready', 'the list');
    $user.set(undefined);
    expect($clips.get().status).to.equal('idle');
    w.server.on('GET', CLIPS, ok([clip(2, 'done')]));
    signIn(8);
    await until(() => $clips.get().status === 'ready', 'the new list');
    const state = $clips.get();
    expect(state.status === 'ready' && state.value.map((c) => c.id)).to.deep.equal([2]);
    expect(listCalls()[1]!.headers.authorization).to.equal('Bearer token-8');
  });
});

describe('clips: share links and following a shared clip', () => {
  let w: World;
  beforeEach(() => {
    w = installWorld();
  });
  afterEach(() => {
    $settings.set(undefined);
    teardown();
  });

  it('the link is on the channel site (site_url), else this page with the site base', () => {
    const page = { origin: 'https://fans.test' } as never;
    setEnv({ location: () => page });
    expect(clipShareUrl({ id: 9, uuid: UUID })).to.equal(`https://fans.test/share/9/${UUID}`);
    expect(clipShareUrl({ id: 9, uuid: UUID }, (path) => `/tv${path}`)).to.equal(
      `https://fans.test/tv/share/9/${UUID}`,
    );
    $settings.set({ site_url: 'https://watch.demo.test/' } as never);
    expect(clipShareUrl({ id: 9, uuid: UUID }, (path) => `/tv${path}`)).to.equal(
      `https://watch.demo.test/share/9/${UUID}`,
    );
    expect(clipShareUrl({ id: 9, uuid: null })).to.equal(undefined);
    // A site_url that is not an http(s) URL builds no link on it (it would run on a click): this page's origin.
    for (const site of ['javascript:alert(document.domain)//', 'data:text/html,x', '/tv', ' ']) {
      $settings.set({ site_url: site } as never);
      expect(clipShareUrl({ id: 9, uuid: UUID }), site).to.equal(`https://fans.test/share/9/${UUID}`);
    }
    $settings.set({ site_url: 'javascript:alert(document.domain)//' } as never);
    expect(clipPlayHref({ id: 9, uuid: UUID })).to.equal(`https://fans.test/share/9/${UUID}`);
  });

  it('copy and the share sheet go through the environment', async () => {
    const copied: string[] = [];
    const shared: unknown[] = [];
    setEnv({
      copyText: async (text) => void copied.push(text),
      webShare: () => async (data) => void shared.push(data),
    });
    expect(await copyClipLink('https://x.test/share/1/u')).to.equal(true);
    expect(await shareClipLink('Goal', 'https://x.test/share/1/u')).to.equal('shared');
    expect(copied).to.deep.equal(['https://x.test/share/1/u']);
    expect(shared).to.deep.equal([{ title: 'Goal', url: 'https://x.test/share/1/u' }]);
    setEnv({
      copyText: () => Promise.reject(new Error('denied')),
      webShare: () => () => Promise.reject(new DOMException('closed', 'AbortError')),
    });
    expect(await copyClipLink('https://x.test/share/1/u')).to.equal(false);
    expect(await shareClipLink('Goal', 'https://x.test/share/1/u')).to.equal('cancelled');
  });

  it('a shared clip being made is looked at with the same backoff until it is done', async () => {
    fakeVisibility();
    const looks: number[] = [];
    const start = w.clock.now;
    const stop = followClip(async () => {
      looks.push(w.clock.now - start);
      return looks.length < 6;
    });
    for (const wait of [...CLIP_POLL_MS, 10_000, 10_000]) await w.advance(wait);
    expect(looks).to.deep.equal([1_000, 3_000, 7_000, 15_000, 25_000, 35_000]);
    stop();
  });
});
