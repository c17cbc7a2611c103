/**
 * The channel fixtures: the shape of server/fixtures/*.json, loading them, and the generated `bench` channel, which is
 * built in code rather than stored. seed.ts writes them into a fresh database.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The JSON shape of one channel fixture file. */
export interface ChannelFixture {
  channel_key: string;
  name: string;
  settings: Record<string, unknown>;
  colors: Record<string, string>;
  menu: Array<MenuFixture & { items?: MenuFixture[] }>;
  pages: Array<{ name: string; alt_name?: string | null; url: string; blocks: unknown[] }>;
  faq: Array<{ question: string; answer: string }>;
  slides: Array<{
    title?: string | null;
    image?: string | null;
    link?: string | null;
    slidable_type?: string | null;
    /** Alias of the category, participant or group the slide belongs to. */
    slidable_ref?: string;
  }>;
  custom_forms: Array<{ alias: string; name: string; fields: unknown[] }>;
  categories: Array<CategoryFixture & { children?: CategoryFixture[] }>;
  participant_groups: Array<{
    alias: string;
    name: string;
    image?: string | null;
    properties?: Record<string, string>;
  }>;
  participants: Array<{
    alias: string;
    name: string;
    short_name?: string | null;
    group?: string | null;
    /** The team this one belongs to (its alias, listed before it): a squad of a club. */
    parent?: string | null;
    color?: string | null;
    logo?: string | null;
    gender?: string | null;
    sport?: string | null;
  }>;
  locations: Array<{
    key: string;
    name: string;
    city?: string | null;
    state?: string | null;
    time_zone?: string | null;
  }>;
  events: EventFixture[];
  /** Category and team passes; single-event packages are made from the paid events' prices (one per price). */
  packages?: PackageFixture[];
  subscriptions?: SubscriptionFixture[];
  /** Promo codes: a percentage or a fixed amount off the price before fees. */
  coupons?: CouponFixture[];
  prerolls?: PrerollFixture[];
  /** The video-on-demand library: categories, items and rails (library-seed.ts). */
  library?: LibraryFixture;
  users?: UserFixture[];
}

/** A package (pass) a channel sells. */
export interface PackageFixture {
  key: string;
  name: string;
  price: number;
  base_price?: number | null;
  service_fee?: number | null;
  weight?: number;
  /** Category aliases covered (their subcategories included). */
  categories?: string[];
  /** A team pass: bought for one of these teams (participant aliases), covering that team's events. */
  team_pass?: string[];
  offer?: string | null;
  period?: string | null;
  description?: string | null;
}

/** A subscription a channel sells. */
export interface SubscriptionFixture {
  key: string;
  name: string;
  offer: 'monthly' | 'annual';
  period?: string | null;
  price: number;
  base_price?: number | null;
  service_fee?: number | null;
  /** Trial days; none when absent. */
  trial_period?: number | null;
  weight?: number;
  description?: string | null;
}

/** A promo code. */
export interface CouponFixture {
  code: string;
  percent?: number;
  amount?: number;
}

/** A preroll played before events. */
export interface PrerollFixture {
  name: string;
  /** Generated media (server/media.ts): 'bars' or 'zoom'. */
  media: string;
  weight: number;
  /** Location key; none plays everywhere. */
  location?: string | null;
  /** Category aliases (subcategories included); none plays for every category. */
  categories?: string[];
  for_live: boolean;
  for_vod: boolean;
}

/**
 * The video-on-demand library in a compact form, one line per entry. Item keys name the generated image and preview
 * (library-media.ts), so two channels that list the same key (a translation) show the same pictures.
 */
export interface LibraryFixture {
  /** `[alias, name]`, in display order. */
  categories: Array<[alias: string, name: string]>;
  /**
   * `[key, type, category alias, sport (event category alias) or null, age in days at seeding, title, description]`.
   * The first two of `demo` keep ids 1 and 2, which tests and the player demo page use.
   */
  items: Array<
    [
      key: string,
      type: 'free' | 'register' | 'paid',
      category: string,
      sport: string | null,
      daysAgo: number,
      title: string,
      description: string,
    ]
  >;
  /** `[title, item keys in order]`, in display order. */
  rails: Array<[title: string, items: string[]]>;
}

