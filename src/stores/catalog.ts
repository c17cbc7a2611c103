/**
 * Channel catalogues loaded on demand: event categories (sports), event locations (cities and states),
 * participants and participant groups. Each loads once per session and is shared by every element.
 */
import { atom, type ReadableAtom } from 'nanostores';
import {
  channelApi,
  type EventCategory,
  type EventLocation,
  type GroupProperty,
  type Participant,
  type ParticipantGroup,
} from '../api/channel-schemas.js';
import { $config } from './config.js';
import { getClient } from './session.js';

/** A lazily loaded list. */
export interface Catalog<T> {
  $items: ReadableAtom<T[] | undefined>;
  load(): Promise<T[]>;
}

function catalog<T>(fetchAll: () => Promise<T[]>): Catalog<T> {
  const $items = atom<T[] | undefined>(undefined);
  let pending: Promise<T[]> | undefined;
  $config.listen(() => {
    pending = undefined;
    $items.set(undefined);
  });
  return {
    $items,
    load() {
      pending ??= fetchAll().then(
        (items) => {
          $items.set(items);
          return items;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
  };
}

/** Event categories (sports), as a tree. */
export const categories = catalog<EventCategory>(async () => (await getClient().call(channelApi.eventCategories)).data);
/** Event locations (cities, states). */
export const locations = catalog<EventLocation>(async () => (await getClient().call(channelApi.eventLocations)).data);
/** Every participant (`no_limit=1`). */
export const participants = catalog<Participant>(
  async () => (await getClient().call(channelApi.participants, { query: { no_limit: 1 } })).data,
);
/** Participant groups (schools). */
export const participantGroups = catalog<ParticipantGroup>(
  async () => (await getClient().call(channelApi.participantGroups)).data,
);
/** A team picker's entry: a team, and the teams of its own (children) that are offered with it. */
export interface TeamChoice<T extends { id: number; name: string }> {
  team: T;
  children: T[];
}

/**
 * A team picker's choices: `offered` (in their order), each team with children listed with its children right
 * under it (those offered), so a picker can show them as one group; a child whose team is not offered stands alone.
 */
export function teamChoices<T extends { id: number; name: string }>(
  offered: readonly T[],
  all: readonly Participant[],
): TeamChoice<T>[] {
  const byId = new Map(offered.map((t) => [t.id, t]));
  const childrenOf = (id: number) =>
    (all.find((p) => p.id === id)?.children ?? []).map((c) => byId.get(c.id)).filter((c): c is T => Boolean(c));
  const grouped = new Set(offered.flatMap((t) => childrenOf(t.id).map((c) => c.id)));
  return offered.filter((t) => !grouped.has(t.id)).map((team) => ({ team, children: childrenOf(team.id) }));
}

/** The schools' properties a list can be narrowed by (`participant-group-properties`: conference, division...). */
export const groupProperties = catalog<GroupProperty>(
  async () => (await getClient().call(channelApi.groupProperties)).data,
);
