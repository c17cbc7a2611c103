/**
 * The signed-in user's clips: ONE list that every view shares (the player's clip maker, the profile's clips, a
 * clip the player plays), so a clip made in a player shows in the profile at once and both follow the same
 * polling. While a clip is being made (queued or processing) the list is asked for again with backoff
 * (CLIP_POLL_MS), only while something subscribes to it and the page is shown; a page loaded with a clip still
 * being made follows it the same way. The actions: make (checked first, nothing sent while a rule fails), make
 * again, download, share and delete. The page is reached only through `env()`.
 */
import { atom, onMount } from 'nanostores';
import { CLIP_TIME_LIMIT_SECONDS, accountApi, type Clip } from '../api/account-schemas.js';
import { ApiError, HttpError, isCancel } from '../api/errors.js';
import { failed, IDLE, LOADING, ready, type Async } from '../lib/async.js';
import { env } from '../lib/env.js';
import { downloadUrl, mediaOrigins } from '../lib/url-rules.js';
import { $config } from './config.js';
import { failureOf, panelReason, type Msg } from './account/messages.js';
import { clipStatus } from './commerce/access.js';
import { attempt, done, once, refuse, type Outcome } from './account/outcome.js';
import { $user, getClient } from './session.js';
import { reloadUserAccess } from './sign-in.js';
import { clipRequest, validateClip, type ClipDraft } from './clips/validation.js';

export { clipBounds, tenth, validateClip, type ClipDraft, type ClipSource } from './clips/validation.js';
export { clipStatus, type ClipStatus } from './commerce/access.js';
export { canShareClips, clipPlayHref, clipShareUrl, copyClipLink, shareClipLink, siteAddress } from './clips/share.js';

/** Waits between two looks at a clip being made: 1 s, 2 s, 4 s, 8 s, then every 10 s. */
export const CLIP_POLL_MS = [1_000, 2_000, 4_000, 8_000, 10_000] as const;

/** True while the clip is being made. */
export const isPending = (clip: Pick<Clip, 'status'>): boolean => clipStatus(clip) === 'pending';

/** The user's clips, newest first; a failure carries the message to show. */
export const $clips = atom<Async<Clip[], Msg>>(IDLE);

/**
 * Bumped whenever a clip is made, changes state or is deleted: views with their own lists of clips (a watch
 * page's strip) follow it without following (and so loading) the whole list.
 */
export const $clipsVersion = atom(0);

/**
 * What a clip is, for telling whether it changed: its media URLs are left out, since they are signed afresh every
 * minute (a new URL for the same clip must not restart the player nor reload the strips).
 */
function clipKey(clip: Clip | undefined): string {
  if (!clip) return 'null';
  const { media: _media, ...rest } = clip;
  return JSON.stringify({ ...rest, media: clip.media.map((m) => m.type) });
}

/** When this page first saw each clip being made (ms, this device's clock). */
const seenPending = new Map<number, number>();

/**
 * A clip still being made CLIP_TIME_LIMIT_SECONDS after this page first saw it being made (for a clip made here,
 * when it was asked for) shows as failed, with Retry, and is no longer looked at, whatever the API does with it. The
 * device's clock only: the server's `created_at` compared with a clock running minutes ahead would fail every clip
 * at once. (The reference server fails such a cut itself, from its `created_at`.)
 */
function expire(clip: Clip): Clip {
  if (!isPending(clip)) {
    seenPending.delete(clip.id);
    return clip;
  }
  const now = env().now();
  const since = seenPending.get(clip.id) ?? now;
  seenPending.set(clip.id, since);
  return now - since >= CLIP_TIME_LIMIT_SECONDS * 1000 ? { ...clip, status: 'failed' } : clip;
}

/** Shows a new list (its clips past their time limit as failed), telling `$clipsVersion` when its clips changed. */
function showList(shown: Clip[]): void {
  const list = shown.map(expire);
  // Clips gone from the list are forgotten.
  for (const id of seenPending.keys()) if (!list.some((clip) => clip.id === id)) seenPending.delete(id);
  const before = $clips.get();
  $clips.set(ready(list));
  const changed = before.status !== 'ready' || before.value.map(clipKey).join('\n') !== list.map(clipKey).join('\n');
  if (changed && before.status === 'ready') $clipsVersion.set($clipsVersion.get() + 1);
}