/** A seeded account with its orders, clips and favourites. */
export interface UserFixture {
  email: string;
  /** Stored as a salted scrypt hash, never as given. */
  password: string;
  first_name?: string | null;
  last_name?: string | null;
  gender?: 'M' | 'W' | null;
  capabilities?: string[];
  temporary_password?: boolean;
  /** Opted in to news by email. */
  news?: boolean;
  /** Whether the email address is verified (default true). */
  email_verified?: boolean;
  /** The free trial of a subscription was used already (default false). */
  trial_period_used?: boolean;
  orders?: OrderFixture[];
  clips?: ClipFixture[];
  favourites?: FavouriteFixture[];
}

/** A seeded purchase of an account. */
export interface OrderFixture {
  type: 'event' | 'package' | 'subscription';
  /** The event, package or subscription key, by type. */
  product: string;
  /** A team pass's team (participant alias). */
  participant?: string;
  status: string;
  activity_status: 'active' | 'inactive';
  /** How many days before the seeding the order was made (default 0). */
  age_days?: number;
  /** Amount charged; default the product's price. Currency: default the channel's. */
  price?: number;
  currency?: string;
  reference?: string;
  /** Subscriptions: their own state and auto-renewal. */
  subscription_status?: string;
  auto_renewal?: 'active' | 'cancelled';
  /** Why a failed order failed. */
  error?: string;
  /** Payment transactions; default one for the order's price, with the order's status. */
  transactions?: TransactionFixture[];
}

/** A payment of a seeded order. */
export interface TransactionFixture {
  status: string;
  /** Default the order's price. */
  amount?: number;
  /** 'New subscription' or 'Subscription Renewal' for subscription charges. */
  label?: string;
  age_days: number;
}

/** A clip a seeded account cut from an event. */
export interface ClipFixture {
  /** The event's fixture key. */
  event: string;
  name: string;
  /** Seconds into the recording (of a finished event), which lasts 90 s (media.ts): start + duration fit in it. */
  start_time: number;
  duration: number;
  tags?: string[];
  /** A done clip's files are rendered at start (cached); a processing one is cut by the queue at start. */
  status: 'queued' | 'processing' | 'done' | 'failed';
  age_days?: number;
}

/** A favourite of a seeded account. */
export interface FavouriteFixture {
  type: 'participant' | 'group' | 'category';
  /** The team's, school's or sport's alias. */
  ref: string;
}

interface MenuFixture {
  name: string;
  alias?: string | null;
  url?: string | null;
  custom_icon?: string | null;
  type?: string;
}

interface CategoryFixture {
  alias: string;
  name: string;
  sport?: string | null;
  gender?: string | null;
}

/** An event, timed from the server's start. */
export interface EventFixture {
  /** A name for references from orders, and for tests (GET /__dev/events lists them); unique per channel. */
  key?: string;
  name: string;
  type: string;
  price?: number | null;
  /** Seconds from the server's start; negative is in the past. */
  start_offset: number;
  /** Seconds the event stays live after its start. */
  duration: number;
  time_zone?: string | null;
  category?: string | null;
  location?: string | null;
  /** Participant aliases, away team first, then the home team. */
  participants?: string[];
  home?: string | null;
  image?: string | null;
  description?: string | null;
  /** Whether a finished event has a recording to watch (default true). */
  has_recording?: boolean;
  /** Blocked in the viewer's region: listed, but never with a stream. */
  is_geo_blocked?: boolean;
}

/** Loads every fixture file, in name order so that ids do not depend on the file system's listing order. */
export function loadFixtures(fixturesDir: string): ChannelFixture[] {
  return (
    readdirSync(fixturesDir)
      .filter((name) => name.endsWith('.json'))
      // Sort by channel name without ".json" so "demo" precedes "demo-fr" (a plain sort puts '-' before '.').
      .sort((a, b) => a.replace(/\.json$/, '').localeCompare(b.replace(/\.json$/, '')))
      .map((name) => JSON.parse(readFileSync(join(fixturesDir, name), 'utf8')) as ChannelFixture)
  );
}

