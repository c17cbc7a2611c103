/**
 * The home page's data: the channel's slides (`GET slides/web`) and the featured events (`GET events-for-homepage`),
 * each loaded once per session and kept, and the choice of slides for the plain home or one school's home.
 */
import { atom, type ReadableAtom } from 'nanostores';
import { siteApi, type HomepageEvents, type Slide } from '../../api/site-schemas.js';
import type { Participant, ParticipantGroup } from '../../api/channel-schemas.js';
import { ApiError } from '../../api/errors.js';
import { failed, IDLE, LOADING, ready, type Async } from '../../lib/async.js';
import { $config } from '../config.js';
import { getClient } from '../session.js';

/** A list loaded once per session, again after a failure. */
interface Loaded<T> {
  $state: ReadableAtom<Async<T, ApiError>>;
  load(): void;
}

function loaded<T>(fetch: () => Promise<T>): Loaded<T> {
  const $state = atom<Async<T, ApiError>>(IDLE);
  $config.listen(() => $state.set(IDLE));
  return {
    $state,
    load() {
      const now = $state.get().status;
      if (now === 'loading' || now === 'ready') return;
      $state.set(LOADING);
      fetch().then(
        (value) => $state.set(ready(value)),
        (error: unknown) =>
          $state.set(failed(error instanceof ApiError ? error : new ApiError('network', String(error)))),
      );
    },
  };
}

/** Every slide of the channel. */
export const slides = loaded<Slide[]>(async () => (await getClient().call(siteApi.slides)).data);
/** The featured events of the home page. */
export const homepageEvents = loaded<HomepageEvents>(async () => (await getClient().call(siteApi.homepageEvents)).data);

/** The school a `group` query value names: by alias, else by name (menu entries without an alias use the name). */
export function groupNamed(groups: readonly ParticipantGroup[], value: string): ParticipantGroup | undefined {
  const wanted = value.trim().toLowerCase();
  return (
    groups.find((g) => g.alias?.toLowerCase() === wanted) ?? groups.find((g) => g.name.trim().toLowerCase() === wanted)
  );
}

/**
 * The slides a home shows: on the plain home the main slides (a slide without a type is main), then the category
 * ones; on a school's home that school's slides and those of its teams.
 */
export function slidesFor(
  all: readonly Slide[],
  group: ParticipantGroup | undefined,
  participants: readonly Participant[],
): Slide[] {
  // The plain home: main slides first, then the sports' (category) slides; no page of the site is a sport's own.
  if (!group)
    return [
      ...all.filter((s) => (s.slidable_type ?? 'main') === 'main'),
      ...all.filter((s) => s.slidable_type === 'category'),
    ];
  const teams = new Set(participants.filter((p) => p.participant_group_id === group.id).map((p) => p.id));
  return all.filter(
    (s) =>
      (s.slidable_type === 'group' && s.slidable_id === group.id) ||
      (s.slidable_type === 'participant' && s.slidable_id != null && teams.has(s.slidable_id)),
  );
}
