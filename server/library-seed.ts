/**
 * Seeds a channel's video-on-demand library from its fixture's compact `library` block (fixtures.ts
 * LibraryFixture): categories, items dated relative to the seeding time, and rails. Also lists the generated
 * pictures every fixture needs (`librarySpecs`), which library-media.ts makes before the server listens.
 */
import type { ChannelDb } from './db.js';
import type { ChannelFixture, LibraryFixture } from './fixtures.js';
import type { LibraryAssetSpec } from './library-media.js';

/** Item keys name files: lower-case letters, digits and dashes. */
export const ASSET_KEY = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The YYYY-MM-DD date `daysAgo` days before `now` (UNIX seconds), in UTC. */
export function dateBefore(now: number, daysAgo: number): string {
  return new Date((now - daysAgo * 86400) * 1000).toISOString().slice(0, 10);
}

/**
 * Writes one channel's library. `sports` maps event category aliases to their ids (an item's sport); `now` (UNIX
 * seconds) is when items' ages count from. Throws with the channel and the bad reference on a fixture mistake.
 */
export async function seedLibrary(
  db: ChannelDb,
  channelId: number,
  channel: string,
  library: LibraryFixture | undefined,
  sports: ReadonlyMap<string, number>,
  now: number,
): Promise<void> {
  if (!library) return;
  const fail = (what: string): never => {
    throw new Error(`fixture ${channel}: library: ${what}`);
  };
  const categories = new Map<string, number>();
  for (const [position, [alias, name]] of library.categories.entries()) {
    if (categories.has(alias)) fail(`category '${alias}' twice`);
    categories.set(
      alias,
      await db.insert('INSERT INTO vod_categories (channel_id, position, name, alias) VALUES (?, ?, ?, ?)', [
        channelId,
        position,
        name,
        alias,
      ]),
    );
  }
  const items = new Map<string, number>();
  for (const [position, [key, type, category, sport, daysAgo, title, description]] of library.items.entries()) {
    if (!ASSET_KEY.test(key) || items.has(key)) fail(`item key '${key}' is not a new file-safe key`);
    if (!['free', 'register', 'paid'].includes(type)) fail(`item '${key}' has type '${type}'`);
    if (!(Number.isInteger(daysAgo) && daysAgo >= 0)) fail(`item '${key}' has age ${daysAgo}`);
    const sportId = sport === null ? null : (sports.get(sport) ?? fail(`item '${key}': unknown sport '${sport}'`));
    items.set(
      key,
      await db.insert(
        `INSERT INTO vod_items (channel_id, position, title, date, type, category_id, vod_category_id, duration, asset,
           description) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
        [
          channelId,
          position,
          title,
          dateBefore(now, daysAgo),
          type,
          sportId,
          categories.get(category) ?? fail(`item '${key}': unknown category '${category}'`),
          key,
          description,
        ],
      ),
    );
  }
  for (const [position, [title, keys]] of library.rails.entries()) {
    const railId = await db.insert('INSERT INTO vod_rails (channel_id, position, title) VALUES (?, ?, ?)', [
      channelId,
      position,
      title,
    ]);
    for (const [at, key] of keys.entries()) {
      await db.run('INSERT INTO vod_rail_items (rail_id, position, item_id) VALUES (?, ?, ?)', [
        railId,
        at,
        items.get(key) ?? fail(`rail '${title}': unknown item '${key}'`),
      ]);
    }
  }
}

/**
 * The pictures the fixtures' items need, one per distinct key (a translated channel reuses its original's keys), in
 * the order they are made: grouped by library category, whose position picks the tint.
 */
export function librarySpecs(fixtures: readonly ChannelFixture[]): LibraryAssetSpec[] {
  const tints = new Map<string, number>();
  const specs = new Map<string, LibraryAssetSpec>();
  for (const fixture of fixtures) {
    for (const [alias] of fixture.library?.categories ?? []) if (!tints.has(alias)) tints.set(alias, tints.size);
    for (const [key, , category] of fixture.library?.items ?? []) {
      if (!specs.has(key) && ASSET_KEY.test(key)) specs.set(key, { key, tint: tints.get(category) ?? 0 });
    }
  }
  return [...specs.values()].sort((a, b) => a.tint - b.tint || a.key.localeCompare(b.key));
}
