/**
 * The channel API contract: one set of zod (mini) schemas shared by the browser client and the reference
 * channel server in demo/, so that the two cannot drift apart. Every response the client reads is parsed with
 * one of these; the server types (and in tests, checks) what it sends with the same schemas.
 *
 * Conventions: every API body is `{ data: ... }`; lists add `meta` when paginated; errors are
 * `{ message, errors? }`. Times are UNIX seconds in UTC.
 */
import * as z from 'zod/mini';

/** A number that may arrive as a numeric string (some channel back ends send ids as strings). */
const id = z.pipe(
  z.union([z.number(), z.string().check(z.regex(/^\d+$/))]),
  z.transform((v) => Number(v)),
);
/** A flag that may arrive as 0/1, "0"/"1" or a boolean (spec: auth.remote_auth is 0 or 1, treated as boolean). */
const flag = z.pipe(
  z.union([z.boolean(), z.number(), z.string()]),
  z.transform((v) => v === true || v === 1 || v === '1' || v === 'true'),
);
const text = z.string();
const maybeText = z.optional(z.nullable(z.string()));

/** Wraps a payload schema in the `{ data }` envelope. */
export const envelope = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });

// ---------------------------------------------------------------- errors

/** The error body every failing API call answers with. */
export const ErrorBody = z.object({
  message: z.optional(z.string()),
  errors: z.optional(z.record(z.string(), z.union([z.array(z.string()), z.string()]))),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Server message for an unknown channel key or api key (spec section 8, spelling kept). */
export const NO_KEY_MESSAGE = 'No chanel or api key found.';

// ---------------------------------------------------------------- keys

/** The keys host's JSON for an embed key: `GET {keysUrl}/{channelKey}.json`. */
export const ChannelKeyFile = z.object({
  channel_key: text,
  name: z.optional(text),
});
export type ChannelKeyFile = z.infer<typeof ChannelKeyFile>;

/** `POST /get_api_key` body and answer. */
export const GetApiKeyBody = z.object({ channel_key: text });
export const ApiKeyResponse = envelope(z.object({ api_key: text }));

// ---------------------------------------------------------------- channel

/** Channel settings (`GET /settings`, also `/storage/settings/{channel_key}.json`). */
export const Settings = z.object({
  name: z.optional(text),
  language: z._default(z.string(), 'en'),
  currency: z._default(z.string(), 'USD'),
  'google-analytics': maybeText,
  'yare-analytics': maybeText,
  auth: z._default(z.object({ remote_auth: z._default(flag, false) }), { remote_auth: false }),
  prerolls: z.optional(
    z.object({
      enabled: z.optional(flag),
      suppression_minutes: z.optional(z.number()),
    }),
  ),
  static_blocks: z.optional(z.record(z.string(), z.record(z.string(), z.string()))),
  logo: maybeText,
  /** Video analytics (mux-embed): the environment key and, for self-hosted collection, the beacon domain. */
  mux: z.optional(z.nullable(z.object({ env_key: text, beacon_domain: maybeText }))),
});
export type Settings = z.infer<typeof Settings>;

/** One entry of the channel menu; group entries carry a participant-group alias. */
export const MenuItem = z.object({
  id: id,
  name: text,
  alias: maybeText,
  url: maybeText,
  custom_icon: maybeText,
  type: z._default(z.string(), 'link'),
  items: z.optional(
    z.array(z.object({ id: id, name: text, alias: maybeText, url: maybeText, custom_icon: maybeText })),
  ),
});
export type MenuItem = z.infer<typeof MenuItem>;

/** A content page as listed by `GET /pages`. */
export const Page = z.object({ id: id, name: text, alt_name: maybeText, url: text });
export type Page = z.infer<typeof Page>;

/** A content block of a page: paragraph (HTML, sanitized by the client), image, or static-block reference. */
export const PageBlock = z.union([
  z.object({ type: z.literal('paragraph'), html: text }),
  z.object({ type: z.literal('image'), url: text, alt: z._default(z.string(), '') }),
  z.object({ type: z.literal('static-block'), ref: text }),
]);
export type PageBlock = z.infer<typeof PageBlock>;

/** `GET /pages/{alias}`. */
export const PageDetail = z.object({ id: id, name: text, url: text, blocks: z.array(PageBlock) });
export type PageDetail = z.infer<typeof PageDetail>;

/** `GET /color-settings/web`: colour name to CSS hex colour. */
export const ColorSettings = z.record(z.string(), z.string());
export type ColorSettings = z.infer<typeof ColorSettings>;

/** `GET /geo`. */
export const Geo = z.object({
  country: maybeText,
  country_code: maybeText,
  ip: maybeText,
  is_geo_blocked: z._default(flag, false),
});
export type Geo = z.infer<typeof Geo>;

/** The signed-in user (`GET /profile`). */
export const User = z.object({
  id: id,
  email: text,
  first_name: maybeText,
  last_name: maybeText,
  temporary_password: z._default(flag, false),
  gender: z.optional(z.nullable(z.enum(['M', 'W']))),
  capabilities: z._default(z.array(z.string()), []),
  trial_period_used: z._default(flag, false),
  featureCount: z.optional(z.object({ clips: z.number(), downloads: z.number() })),
  is_geo_blocked: z._default(flag, false),
});
export type User = z.infer<typeof User>;

/** `GET /faq`: answers are HTML, sanitized by the client. */
export const Faq = z.object({ id: id, question: text, answer: text });
export type Faq = z.infer<typeof Faq>;

/** `GET /slides/web`. A slide without a type belongs to main. */
export const Slide = z.object({
  id: id,
  title: maybeText,
  image: maybeText,
  link: maybeText,
  slidable_type: z._default(z.nullable(z.string()), 'main'),
  slidable_id: z.optional(z.nullable(id)),
});
export type Slide = z.infer<typeof Slide>;

/** `GET /custom-forms/{alias}` (404 tolerated, yields nothing). */
export const CustomForm = z.object({
  alias: text,
  name: text,
  fields: z.array(
    z.object({ name: text, label: text, type: z._default(z.string(), 'text'), required: z._default(flag, false) }),
  ),
});
export type CustomForm = z.infer<typeof CustomForm>;

// ---------------------------------------------------------------- participants and categories

/** A team or athlete. */
export const Participant = z.object({
  id: id,
  name: text,
  short_name: maybeText,
  alias: maybeText,
  images: z.optional(z.nullable(z.object({ logo: maybeText }))),
  color: maybeText,
  properties: z.optional(z.nullable(z.object({ gender: maybeText, sport: maybeText }))),
  participant_group_id: z.optional(z.nullable(id)),
});
export type Participant = z.infer<typeof Participant>;

/** A school (participant group). */
export const ParticipantGroup = z.object({ id: id, name: text, alias: maybeText, image: maybeText });
export type ParticipantGroup = z.infer<typeof ParticipantGroup>;

/** `GET /participant-group-properties`: the filterable properties and their values. */
export const GroupProperty = z.object({ name: text, values: z.array(z.string()) });
export type GroupProperty = z.infer<typeof GroupProperty>;

/** An event category (sport); top-level categories may have children. */
export interface EventCategory {
  id: number;
  name: string;
  alias?: string | null | undefined;
  parent_id?: number | null | undefined;
  sport?: string | null | undefined;
  gender?: string | null | undefined;
  children?: EventCategory[] | undefined;
}
export const EventCategory: z.ZodMiniType<EventCategory> = z.object({
  id: id,
  name: text,
  alias: maybeText,
  parent_id: z.optional(z.nullable(id)),
  sport: maybeText,
  gender: maybeText,
  get children() {
    return z.optional(z.array(EventCategory));
  },
}) as unknown as z.ZodMiniType<EventCategory>;

/** `GET /events-locations`. */
export const EventLocation = z.object({
  id: id,
  name: text,
  city: maybeText,
  state: maybeText,
  time_zone: maybeText,
});
export type EventLocation = z.infer<typeof EventLocation>;

// ---------------------------------------------------------------- events

/** Stream statuses, which are also the event list kinds (finished = on demand). */
export const STREAM_STATUSES = ['live', 'upcoming', 'finished'] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];

/** Content types of an event (spec section 3). Unknown types are kept as strings and treated as paid. */
export const CONTENT_TYPES = ['free', 'paid', 'register', 'ppv'] as const;

/** Media kinds (spec section 3). */
export const MEDIA_KINDS = ['image', 'live', 'vod', 'embedded', 'thumbnails', 'preview', 'preview_alt', 'embedded_preview'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** One media item of an event or library item. Unknown kinds are kept as strings and ignored. */
export const EventMedia = z.object({ type: text, url: text });
export type EventMedia = z.infer<typeof EventMedia>;

/** An event, as listed and as fetched alone. */
export const Event = z.object({
  id: id,
  name: text,
  type: z._default(z.string(), 'free'),
  event_utc_ts: z.number(),
  time_zone: maybeText,
  has_access: z._default(flag, false),
  participants: z._default(z.array(Participant), []),
  home_team_id: z.optional(z.nullable(id)),
  location_id: z.optional(z.nullable(id)),
  location: z.optional(z.nullable(EventLocation)),
  event_category_id: z.optional(z.nullable(id)),
  category: z.optional(z.nullable(z.object({ id: id, name: text }))),
  stream_status: z.enum(STREAM_STATUSES),
  image: maybeText,
  description: maybeText,
  price: z.optional(z.nullable(z.number())),
  is_geo_blocked: z.optional(flag),
  /** The single-event pass that sells this event (paid and ppv events). */
  single_event_package_id: z.optional(z.nullable(id)),
  /** Length in seconds (scheduled for live and upcoming, the recording's for finished). */
  duration: z.optional(z.nullable(z.number())),
  /** A finished event has a recording to watch. */
  has_recording: z._default(flag, true),
  /**
   * Media of the event by kind (spec section 3). Stream kinds (`live`, `vod`) are listed only for callers with
   * access: their URLs are signed, short-lived playback URLs that the media server checks.
   */
  media: z._default(z.array(EventMedia), []),
});
export type Event = z.infer<typeof Event>;

/** Pagination metadata of list answers. */
export const PageMeta = z.object({ total: z.number(), offset: z.number(), limit: z.number() });

/** `GET /events`. */
export const EventList = z.object({ data: z.array(Event), meta: PageMeta });
export type EventList = z.infer<typeof EventList>;

/** `GET /events-for-homepage`. */
export const HomepageEvents = z.object({
  live: z.array(Event),
  upcoming: z.array(Event),
  finished: z.array(Event),
});
export type HomepageEvents = z.infer<typeof HomepageEvents>;

/** The query of `GET /events` (all optional; the server answers 422 with `errors` for invalid values). */
export const EventQuery = z.object({
  stream_status: z.optional(z.enum(STREAM_STATUSES)),
  event_category_id: z.optional(z.string()),
  category: z.optional(z.string()),
  participant_id: z.optional(z.string()),
  team: z.optional(z.string()),
  group: z.optional(z.string()),
  school: z.optional(z.string()),
  sport: z.optional(z.string()),
  gender: z.optional(z.string()),
  city: z.optional(z.string()),
  state: z.optional(z.string()),
  location: z.optional(z.string()),
  start_date: z.optional(z.string()),
  end_date: z.optional(z.string()),
  offset: z.optional(z.string()),
  limit: z.optional(z.string()),
  sort_direction: z.optional(z.enum(['asc', 'desc'])),
});
export type EventQuery = z.infer<typeof EventQuery>;

/** The largest page the events list answers. */
export const MAX_EVENTS_PAGE = 5000;

// ---------------------------------------------------------------- video on demand

/** A video-on-demand library item (`GET vod-media-items/{id}`). */
export const VodItem = z.object({
  id: id,
  title: text,
  date: maybeText,
  type: z._default(z.string(), 'free'),
  has_access: z._default(flag, false),
  duration: z.optional(z.nullable(z.number())),
  event_category_id: z.optional(z.nullable(id)),
  assets: z._default(z.array(z.object({ type: text, path: text })), []),
  /** As for events: the `vod` stream only for callers with access. */
  media: z._default(z.array(EventMedia), []),
});
export type VodItem = z.infer<typeof VodItem>;

// ---------------------------------------------------------------- prerolls and downloads

/** A preroll (spec section 3): played before the main video of matching events. */
export const Preroll = z.object({
  id: id,
  url: text,
  weight: z._default(z.number(), 1),
  location_id: z.optional(z.nullable(id)),
  event_categories: z._default(z.array(id), []),
  for_vod: z._default(flag, false),
  for_live: z._default(flag, false),
});
export type Preroll = z.infer<typeof Preroll>;
/** A list of prerolls (`GET prerolls`, and the copy kept in storage). */
export const PrerollList = z.array(Preroll);

/** `GET download-event/{id}`: where to download the recording (a signed, short-lived URL). */
export const Download = z.object({ url: text, filename: maybeText });
export type Download = z.infer<typeof Download>;

/** `GET user/access`: the signed-in user's capabilities and feature counts, reloaded after a download. */
export const UserAccess = z.object({
  capabilities: z._default(z.array(z.string()), []),
  featureCount: z.optional(z.object({ clips: z.number(), downloads: z.number() })),
});
export type UserAccess = z.infer<typeof UserAccess>;

// ---------------------------------------------------------------- offers

/** Fields every offer has (packages and subscriptions). */
const offerFields = {
  id: id,
  name: text,
  price: z.number(),
  base_price: z.optional(z.nullable(z.number())),
  service_fee: z.optional(z.nullable(z.number())),
  weight: z._default(z.number(), 0),
  period: maybeText,
  description: maybeText,
};

/** A package (spec section 3): a single-event pass, a category pass or a team pass. */
export const Package = z.object({
  ...offerFields,
  /** Categories covered (category and team passes). */
  event_categories: z._default(z.array(id), []),
  /** Teams a team pass can be bought for (one is chosen at purchase). */
  participants: z._default(z.array(id), []),
  is_team_pass: z._default(flag, false),
  type: z._default(z.string(), 'category'),
  offer: maybeText,
});
export type Package = z.infer<typeof Package>;

/** A subscription (spec section 3): covers every paid event while active. */
export const Subscription = z.object({
  ...offerFields,
  offer: z._default(z.string(), 'monthly'),
  /** Trial length in days; none when 0 or absent. */
  trial_period: z.optional(z.nullable(z.number())),
});
export type Subscription = z.infer<typeof Subscription>;

// ---------------------------------------------------------------- logging

/** The JSON log entry a failed request posts to the logging endpoint (spec sections 7 and 8). */
export const LogEntry = z.object({
  date: text,
  status: z.number(),
  service: text,
  channel: text,
  message: text,
  request_data: z.unknown(),
  url: text,
});
export type LogEntry = z.infer<typeof LogEntry>;

// ---------------------------------------------------------------- the endpoint table

/**
 * Every endpoint of this contract: method, path (relative to the API base) and whether it is keyless.
 * Keyless calls carry `channel_key` instead of `api_key` so that one server can host many channels.
 */
export const endpoints = {
  getApiKey: { method: 'POST', path: 'get_api_key', keyless: true, response: ApiKeyResponse },
  settings: { method: 'GET', path: 'settings', keyless: true, response: envelope(Settings) },
  menu: { method: 'GET', path: 'menu', keyless: true, response: envelope(z.array(MenuItem)) },
  pages: { method: 'GET', path: 'pages', keyless: true, response: envelope(z.array(Page)) },
  page: { method: 'GET', path: 'pages/{alias}', keyless: true, response: envelope(PageDetail) },
  colors: { method: 'GET', path: 'color-settings/web', keyless: true, response: envelope(ColorSettings) },
  profile: { method: 'GET', path: 'profile', keyless: false, response: envelope(User) },
  geo: { method: 'GET', path: 'geo', keyless: false, response: envelope(Geo) },
  events: { method: 'GET', path: 'events', keyless: false, response: EventList },
  event: { method: 'GET', path: 'events/{id}', keyless: false, response: envelope(Event) },
  eventCategories: {
    method: 'GET',
    path: 'events-categories',
    keyless: false,
    response: envelope(z.array(EventCategory)),
  },
  homepageEvents: {
    method: 'GET',
    path: 'events-for-homepage',
    keyless: false,
    response: envelope(HomepageEvents),
  },
  eventLocations: {
    method: 'GET',
    path: 'events-locations',
    keyless: true,
    response: envelope(z.array(EventLocation)),
  },
  participants: { method: 'GET', path: 'participants', keyless: true, response: envelope(z.array(Participant)) },
  participantGroups: {
    method: 'GET',
    path: 'participant-groups',
    keyless: true,
    response: envelope(z.array(ParticipantGroup)),
  },
  groupProperties: {
    method: 'GET',
    path: 'participant-group-properties',
    keyless: false,
    response: envelope(z.array(GroupProperty)),
  },
  faq: { method: 'GET', path: 'faq', keyless: true, response: envelope(z.array(Faq)) },
  slides: { method: 'GET', path: 'slides/web', keyless: true, response: envelope(z.array(Slide)) },
  customForm: { method: 'GET', path: 'custom-forms/{alias}', keyless: false, response: envelope(CustomForm) },
  vodItem: { method: 'GET', path: 'vod-media-items/{id}', keyless: false, response: envelope(VodItem) },
  prerolls: { method: 'GET', path: 'prerolls', keyless: true, response: envelope(PrerollList) },
  downloadEvent: { method: 'GET', path: 'download-event/{id}', keyless: false, response: envelope(Download) },
  userAccess: { method: 'GET', path: 'user/access', keyless: false, response: envelope(UserAccess) },
  packages: { method: 'GET', path: 'packages', keyless: true, response: envelope(z.array(Package)) },
  package: { method: 'GET', path: 'packages/{id}', keyless: true, response: envelope(Package) },
  subscriptions: { method: 'GET', path: 'subscriptions', keyless: true, response: envelope(z.array(Subscription)) },
  subscription: { method: 'GET', path: 'subscriptions/{id}', keyless: true, response: envelope(Subscription) },
  log: { method: 'POST', path: 'logs', keyless: true, response: z.unknown() },
} as const;
export type EndpointName = keyof typeof endpoints;
