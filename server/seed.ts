/* eslint-disable max-lines -- one seeding pass over the fixtures, in the order that assigns their ids */
/**
 * Seeds a fresh database from the channel fixtures in server/fixtures/*.json, plus the generated `bench` channel.
 * Fixtures refer to each other by alias (category, school, team, location key) rather than by id so that they stay
 * readable and editable by hand; ids are assigned here in file order, which keeps them stable between rebuilds.
 * The fixtures' shape and the bench channel are fixtures.ts.
 */
import { randomUUID } from 'node:crypto';
import { categoryTree, hashPasswordSync } from './accounts.js';
import type { ChannelDb, SqlValue } from './db.js';
import { DEFAULT_SCRIPT_ORIGINS } from './exposure.js';
import { benchFixture, loadFixtures, type ChannelFixture, type OrderFixture, type UserFixture } from './fixtures.js';
import { seedLibrary } from './library-seed.js';
import { settingsProblems } from './settings-rules.js';

/** Seeds every channel; `now` (UNIX seconds) is when seeded orders, clips and accounts are dated from. */
export async function seedDatabase(db: ChannelDb, fixturesDir: string, now: number): Promise<void> {
  for (const fixture of loadFixtures(fixturesDir)) await seedChannel(db, fixture, now);
  await seedChannel(db, benchFixture(), now);
}

/** Throws with a readable message when a fixture refers to an alias it never defined. */
function lookup(map: Map<string, number>, key: string, what: string, channel: string): number {
  const value = map.get(key);
  if (value === undefined) throw new Error(`fixture ${channel}: unknown ${what} '${key}'`);
  return value;
}