/**
 * The `bench` channel: 5,000 events over ±60 days with a handful of teams, built in code because a fixture file of
 * that size would be noise in the repository. Deterministic (no Math.random) so benchmark runs are comparable.
 */
export function benchFixture(): ChannelFixture {
  const sports = ['basketball', 'soccer', 'volleyball', 'hockey'];
  const genders = ['male', 'female'] as const;
  const categories = sports.map((sport) => ({
    alias: sport,
    name: sport[0]!.toUpperCase() + sport.slice(1),
    sport,
    gender: null,
    children: genders.map((gender) => ({
      alias: `${gender}-${sport}`,
      name: `${gender === 'male' ? "Men's" : "Women's"} ${sport}`,
      sport,
      gender,
    })),
  }));
  const schools = ['alpha', 'bravo', 'charlie', 'delta'];
  const participants = schools.flatMap((school) =>
    sports.flatMap((sport) =>
      genders.map((gender) => ({
        alias: `${school}-${gender[0]}-${sport}`,
        name: `${school[0]!.toUpperCase()}${school.slice(1)} ${sport}`,
        short_name: school.slice(0, 3).toUpperCase(),
        group: school,
        gender,
        sport,
      })),
    ),
  );
  const locations = [
    { key: 'east', name: 'East Arena', city: 'Boston', state: 'MA', time_zone: 'EST' },
    { key: 'central', name: 'Central Arena', city: 'Chicago', state: 'IL', time_zone: 'CST' },
    { key: 'mountain', name: 'Mountain Arena', city: 'Denver', state: 'CO', time_zone: 'MST' },
    { key: 'west', name: 'West Arena', city: 'Seattle', state: 'WA', time_zone: 'PST' },
  ];
  const events: EventFixture[] = [];
  const count = 5000;
  const span = 120 * 86400;
  for (let i = 0; i < count; i++) {
    const sport = sports[i % sports.length]!;
    const gender = genders[Math.floor(i / sports.length) % 2]!;
    const home = schools[i % schools.length]!;
    const away = schools[(i + 1 + (i % 3)) % schools.length]!;
    const location = locations[i % locations.length]!;
    const type = i % 10 === 0 ? 'register' : i % 3 === 0 ? 'paid' : 'free';
    events.push({
      name: `Bench game ${i + 1}`,
      type,
      price: type === 'paid' ? 9.99 : null,
      start_offset: -span / 2 + Math.floor((i * span) / count),
      duration: 3 * 3600,
      time_zone: location.time_zone,
      category: `${gender}-${sport}`,
      location: location.key,
      participants:
        home === away
          ? [`${home}-${gender[0]}-${sport}`]
          : [`${away}-${gender[0]}-${sport}`, `${home}-${gender[0]}-${sport}`],
      home: `${home}-${gender[0]}-${sport}`,
      image: null,
      description: null,
    });
  }
  return {
    channel_key: 'bench',
    name: 'Bench Channel',
    settings: {
      name: 'Bench Channel',
      language: 'en',
      currency: 'USD',
      // Analytics keys, so the benchmark can measure a page with analytics on (player-analytics.html) against the
      // same page without (player-bench.html, a localhost page that names no analytics URL, so sends nothing).
      'google-analytics': 'G-BENCH000',
      'yare-analytics': 'bench-analytics-profile',
      auth: { remote_auth: 0 },
    },
    colors: { 'primary-color': '#2563eb' },
    menu: [],
    pages: [],
    faq: [],
    slides: [],
    custom_forms: [],
    categories,
    participant_groups: schools.map((alias) => ({
      alias,
      name: `${alias} school`,
      properties: { conference: 'Bench' },
    })),
    participants,
    locations,
    events,
  };
}
