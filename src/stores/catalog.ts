/**
 * Channel catalogues loaded on demand: event categories (sports), event locations (cities and states),
 * participants and participant groups. Each loads once per session and is shared by every element.
 */
import { atom, type ReadableAtom } from 'nanostores';
import type { EventCategory, EventLocation, Participant, ParticipantGroup } from '../api/contract.js';
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
export const categories = catalog<EventCategory>(async () => (await getClient().call('eventCategories')).data);
/** Event locations (cities, states). */
export const locations = catalog<EventLocation>(async () => (await getClient().call('eventLocations')).data);
/** Every participant (`no_limit=1`). */
export const participants = catalog<Participant>(
  async () => (await getClient().call('participants', { query: { no_limit: 1 } })).data,
);
/** Participant groups (schools). */
export const participantGroups = catalog<ParticipantGroup>(
  async () => (await getClient().call('participantGroups')).data,
);