async function seedChannel(db: ChannelDb, f: ChannelFixture, now: number): Promise<void> {
  const key = f.channel_key;
  // A fixture obeys the same URL rules as any settings change (a script only from an allowed https origin...).
  const problems = settingsProblems(f.settings, DEFAULT_SCRIPT_ORIGINS);
  if (Object.keys(problems).length)
    throw new Error(`fixture ${key}: settings break the URL rules: ${JSON.stringify(problems)}`);
  const channelId = await db.insert('INSERT INTO channels (channel_key, name) VALUES (?, ?)', [key, f.name]);
  await db.run('INSERT INTO settings (channel_id, json, fixture_json) VALUES (?, ?, ?)', [
    channelId,
    JSON.stringify(f.settings),
    JSON.stringify(f.settings),
  ]);
  for (const [name, value] of Object.entries(f.colors)) {
    await db.run('INSERT INTO colors (channel_id, name, value) VALUES (?, ?, ?)', [channelId, name, value]);
  }

  for (const [position, item] of f.menu.entries()) {
    const menuId = await db.insert(
      'INSERT INTO menu (channel_id, parent_id, position, name, alias, url, custom_icon, type) VALUES (?, NULL, ?, ?, ?, ?, ?, ?)',
      [
        channelId,
        position,
        item.name,
        item.alias ?? null,
        item.url ?? null,
        item.custom_icon ?? null,
        item.type ?? 'link',
      ],
    );
    for (const [childPosition, child] of (item.items ?? []).entries()) {
      await db.run(
        'INSERT INTO menu (channel_id, parent_id, position, name, alias, url, custom_icon, type) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          channelId,
          menuId,
          childPosition,
          child.name,
          child.alias ?? null,
          child.url ?? null,
          child.custom_icon ?? null,
          child.type ?? 'link',
        ],
      );
    }
  }

  for (const [position, page] of f.pages.entries()) {
    // The page alias used by `GET /pages/{alias}` is its url without slashes ("/about" -> "about").
    const alias = page.url.replace(/\//g, '');
    await db.run(
      'INSERT INTO pages (channel_id, position, name, alt_name, url, alias, blocks_json) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [channelId, position, page.name, page.alt_name ?? null, page.url, alias, JSON.stringify(page.blocks)],
    );
  }

  for (const [position, entry] of f.faq.entries()) {
    await db.run('INSERT INTO faq (channel_id, position, question, answer) VALUES (?, ?, ?, ?)', [
      channelId,
      position,
      entry.question,
      entry.answer,
    ]);
  }

  for (const form of f.custom_forms) {
    await db.run('INSERT INTO custom_forms (channel_id, alias, name, fields_json) VALUES (?, ?, ?, ?)', [
      channelId,
      form.alias,
      form.name,
      JSON.stringify(form.fields),
    ]);
  }

  const categories = new Map<string, number>();
  for (const [position, cat] of f.categories.entries()) {
    const parentId = await db.insert(
      'INSERT INTO categories (channel_id, parent_id, position, name, alias, sport, gender) VALUES (?, NULL, ?, ?, ?, ?, ?)',
      [channelId, position, cat.name, cat.alias, cat.sport ?? null, cat.gender ?? null],
    );
    categories.set(cat.alias, parentId);
    for (const [childPosition, child] of (cat.children ?? []).entries()) {
      const childId = await db.insert(
        'INSERT INTO categories (channel_id, parent_id, position, name, alias, sport, gender) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          channelId,
          parentId,
          childPosition,
          child.name,
          child.alias,
          child.sport ?? cat.sport ?? null,
          child.gender ?? null,
        ],
      );
      categories.set(child.alias, childId);
    }
  }

  const groups = new Map<string, number>();
  for (const group of f.participant_groups) {
    const groupId = await db.insert(
      'INSERT INTO participant_groups (channel_id, name, alias, image, properties_json) VALUES (?, ?, ?, ?, ?)',
      [channelId, group.name, group.alias, group.image ?? null, JSON.stringify(group.properties ?? {})],
    );
    groups.set(group.alias, groupId);
  }

  const participants = new Map<string, number>();
  for (const p of f.participants) {
    const groupId = p.group ? lookup(groups, p.group, 'group', key) : null;
    const parentId = p.parent ? lookup(participants, p.parent, 'participant', key) : null;
    const participantId = await db.insert(
      'INSERT INTO participants (channel_id, group_id, parent_id, name, short_name, alias, logo, color, gender, sport) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        channelId,
        groupId,
        parentId,
        p.name,
        p.short_name ?? null,
        p.alias,
        p.logo ?? null,
        p.color ?? null,
        p.gender ?? null,
        p.sport ?? null,
      ],
    );
    participants.set(p.alias, participantId);
  }

  const locations = new Map<string, number>();
  for (const loc of f.locations) {
    const locationId = await db.insert(
      'INSERT INTO locations (channel_id, name, city, state, time_zone) VALUES (?, ?, ?, ?, ?)',
      [channelId, loc.name, loc.city ?? null, loc.state ?? null, loc.time_zone ?? null],
    );
    locations.set(loc.key, locationId);
  }

  for (const [position, slide] of f.slides.entries()) {
    // A slide's owner is given by alias; resolve it against the table its type names.
    let slidableId: number | null = null;
    if (slide.slidable_ref) {
      const table =
        slide.slidable_type === 'group' ? groups : slide.slidable_type === 'participant' ? participants : categories;
      slidableId = lookup(table, slide.slidable_ref, `${slide.slidable_type ?? 'category'} slide ref`, key);
    }
    await db.run(
      'INSERT INTO slides (channel_id, position, title, image, link, slidable_type, slidable_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        channelId,
        position,
        slide.title ?? null,
        slide.image ?? null,
        slide.link ?? null,
        slide.slidable_type ?? null,
        slidableId,
      ],
    );
  }

  const refs = { key, categories, participants, locations };
  const packages = await seedPackages(db, channelId, f, refs);
  // One single-event package per price of the paid (and ppv) events, in price order after the passes.
  const singles = new Map<number, number>();
  const prices = [...new Set(f.events.filter((e) => !FREE_TYPES.has(e.type) && e.price).map((e) => e.price!))].sort(
    (a, b) => a - b,
  );
  const french = f.settings.language === 'fr';
  for (const price of prices) {
    // The listed price includes a service fee (shown as 'Taxes') of about a tenth: 9.99 is 8.99 plus 1.00.
    const fee = Math.round(price * 10) / 100;
    singles.set(
      price,
      await db.insert(
        'INSERT INTO packages (channel_id, position, name, type, price, base_price, service_fee, weight, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          channelId,
          packages.size + singles.size,
          french ? `Passe un événement ${price.toFixed(2).replace('.', ',')}` : `Single Event Pass ${price.toFixed(2)}`,
          'single',
          price,
          Math.round((price - fee) * 100) / 100,
          fee,
          0,
          french ? 'Un événement, en direct et sur demande.' : 'One event, live and on demand.',
        ],
      ),
    );
  }

  // In bulk: the bench channel has 5,000 events. Ids are drawn from the events' own sequence first, so they follow
  // the fixture's order as before, and each event's participants go in with it.
  const events = new Map<string, number>();
  const ids = (
    await db.all("SELECT nextval(pg_get_serial_sequence('events', 'id')) AS id FROM generate_series(1, ?::int)", [
      f.events.length,
    ])
  )
    .map((row) => Number(row.id))
    .sort((a, b) => a - b);
  const rows = f.events.map((e, i) => [
    ids[i]!,
    channelId,
    e.key ?? null,
    e.name,
    e.type,
    Math.round(e.start_offset),
    Math.round(e.duration),
    e.time_zone ?? null,
    e.home ? lookup(participants, e.home, 'participant', key) : null,
    e.location ? lookup(locations, e.location, 'location', key) : null,
    e.category ? lookup(categories, e.category, 'category', key) : null,
    e.image ?? null,
    e.description ?? null,
    e.type === 'free' ? null : (e.price ?? null),
    FREE_TYPES.has(e.type) || !e.price ? null : singles.get(e.price)!,
    e.has_recording === false ? 0 : 1,
    e.is_geo_blocked ? 1 : 0,
  ]);
  const columns = rows[0] ? rows[0].map((_, c) => rows.map((row) => row[c]!)) : [];
  if (rows.length > 0)
    await db.run(
      `INSERT INTO events (id, channel_id, key, name, type, start_offset, duration, time_zone, home_team_id, location_id,
         category_id, image, description, price, single_event_package_id, has_recording, is_geo_blocked)
       OVERRIDING SYSTEM VALUE
       SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[],
         ?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::float8[], ?::bigint[], ?::int[], ?::int[])`,
      columns as unknown as SqlValue[],
    );
  const links: Array<[number, number, number]> = [];
  f.events.forEach((e, i) => {
    if (e.key) events.set(e.key, ids[i]!);
    (e.participants ?? []).forEach((alias, position) => {
      links.push([ids[i]!, lookup(participants, alias, 'participant', key), position]);
    });
  });
  if (links.length > 0)
    await db.run(
      'INSERT INTO event_participants (event_id, participant_id, position) SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::int[])',
      [links.map((l) => l[0]), links.map((l) => l[1]), links.map((l) => l[2])],
    );

  const subscriptions = new Map<string, number>();
  for (const [position, sub] of (f.subscriptions ?? []).entries()) {
    subscriptions.set(
      sub.key,
      await db.insert(
        'INSERT INTO subscriptions (channel_id, position, name, offer, period, price, base_price, service_fee, trial_period, weight, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          channelId,
          position,
          sub.name,
          sub.offer,
          sub.period ?? null,
          sub.price,
          sub.base_price ?? null,
          sub.service_fee ?? null,
          sub.trial_period ?? null,
          sub.weight ?? 0,
          sub.description ?? null,
        ],
      ),
    );
  }

  for (const coupon of f.coupons ?? []) {
    await db.run('INSERT INTO coupons (channel_id, code, percent, amount) VALUES (?, ?, ?, ?)', [
      channelId,
      coupon.code.toUpperCase(),
      coupon.percent ?? null,
      coupon.amount ?? null,
    ]);
  }

  for (const [position, preroll] of (f.prerolls ?? []).entries()) {
    const prerollId = await db.insert(
      'INSERT INTO prerolls (channel_id, position, name, media, weight, location_id, for_vod, for_live) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        channelId,
        position,
        preroll.name,
        preroll.media,
        preroll.weight,
        preroll.location ? lookup(locations, preroll.location, 'location', key) : null,
        preroll.for_vod ? 1 : 0,
        preroll.for_live ? 1 : 0,
      ],
    );
    for (const category of await expandCategories(db, refs, preroll.categories)) {
      await db.run('INSERT INTO preroll_categories (preroll_id, category_id) VALUES (?, ?)', [prerollId, category]);
    }
  }

  await seedLibrary(db, channelId, key, f.library, categories, now);

  const products = { event: events, package: packages, subscription: subscriptions };
  const userRefs = {
    ...refs,
    groups,
    events,
    products,
    currency: typeof f.settings.currency === 'string' ? f.settings.currency : 'USD',
  };
  for (const user of f.users ?? []) await seedUser(db, channelId, user, userRefs, now);
}

