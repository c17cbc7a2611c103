/**
 * Names the site needs for page titles that only the API knows (an event's name on its watch page). The event call
 * is the one the player makes: identical requests in flight are merged and answers cached, so this costs nothing.
 */
import { atom } from 'nanostores';
import { getClient } from '../session.js';
import { channelApi } from '../../api/channel-schemas.js';

/** Event names by id, as loaded. */
export const $eventTitles = atom<Record<string, string>>({});

/** Loads an event's name for its page title (best effort: the title stays generic on failure). */
export function loadEventTitle(id: string): void {
  if ($eventTitles.get()[id]) return;
  getClient()
    .call(channelApi.event, { params: { id } })
    .then((answer) => $eventTitles.set({ ...$eventTitles.get(), [id]: answer.data.name }))
    .catch(() => undefined);
}
