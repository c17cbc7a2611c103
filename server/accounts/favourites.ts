/**
 * Favourites of the signed-in user: teams (participant), schools (group) and sports (category) chosen by the user;
 * favourite events and event locations derived from them (the live and upcoming events of those teams, schools and
 * sports, and where they are played). `GET events/favorite` is `GET events` restricted to the same events, with the
 * same query parameters and answer.
 */
import { FAVORITABLE_TYPES, type FavoritableType } from '../../src/api/contract.js';
import { categoryTree, teamTree } from './accounts.js';
import type { ChannelDb, Row } from '../storage/db.js';
import { EVENTS_PER_HIT, eventFilterOf, eventListText, listEvents, type FavouriteIds } from '../catalog/events.js';
import { Checks, idOf, textOrNull, type ApiRequest, type Handlers } from '../http/handler.js';
import { HttpError } from '../http/http.js';

/** Where each favoritable type lives, and its kind in `GET favorites`. */
const KINDS: Record<FavoritableType, { table: string; kind: 'participant' | 'participant_group' | 'event_category' }> =
  {
    participant: { table: 'participants', kind: 'participant' },
    group: { table: 'participant_groups', kind: 'participant_group' },
    category: { table: 'categories', kind: 'event_category' },
  };

/** How many derived favourite events `GET favorites` lists per status (live, upcoming). */
const DERIVED_EVENTS = 50;

const isFavoritable = (type: unknown): type is FavoritableType =>
  typeof type === 'string' && (FAVORITABLE_TYPES as readonly string[]).includes(type);

/** A favourite row (joined with its target's name) as the contract's Favourite. */
const favouriteJson = (row: Row) => ({
  id: Number(row.id),
  favoritable_id: Number(row.favoritable_id),
  favoritable_type: String(row.favoritable_type),
  name: textOrNull(row.name),
});

/** The user's favourites with their targets' names, oldest first. */
function favouriteRows(db: ChannelDb, userId: number, id?: number): Promise<Row[]> {
  const joins = Object.entries(KINDS)
    .map(
      ([type, { table }]) =>
        `SELECT f.*, t.name AS name FROM favourites f JOIN ${table} t ON t.id = f.favoritable_id AND f.favoritable_type = '${type}'`,
    )
    .join(' UNION ALL ');
  return db.all(
    `SELECT * FROM (${joins}) AS f WHERE user_id = ? ${id === undefined ? '' : 'AND id = ?'} ORDER BY created_at, id`,
    id === undefined ? [userId] : [userId, id],
  );
}

/** A user's favourites as the ids an events filter takes (a sport brings its subcategories). */
export async function favouriteIds(db: ChannelDb, userId: number): Promise<FavouriteIds> {
  const of = async (type: FavoritableType) =>
    (
      await db.all('SELECT favoritable_id FROM favourites WHERE user_id = ? AND favoritable_type = ? ORDER BY id', [
        userId,
        type,
      ])
    ).map((row) => Number(row.favoritable_id));
  return {
    participants: await teamTree(db, await of('participant')),
    groups: await of('group'),
    categories: await categoryTree(db, await of('category')),
  };
}

/**
 * The favourites handlers; `charge` counts a big page of favourite events as more requests, as the events list does
 * (catalog-api.ts `EVENTS_PER_HIT`).
 */
export function favouriteHandlers(
  db: ChannelDb,
  charge?: (r: ApiRequest, hits: number) => Promise<void>,
): Handlers<'favourites' | 'addFavourite' | 'deleteFavourite' | 'favouriteEvents'> {
  const userId = async (r: ApiRequest) => Number((await r.user()).id);

  return {
    favourites: async (r) => {
      const id = await userId(r);
      const grouped: Record<string, unknown[]> = { participant: [], participant_group: [], event_category: [] };
      for (const row of await favouriteRows(db, id))
        grouped[KINDS[row.favoritable_type as FavoritableType].kind]!.push(favouriteJson(row));
      const filter = { offset: 0, limit: DERIVED_EVENTS, favourites: await favouriteIds(db, id) };
      const view = await r.view();
      const events = [
        ...(await listEvents(db, r.channelId, { ...filter, status: 'live' }, view)),
        ...(await listEvents(db, r.channelId, { ...filter, status: 'upcoming' }, view)),
      ];
      const locations = new Map<number, unknown>();
      for (const event of events) {
        const location = event.location as { id: number } | null;
        if (location && !locations.has(location.id)) locations.set(location.id, location);
      }
      return {
        data: {
          ...grouped,
          favorite_event: events.map((e) => ({ id: e.id, name: e.name, event_utc_ts: e.event_utc_ts })),
          event_location: [...locations.values()],
        },
      };
    },

    addFavourite: async (r) => {
      const user = await userId(r);
      const checks = new Checks(r.body);
      const type = r.body.favoritable_type;
      const targetId = idOf(r.body.favoritable_id);
      if (!isFavoritable(type))
        checks.fail('favoritable_type', `The favoritable type must be one of ${FAVORITABLE_TYPES.join(', ')}.`);
      if (r.body.favoritable_id === undefined || r.body.favoritable_id === null || r.body.favoritable_id === '') {
        checks.fail('favoritable_id', 'The favoritable id field is required.');
      } else if (
        targetId === undefined ||
        (isFavoritable(type) &&
          !(await db.get(`SELECT 1 AS ok FROM ${KINDS[type].table} WHERE id = ? AND channel_id = ?`, [
            targetId,
            r.channelId,
          ])))
      ) {
        // Unknown, or of another channel: both are simply not something this channel's user can follow.
        checks.fail('favoritable_id', 'The selected favoritable id is invalid.');
      }
      checks.done();
      // Adding a favourite twice answers the one that exists.
      await db.run(
        `INSERT INTO favourites (user_id, favoritable_type, favoritable_id, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (user_id, favoritable_type, favoritable_id) DO NOTHING`,
        [user, type as string, targetId!, r.clock.now],
      );
      const row = (await db.get(
        'SELECT id FROM favourites WHERE user_id = ? AND favoritable_type = ? AND favoritable_id = ?',
        [user, type as string, targetId!],
      ))!;
      return { data: favouriteJson((await favouriteRows(db, user, Number(row.id)))[0]!) };
    },

    deleteFavourite: async (r) => {
      const user = await userId(r);
      const id = idOf(r.params.id);
      // Only one's own: someone else's favourite is as unknown as a missing one.
      if (id === undefined || (await db.run('DELETE FROM favourites WHERE id = ? AND user_id = ?', [id, user])) === 0)
        throw new HttpError(404, 'Favourite not found.');
      return { data: { message: 'Favourite removed.' } };
    },

    favouriteEvents: async (r) => {
      const favourites = await favouriteIds(db, await userId(r));
      const filter = { ...eventFilterOf(r.query), favourites };
      return {
        raw: await eventListText(db, r.channelId, filter, await r.view(), async (events) => {
          const more = Math.ceil(events / EVENTS_PER_HIT) - 1;
          if (more > 0) await charge?.(r, more);
        }),
      };
    },
  };
}