/**
 * The clip each event's maker shows, by event id: the one made there last, or null once the viewer asked to make
 * another (the form). An event without an entry shows its newest clip still being made, if any.
 */
export const $makerClips = atom<Record<string, number | null>>({});

/** Sets what the maker of `event` shows (a new object, so followers see the change). */
function showClip(event: string, clip: number | null): void {
  if ($makerClips.get()[event] !== clip) $makerClips.set({ ...$makerClips.get(), [event]: clip });
}

let owner: number | undefined;
let controller: AbortController | undefined;
let inflight: Promise<void> | undefined;
let timer: unknown;
let step = 0;
let subscribed = false;
/** Counts loads and local additions: a load's answer keeps the clips added after it was sent. */
let tick = 0;
const added = new Map<number, number>();
const deleted = new Set<number>();

const clearTimer = () => {
  if (timer !== undefined) env().clearTimeout(timer);
  timer = undefined;
};

/** Forgets the list (sign-out, another user). */
function reset(): void {
  controller?.abort();
  controller = undefined;
  inflight = undefined;
  clearTimer();
  owner = undefined;
  step = 0;
  added.clear();
  deleted.clear();
  seenPending.clear();
  $clips.set(IDLE);
  $makerClips.set({});
}

/** The server's list, without the clips deleted here and with the ones made here since the load was sent. */
function merge(list: Clip[], sentAt: number): Clip[] {
  const kept = list.filter((clip) => !deleted.has(clip.id));
  const ids = new Set(kept.map((clip) => clip.id));
  const shown = $clips.get();
  const recent =
    shown.status === 'ready'
      ? shown.value.filter((clip) => !ids.has(clip.id) && (added.get(clip.id) ?? 0) > sentAt)
      : [];
  for (const id of ids) added.delete(id);
  return [...recent, ...kept];
}

/** Schedules the next look while a clip is being made, something listens and the page is shown. */
function follow(): void {
  clearTimer();
  const state = $clips.get();
  const pending = state.status === 'ready' && state.value.some(isPending);
  if (!pending) step = 0;
  if (!pending || !subscribed || !env().pageVisible()) return;
  const wait = CLIP_POLL_MS[Math.min(step, CLIP_POLL_MS.length - 1)]!;
  step++;
  timer = env().setTimeout(() => {
    timer = undefined;
    void loadClips();
  }, wait);
}

/**
 * Loads the signed-in user's clips (`GET clips/user`), again for Retry and for each look while a clip is being
 * made. A list on screen stays while it reloads, and stays when a reload fails (the next look tries again).
 */
export function loadClips(): Promise<void> {
  const user = $user.get();
  if (!user) {
    reset();
    return Promise.resolve();
  }
  if (owner !== user.id) {
    reset();
    owner = user.id;
  }
  // One load at a time: a view opening while the list loads (or a look is out) joins it.
  if (inflight) return inflight;
  const mine = (controller = new AbortController());
  const sentAt = ++tick;
  clearTimer();
  if ($clips.get().status !== 'ready') $clips.set(LOADING);
  const settled = () => {
    if (controller === mine) controller = undefined;
    if (inflight === loading) inflight = undefined;
  };
  const loading = getClient()
    .call(accountApi.userClips, { signal: mine.signal, cache: false })
    .then(
      (answer) => {
        if (mine.signal.aborted) return;
        settled();
        showList(merge(answer.data, sentAt));
        follow();
      },
      (error: unknown) => {
        if (mine.signal.aborted || isCancel(error)) return;
        settled();
        if ($clips.get().status === 'ready') follow();
        else $clips.set(failed(panelReason(error)));
      },
    );
  inflight = loading;
  return loading;
}

/** Loads the list unless it is there (a view that only needs it once); joins a load on its way. */
export function ensureClips(): Promise<void> {
  const state = $clips.get();
  if (state.status === 'ready' && owner === $user.get()?.id) return Promise.resolve();
  return loadClips();
}