interface UserRefs extends Refs {
  groups: Map<string, number>;
  events: Map<string, number>;
  products: Record<OrderFixture['type'], Map<string, number>>;
  currency: string;
}

const DAY = 86400;
/** The tables of an order's product, by order type (each has a price column). */
const PRODUCT_TABLES = { event: 'events', package: 'packages', subscription: 'subscriptions' } as const;

/** One account with its orders (and their transactions), clips and favourites. */
async function seedUser(
  db: ChannelDb,
  channelId: number,
  user: UserFixture,
  refs: UserRefs,
  now: number,
): Promise<void> {
  const { key } = refs;
  const userId = await db.insert(
    `INSERT INTO users (channel_id, email, password_hash, first_name, last_name, gender, capabilities_json, temporary_password,
       news, clips_count, created_at, updated_at, email_verified_at, trial_period_used) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      channelId,
      user.email,
      hashPasswordSync(user.password),
      user.first_name ?? null,
      user.last_name ?? null,
      user.gender ?? null,
      JSON.stringify(user.capabilities ?? []),
      user.temporary_password ? 1 : 0,
      user.news ? 1 : 0,
      user.clips?.length ?? 0,
      now,
      now,
      user.email_verified === false ? null : now,
      user.trial_period_used ? 1 : 0,
    ],
  );
  for (const order of user.orders ?? []) {
    const productId = lookup(refs.products[order.type], order.product, order.type, key);
    const price =
      order.price ??
      Number((await db.get(`SELECT price FROM ${PRODUCT_TABLES[order.type]} WHERE id = ?`, [productId]))?.price ?? 0);
    const currency = order.currency ?? refs.currency;
    const created = now - Math.round((order.age_days ?? 0) * DAY);
    const orderId = await db.insert(
      `INSERT INTO orders (channel_id, user_id, type, product_id, participant_id, status, activity_status, price, currency, reference,
         subscription_status, auto_renewal, error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        channelId,
        userId,
        order.type,
        productId,
        order.participant ? lookup(refs.participants, order.participant, 'participant', key) : null,
        order.status,
        order.activity_status,
        price,
        currency,
        order.reference ?? null,
        order.subscription_status ?? null,
        order.auto_renewal ?? null,
        order.error ?? null,
        created,
        created,
      ],
    );
    const transactions = order.transactions ?? [
      {
        status: ['paid', 'failed', 'refunded'].includes(order.status) ? order.status : 'created',
        label: order.type === 'subscription' ? 'New subscription' : undefined,
        age_days: order.age_days ?? 0,
      },
    ];
    for (const t of transactions) {
      await db.run(
        'INSERT INTO transactions (order_id, user_id, status, amount, currency, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [orderId, userId, t.status, t.amount ?? price, currency, t.label ?? null, now - Math.round(t.age_days * DAY)],
      );
    }
  }
  for (const clip of user.clips ?? []) {
    await db.run(
      `INSERT INTO clips (user_id, event_id, uuid, name, start_time, duration, tags_json, status, progress, source,
         asset_offset, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'vod', ?, ?, ?)`,
      [
        userId,
        lookup(refs.events, clip.event, 'event', key),
        randomUUID(),
        clip.name,
        clip.start_time,
        clip.duration,
        JSON.stringify(clip.tags ?? []),
        clip.status,
        clip.status === 'done' ? 100 : 0,
        // Seeded clips are of finished events: cut from the recording where they start.
        clip.start_time,
        now - Math.round((clip.age_days ?? 0) * DAY),
        now - Math.round((clip.age_days ?? 0) * DAY),
      ],
    );
  }
  const favourites = { participant: refs.participants, group: refs.groups, category: refs.categories };
  for (const favourite of user.favourites ?? []) {
    await db.run('INSERT INTO favourites (user_id, favoritable_type, favoritable_id, created_at) VALUES (?, ?, ?, ?)', [
      userId,
      favourite.type,
      lookup(favourites[favourite.type], favourite.ref, favourite.type, key),
      now,
    ]);
  }
}

