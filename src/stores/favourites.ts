/**
 * The signed-in user's favourites: the teams (participant), schools (group) and sports (category) the user follows,
 * and the favourite events and event locations the server derives from them. What every page reads (the list and
 * its index) is ./favourites-state.ts; this module loads the list and makes the adds and deletes, and comes with the
 * code that needs them (a guest's schedule never loads it).
 *
 * Shared by every element on the page, like the session. The list loads once something watches it and a user is
 * signed in, loads again when the user changes and after every add and delete, and is forgotten on sign-out. Calls
 * with bad arguments, or without a user, are refused here and nothing is sent.
 */
import {
  FAVORITABLE_TYPES,
  accountApi,
  type FavoritableType,
  type Favourite,
  type Favourites,
} from '../api/account-schemas.js';
import { failed, IDLE, LOADING, ready } from '../lib/async.js';
import {
  $favourites,
  $favouritesStatus,
  $favouritesVersion,
  CHOSEN_KINDS,
  favouritesWatch,
  type ChosenKind,
} from './favourites-state.js';
import { $user, getClient } from './session.js';

export * from './favourites-state.js';

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
/** Who the list is for: the user, and whether a temporary password still locks the account. */
const userKey = (user: { id: number; temporary_password: boolean } | undefined) =>
  user ? `${user.id}${user.temporary_password ? ':locked' : ''}` : undefined;
let currentUser = userKey($user.get());

function startLoad(user: number): Promise<Favourites> {
  const mine = generation;
  $favouritesStatus.set(LOADING);
  // Never from the client's 60 s cache: a reload follows a change the cached answer predates.
  const promise = getClient()
    .call(accountApi.favourites, { cache: false })
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
  const answer = await getClient().call(accountApi.addFavourite, {
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
  await getClient().call(accountApi.deleteFavourite, { params: { id: favouriteId }, cache: false });
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

// Loaded only while a component watches the list (a page with just a player never asks for it): from now on, and at
// once if one already does.
favouritesWatch.onWatch = sync;
if (favouritesWatch.watched) sync();

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
  if (favouritesWatch.watched) sync();
});