/** Puts a clip made here at the top of the list and follows it. */
function add(clip: Clip): void {
  added.set(clip.id, ++tick);
  const state = $clips.get();
  if (state.status === 'ready') {
    showList([clip, ...state.value.filter((c) => c.id !== clip.id)]);
  } else {
    const loading = state.status === 'loading';
    $clips.set(ready([expire(clip)]));
    $clipsVersion.set($clipsVersion.get() + 1);
    // The rest of the list, which the viewer has not seen yet (a load in flight brings it anyway).
    if (!loading) void loadClips();
  }
  step = 0;
  follow();
}

/** Takes a clip out of the list (deleted here: a load sent before cannot bring it back). */
function remove(id: number): void {
  deleted.add(id);
  added.delete(id);
  const state = $clips.get();
  if (state.status === 'ready') showList(state.value.filter((clip) => clip.id !== id));
  else $clipsVersion.set($clipsVersion.get() + 1);
  for (const [event, shown] of Object.entries($makerClips.get())) {
    if (shown === id) showClip(event, null);
  }
}

/** Sends a clip request and adds the clip the server queued. */
async function send(body: ReturnType<typeof clipRequest>): Promise<Outcome<Clip>> {
  const outcome = await attempt(() =>
    getClient()
      .call(accountApi.createClip, { body: { ...body }, cache: false })
      .then((answer) => answer.data),
  );
  if (outcome.ok) {
    add(outcome.value);
    showClip(String(body.event_id), outcome.value.id);
  }
  return outcome;
}

/**
 * Makes a clip (`POST clip`) once the draft passes the local rules; otherwise answers their messages by field
 * and sends nothing. The clip joins the shared list at once, queued, and is followed until it is done or failed.
 */
export function makeClip(draft: ClipDraft): Promise<Outcome<Clip>> {
  const local = refuse(validateClip(draft));
  if (local) return Promise.resolve(local);
  return once('clip', () => send(clipRequest(draft)));
}

/** Makes a failed clip again (the same event, name, selection and tags); the failed one then goes. */
export function remakeClip(clip: Clip): Promise<Outcome<Clip>> {
  return once('clip', async () => {
    const outcome = await send({
      event_id: clip.event_id,
      name: clip.name,
      start_time: clip.start_time,
      duration: clip.duration,
      tags: [...clip.tags],
    });
    if (outcome.ok) {
      remove(clip.id);
      getClient()
        .call(accountApi.deleteClip, { params: { id: clip.id }, cache: false })
        .catch(() => undefined);
    }
    return outcome;
  });
}

/** The signed URL of a done clip's MP4 (`GET clip/download/{id}`); the user's counts are reloaded after. */
export async function downloadClip(clip: Pick<Clip, 'id' | 'media'>): Promise<Outcome<string>> {
  const outcome = await attempt(async () => {
    const answer = await getClient().call(accountApi.clipDownload, { params: { id: clip.id }, cache: false });
    // An https file (a signed storage URL, wherever it is), or an http one on the channel's media origins only
    // (url-rules.ts `downloadUrl`); anything else is the download's failure.
    const apiUrl = $config.get()?.apiUrl ?? '';
    const url = downloadUrl(answer.data.url, mediaOrigins(apiUrl, clip.media));
    if (!url) throw new ApiError('invalid-response', 'the clip download is not an http(s) file of the channel');
    return url;
  });
  if (outcome.ok) await reloadUserAccess();
  return outcome;
}

/** Deletes a clip (`DELETE clip/{id}`); one the server no longer has (404) is gone all the same. */
export async function deleteClip(clip: Pick<Clip, 'id'>): Promise<Outcome<void>> {
  try {
    await getClient().call(accountApi.deleteClip, { params: { id: clip.id }, cache: false });
  } catch (error) {
    if (isCancel(error)) throw error;
    if (!(error instanceof HttpError && error.status === 404)) return { ok: false, failure: failureOf(error) };
  }
  remove(clip.id);
  return done(undefined);
}

/**
 * Follows one clip being made outside the list (a shared clip): `look` (which answers whether it is still being
 * made) runs after each wait of CLIP_POLL_MS in turn, paused while the page is hidden and at once when it is
 * shown again. Returns the stop.
 */