/** Event types anyone (free) or any signed-in user (register) may watch: they are not sold. */
const FREE_TYPES = new Set(['free', 'register']);

interface Refs {
  key: string;
  categories: Map<string, number>;
  participants: Map<string, number>;
  locations: Map<string, number>;
}

/** Category aliases to ids, each with its subcategories (clients match an event's own category id). */
function expandCategories(db: ChannelDb, refs: Refs, aliases: string[] | undefined): Promise<number[]> {
  return categoryTree(
    db,
    (aliases ?? []).map((alias) => lookup(refs.categories, alias, 'category', refs.key)),
  );
}

/** The fixture's category and team passes; answers their ids by key. */
async function seedPackages(
  db: ChannelDb,
  channelId: number,
  f: ChannelFixture,
  refs: Refs,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [position, p] of (f.packages ?? []).entries()) {
    const packageId = await db.insert(
      'INSERT INTO packages (channel_id, position, name, type, is_team_pass, price, base_price, service_fee, weight, offer, period, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        channelId,
        position,
        p.name,
        'category',
        p.team_pass ? 1 : 0,
        p.price,
        p.base_price ?? null,
        p.service_fee ?? null,
        p.weight ?? 0,
        p.offer ?? null,
        p.period ?? null,
        p.description ?? null,
      ],
    );
    ids.set(p.key, packageId);
    for (const category of await expandCategories(db, refs, p.categories)) {
      await db.run('INSERT INTO package_categories (package_id, category_id) VALUES (?, ?)', [packageId, category]);
    }
    for (const alias of p.team_pass ?? []) {
      await db.run('INSERT INTO package_participants (package_id, participant_id) VALUES (?, ?)', [
        packageId,
        lookup(refs.participants, alias, 'participant', refs.key),
      ]);
    }
  }
  return ids;
}
