/**
 * The signed-in user's clips of one event, for its watch page's strip: asked for only when `events/with_clip`
 * lists the event (the same list for every watch page, which the client keeps 60 s), then `clips/event/{id}`.
 * A clip made, changed or deleted on the page (`$clipsVersion`) loads it again; another user starts over. Failed
 * clips are left out (there is nothing to watch), and so is any failure to load (the strip is an extra).
 */
import { atom, type ReadableAtom } from 'nanostores';
import { accountApi, type Clip } from '../../api/account-schemas.js';
import { $clipsVersion } from '../clips.js';
import { clipStatus } from '../commerce/access.js';
import { $user, getClient } from '../session.js';

/** One event's clips of the user and the end of following them. */
export interface EventClipsStore {
  $clips: ReadableAtom<Clip[]>;
  destroy(): void;
}

/** Creates the store of `eventId`'s clips and loads them (for a signed-in user). */
export function createEventClips(eventId: number): EventClipsStore {
  const $list = atom<Clip[]>([]);
  let controller: AbortController | undefined;
  let viewer = $user.get()?.id;

  const load = async (fresh: boolean) => {
    controller?.abort();
    if (!$user.get()) return $list.set([]);
    const mine = (controller = new AbortController());
    const { signal } = mine;
    try {
      const api = getClient();
      const events = await api.call(accountApi.eventsWithClip, { query: { no_limit: 1 }, signal, cache: !fresh });
      const clips = events.data.some((event) => event.id === eventId)
        ? (await api.call(accountApi.eventClips, { params: { id: eventId }, signal, cache: false })).data
        : [];
      if (!signal.aborted) $list.set(clips.filter((clip) => clipStatus(clip) !== 'failed'));
    } catch {
      if (!signal.aborted) $list.set([]);
    }
  };

  void load(false);
  const unbindVersion = $clipsVersion.listen(() => void load(true));
  const unbindUser = $user.listen((user) => {
    if (user?.id === viewer) return;
    viewer = user?.id;
    void load(false);
  });
  return {
    $clips: $list,
    destroy() {
      controller?.abort();
      unbindVersion();
      unbindUser();
    },
  };
}