export function followClip(look: () => Promise<boolean>): () => void {
  let step = 0;
  let wait: unknown;
  let looking = false;
  let stopped = false;
  const clock = env();
  const clear = () => {
    if (wait !== undefined) clock.clearTimeout(wait);
    wait = undefined;
  };
  const next = () => {
    clear();
    if (stopped || !clock.pageVisible()) return;
    wait = clock.setTimeout(() => void run(), CLIP_POLL_MS[Math.min(step++, CLIP_POLL_MS.length - 1)]!);
  };
  const run = async () => {
    wait = undefined;
    looking = true;
    const more = await look().catch(() => true);
    looking = false;
    if (more) next();
    else stop();
  };
  const stopWatching = clock.onVisibilityChange(() => {
    if (!clock.pageVisible()) clear();
    else if (wait === undefined && !looking && !stopped) void run();
  });
  const stop = () => {
    stopped = true;
    clear();
    stopWatching();
  };
  next();
  return stop;
}

/** The clip a maker shows for `eventId` (see `$makerClips`), if any. */
export function makerClip(
  eventId: number,
  list: readonly Clip[],
  shown: Record<string, number | null>,
): Clip | undefined {
  const chosen = shown[String(eventId)];
  if (chosen === null) return undefined;
  if (chosen !== undefined) return list.find((clip) => clip.id === chosen);
  return list.find((clip) => clip.event_id === eventId && isPending(clip));
}

/**
 * The clip a player plays: with its `uuid` (a share link) from `shared-clip`, for anyone; without, one of the
 * signed-in user's own clips from the shared list (404 when it is not there), and for a guest none (sign in).
 */
export async function playerClip(
  target: { id: string; uuid?: string | undefined },
  signal: AbortSignal,
  cache: boolean,
): Promise<Clip | undefined> {
  if (target.uuid) {
    const answer = await getClient().call(accountApi.sharedClip, {
      params: { id: target.id },
      query: { uuid: target.uuid },
      signal,
      cache,
      // A deleted clip (or a mistyped link) is what the viewer is told, not a fault to log.
      skipLog: [404],
    });
    // A shared clip still being made is failed after the time limit too: its page stops looking and says so.
    return expire(answer.data);
  }
  if (!$user.get()) return undefined;
  const find = () => {
    const state = $clips.get();
    return state.status === 'ready' ? state.value.find((c) => String(c.id) === target.id) : undefined;
  };
  const listed = $clips.get().status === 'ready';
  await ensureClips();
  // A list loaded earlier may predate the clip (made in another tab since): look once more before saying it is gone.
  const own = find() ?? (listed ? await loadClips().then(find) : undefined);
  if (!own) throw new HttpError(404, 'Clip not found.', '');
  return own;
}

/**
 * Follows one of the user's clips in the shared list (which looks again while it is being made): `changed` gets
 * each new version of it (a change of state, progress, name or tags; not a freshly signed URL), and undefined once
 * it is gone (deleted, here or elsewhere). Returns the stop.
 */
export function followOwnClip(clip: Clip, changed: (clip: Clip | undefined) => void): () => void {
  let last = clipKey(clip);
  return $clips.listen((list) => {
    if (list.status !== 'ready') return;
    const now = list.value.find((c) => c.id === clip.id);
    const text = clipKey(now);
    if (text === last) return;
    last = text;
    changed(now);
  });
}

/** Keeps the maker of `eventId` on `clipId` (a clip it found being made) once it is done or failed. */
export function showInMaker(eventId: number, clipId: number): void {
  if ($makerClips.get()[String(eventId)] === undefined) showClip(String(eventId), clipId);
}

/** Shows the form in the maker of `eventId` again ("Make another"). */
export function makeAnother(eventId: number): void {
  showClip(String(eventId), null);
}

onMount($clips, () => {
  subscribed = true;
  // Paused while the page is hidden; shown again, it looks at once.
  const stopWatching = env().onVisibilityChange(() => {
    if (!env().pageVisible()) return clearTimer();
    const state = $clips.get();
    if (state.status === 'ready' && state.value.some(isPending)) void loadClips();
  });
  if ($user.get() && $clips.get().status === 'idle') void loadClips();
  else follow();
  return () => {
    subscribed = false;
    step = 0;
    stopWatching();
    clearTimer();
  };
});

// Another user (or none) has other clips.
$user.listen((user) => {
  if (user?.id === owner) return;
  reset();
  if (user && subscribed) void loadClips();
});
