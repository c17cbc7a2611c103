/**
 * The signed-in user's favourites as every page may read them: the list, its index and whether an event is followed.
 * A guest's page needs no more (no card of a guest is followed), so this is all the code every page loads first; the
 * loading, the adds and the deletes (./favourites.ts) come with what uses them: the follow star, the profile's
 * panel, the site's home, a favourites schedule. Once there, that module loads the list while something watches it.
 */
import { atom, computed, onMount } from 'nanostores';
import type { Event } from '../api/channel-schemas.js';
import type { FavoritableType, Favourite, Favourites } from '../api/account-schemas.js';
import { IDLE, type Async } from '../lib/async.js';

/** The signed-in user's favourites by kind, or undefined (guest, or not loaded yet). */
export const $favourites = atom<Favourites | undefined>(undefined);
/**
 * Where loading `$favourites` is (no value of its own: the list stays in `$favourites` while a reload runs or
 * fails, and changes there at once after an add or delete).
 */
export const $favouritesStatus = atom<Async<void>>(IDLE);
/** Counts the adds and deletes the server accepted: lists that follow from the favourites refetch on it. */
export const $favouritesVersion = atom(0);

/** The kinds of `GET /favorites` that the user chooses, with the `favoritable_type` that adds each. */
export const CHOSEN_KINDS = {
  participant: 'participant',
  participant_group: 'group',
  event_category: 'category',
} as const satisfies Record<string, FavoritableType>;
/** A kind the user chooses. */
export type ChosenKind = keyof typeof CHOSEN_KINDS;

/** The identity of a followable thing, e.g. `participant:12`. */
export const favouriteKey = (type: FavoritableType, id: number): string => `${type}:${id}`;

/** The chosen favourites by key: answers "is this a favourite?" and gives the favourite's id to delete it. */
export const $favouriteIndex = computed($favourites, (favourites) => {
  const index = new Map<string, Favourite>();
  if (!favourites) return index;
  for (const [kind, type] of Object.entries(CHOSEN_KINDS) as [ChosenKind, FavoritableType][]) {
    for (const favourite of favourites[kind]) index.set(favouriteKey(type, favourite.favoritable_id), favourite);
  }
  return index;
});

/** True when the team (participant), school (group) or sport (category) is one of the user's favourites. */
export function isFavourite(type: FavoritableType, id: number, index = $favouriteIndex.get()): boolean {
  return index.has(favouriteKey(type, id));
}

/** Something of an event that can be followed. `name` is undefined when the event does not carry it. */
export interface FavouriteTarget {
  type: FavoritableType;
  id: number;
  name?: string | undefined;
}

/** What an event lets the user follow: its teams, the teams' schools (one each) and its sport. */
export function eventTargets(event: Event): FavouriteTarget[] {
  const targets: FavouriteTarget[] = event.participants.map((p) => ({ type: 'participant', id: p.id, name: p.name }));
  const groups = new Set<number>();
  for (const p of event.participants) {
    if (p.participant_group_id && !groups.has(p.participant_group_id)) {
      groups.add(p.participant_group_id);
      targets.push({ type: 'group', id: p.participant_group_id });
    }
  }
  const category = event.event_category_id ?? event.category?.id;
  if (category) targets.push({ type: 'category', id: category, name: event.category?.name });
  return targets;
}

/** True when any team, school or sport of the event is a favourite. */
export function followsEvent(event: Event, index = $favouriteIndex.get()): boolean {
  if (index.size === 0) return false;
  return eventTargets(event).some((target) => index.has(favouriteKey(target.type, target.id)));
}

/**
 * Whether something watches the list (a mounted `$favourites`), and what the loading module does when that starts:
 * set by ./favourites.ts when it is evaluated.
 */
export const favouritesWatch: { watched: boolean; onWatch?: (() => void) | undefined } = { watched: false };

onMount($favourites, () => {
  favouritesWatch.watched = true;
  favouritesWatch.onWatch?.();
  return () => {
    favouritesWatch.watched = false;
  };
});
