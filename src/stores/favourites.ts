/**
 * The signed-in user's favourites: the teams (participant), schools (group) and sports (category) the user follows,
 * and the favourite events and event locations the server derives from them.
 *
 * Shared by every element on the page, like the session. The list loads once something watches it and a user is
 * signed in, loads again when the user changes and after every add and delete, and is forgotten on sign-out. Calls
 * with bad arguments, or without a user, are refused here and nothing is sent.
 */
import { atom, computed, onMount } from 'nanostores';
import {
  FAVORITABLE_TYPES,
  type Event,
  type FavoritableType,
  type Favourite,
  type Favourites,
} from '../api/contract.js';
import { failed, IDLE, LOADING, ready, type Async } from '../lib/async.js';
import { $user, getClient } from './session.js';

/** The message of every favourites call made without a signed-in user. */
export const NOT_SIGNED_IN = 'user must be logged in';
/** The message of every favourites call made by an account that must first replace its temporary password. */
export const TEMPORARY_PASSWORD = 'a temporary password must be replaced first';

/** A favourites call refused before anything was sent; `problems` lists every reason. */
export class FavouriteRefusedError extends Error {
  override name = 'FavouriteRefusedError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
  }
}

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

/** Every problem with the arguments of an add or delete; none when they are fine. */
export function favouriteProblems(type: unknown, id: unknown, idName = 'favoritable_id'): string[] {
  const problems: string[] = [];
  if (typeof type !== 'string') problems.push('favoritable_type must be a string');
  if (typeof type !== 'string' || !(FAVORITABLE_TYPES as readonly string[]).includes(type)) {
    problems.push(`favoritable_type must be one of ${FAVORITABLE_TYPES.join(', ')}`);
  }
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) problems.push(`${idName} must be a positive integer`);
  return problems;
}

/**
 * The signed-in user's id, or the refusal for a guest, and for an account with a temporary password (the server
 * refuses it everything but its profile until the password is replaced, so nothing is sent).
 */
function signedInUser(): number {
  const user = $user.get();
  if (!user) throw new FavouriteRefusedError([NOT_SIGNED_IN]);
  if (user.temporary_password) throw new FavouriteRefusedError([TEMPORARY_PASSWORD]);
  return user.id;
}

let pending: { user: number; promise: Promise<Favourites> } | undefined;
let rerun: Promise<Favourites> | undefined;
/** Bumped when the user changes, so that an answer for the previous user is never kept. */
let generation = 0;
let loadedFor: number | undefined;
let watched = false;
/** Who the list is for: the user, and whether a temporary password still locks the account. */
const userKey = (user: { id: number; temporary_password: boolean } | undefined) =>
  user ? `${user.id}${user.temporary_password ? ':locked' : ''}` : undefined;
let currentUser = userKey($user.get());

function startLoad(user: number): Promise<Favourites> {
  const mine = generation;
  $favouritesStatus.set(LOADING);
  // Never from the client's 60 s cache: a reload follows a change the cached answer predates.
  const promise = getClient()
    .call('favourites', { cache: false })
    .then(
      (answer) => {
        if (mine === generation) {
          $favourites.set(answer.data);
          loadedFor = user;
          $favouritesStatus.set(ready(undefined));
        }
        return answer.data;
      },
      (error: unknown) => {
        if (mine === generation) $favouritesStatus.set(failed(error));
        throw error;
      },
    );
  const entry = { user, promise };
  pending = entry;
  const forget = () => {
    if (pending === entry) pending = undefined;
  };
  promise.then(forget, forget);
  return promise;
}

/**
 * Loads the signed-in user's favourites (a load already running is joined, never doubled). Rejects with
 * "user must be logged in", sending nothing, for a guest.
 */
export function loadFavourites(): Promise<Favourites> {
  let user: number;
  try {
    user = signedInUser();
  } catch (error) {
    return Promise.reject(error);
  }
  if (pending && pending.user === user) return pending.promise;
  return startLoad(user);
}

/**
 * Loads the favourites again after a change. A load already running may have been answered before the
 * change, so one more runs after it, shared by every change made meanwhile.
 */
export function reloadFavourites(): Promise<Favourites> {
  if (!pending) return loadFavourites();
  rerun ??= pending.promise
    .catch(() => undefined)
    .then(() => {
      rerun = undefined;
      return loadFavourites();
    });
  return rerun;
}

/** Applies an accepted change to the list at once, then reloads it. */
async function afterChange(user: number, change: (favourites: Favourites) => Favourites): Promise<void> {
  if ($user.get()?.id !== user) return;
  const current = $favourites.get();
  if (current) $favourites.set(change(current));
  $favouritesVersion.set($favouritesVersion.get() + 1);
  // The change itself was made; a failed reload only leaves the list as just updated (its status says so).
  await reloadFavourites().catch(() => undefined);
}

/** Follows a team (`participant`), school (`group`) or sport (`category`); resolves once the list is reloaded. */
export async function addFavourite(type: FavoritableType, id: number): Promise<Favourite> {
  const problems = favouriteProblems(type, id);
  if (problems.length > 0) throw new FavouriteRefusedError(problems);
  const user = signedInUser();
  const answer = await getClient().call('addFavourite', {
    body: { favoritable_id: id, favoritable_type: type },
    cache: false,
  });
  const kind = (Object.keys(CHOSEN_KINDS) as ChosenKind[]).find((k) => CHOSEN_KINDS[k] === type)!;
  await afterChange(user, (current) => ({
    ...current,
    [kind]: [...current[kind].filter((f) => f.favoritable_id !== id), answer.data],
  }));
  return answer.data;
}

/**
 * Stops following: `favouriteId` is the favourite's own id (from `$favourites`), `type` what it points at (checked
 * like an add). Resolves once the list is reloaded.
 */
export async function removeFavourite(type: FavoritableType, favouriteId: number): Promise<void> {
  const problems = favouriteProblems(type, favouriteId, 'id');
  if (problems.length > 0) throw new FavouriteRefusedError(problems);
  const user = signedInUser();
  await getClient().call('deleteFavourite', { params: { id: favouriteId }, cache: false });
  await afterChange(user, (current) => {
    const next = { ...current };
    for (const kind of Object.keys(CHOSEN_KINDS) as ChosenKind[])
      next[kind] = current[kind].filter((f) => f.id !== favouriteId);
    return next;
  });
}

/** Loads for a signed-in user whose list is not here yet (not while a temporary password locks the account). */
function sync(): void {
  const user = $user.get();
  if (user && !user.temporary_password && loadedFor !== user.id && !pending) loadFavourites().catch(() => undefined);
}

// Loaded only while a component watches the list (a page with just a player never asks for it).
onMount($favourites, () => {
  watched = true;
  sync();
  return () => {
    watched = false;
  };
});

// A new user (sign-in, sign-out, 401, another tab) starts from nothing, and so does an account whose temporary
// password was just replaced; any other profile update of the same user does not.
$user.listen((user) => {
  if (userKey(user) === currentUser) return;
  currentUser = userKey(user);
  generation++;
  pending = undefined;
  rerun = undefined;
  loadedFor = undefined;
  $favourites.set(undefined);
  $favouritesStatus.set(IDLE);
  if (watched) sync();
});
