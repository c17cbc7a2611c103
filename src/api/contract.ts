/**
 * The channel API contract: one set of zod (mini) schemas shared by the browser client and the reference
 * channel server in demo/, so that the two cannot drift apart. Every response the client reads is parsed with
 * one of these; the server types (and in tests, checks) what it sends with the same schemas.
 *
 * Conventions: every API body is `{ data: ... }`; lists add `meta` when paginated; errors are
 * `{ message, errors? }`. Times are UNIX seconds in UTC.
 */
import * as z from 'zod/mini';
import * as paths from '../lib/api-paths.js';

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
  /**
   * Social sign-in (spec section 1: google and facebook): per provider, the OAuth client id and the provider's
   * authorize page. Production names the real providers; the reference server names its local stand-ins.
   */
  social: z.optional(
    z.nullable(z.record(z.string(), z.object({ client_id: text, authorize_url: text, scope: z.optional(text) }))),
  ),
  /**
   * Where the channel's site answers the account routes of emailed links (`/verify-email`, `/password-reset`,
   * `/confirm-account-deletion`) and social callbacks (`/auth/login/{provider}/callback`).
   */
  site_url: maybeText,
  /** Video analytics (mux-embed): the environment key and, for self-hosted collection, the beacon domain. */
  mux: z.optional(z.nullable(z.object({ env_key: text, beacon_domain: maybeText }))),
  /** Card payments: the Stripe publishable key `loadStripe` is called with. */
  stripe: z.optional(z.nullable(z.object({ publishable_key: text }))),
  /**
   * The tag-manager script to load when 'google-analytics' is set, the tag id included; when absent, Google's
   * `https://www.googletagmanager.com/gtag/js?id={google-analytics}`. The reference server names its local stand-in.
   */
  gtag_url: maybeText,
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
  /** False until the emailed verification link was followed (registration by email). */
  email_verified: z._default(flag, true),
  /** The user opted in to news by email at registration or in the profile. */
  news: z._default(flag, false),
  /** How the account signs in: `email`, or the social provider that created it. */
  provider: z._default(z.string(), 'email'),
  /**
   * False for an account made by social sign-in that never set a password: changing the password then needs
   * no current one. Channel APIs that do not send it have passwords on every account, hence the default.
   */
  has_password: z._default(flag, true),
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

// ---------------------------------------------------------------- accounts

/** A plain `{ data: { message } }` answer (logout, reset requests, verification, device linking). */
export const Message = z.object({ message: text });
export type Message = z.infer<typeof Message>;

/** The answer of login, registration and social sign-in: a bearer token and the user. */
export const AuthSession = z.object({ token: text, user: User });
export type AuthSession = z.infer<typeof AuthSession>;

/** A standard email pattern (spec section 5): something@domain.tld, no spaces. Client and server check the same. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Social sign-in providers (spec section 1). */
export const SOCIAL_PROVIDERS = ['google', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** Gender codes of the profile (spec section 3): M, W (woman, shown as female), or not identified (null). */
export const GENDERS = ['M', 'W'] as const;

/** Order types and statuses (spec section 3). Statuses are compared case-insensitively: 'Paid' and 'paid'. */
export const ORDER_TYPES = ['event', 'package', 'subscription'] as const;
export const ORDER_STATUSES = ['paid', 'inactive', 'refunded', 'active', 'failed', 'created'] as const;
export const TRANSACTION_STATUSES = ['created', 'failed', 'paid', 'refunded'] as const;
export const SUBSCRIPTION_STATUSES = ['expired', 'inactive', 'active', 'canceled'] as const;

/** An order (`GET orders`, `GET orders/{id}`). Unknown statuses are kept as text. */
export const Order = z.object({
  id: id,
  type: z.enum(ORDER_TYPES),
  status: text,
  activity_status: maybeText,
  product: z.object({
    id: id,
    name: maybeText,
    event_category_id: z.optional(z.nullable(id)),
    participant_id: z.optional(z.nullable(id)),
  }),
  /** Amount charged and its currency (the channel's, section 9). */
  price: z.optional(z.nullable(z.number())),
  currency: maybeText,
  /** A short reference the viewer can quote to support. */
  reference: maybeText,
  created_at: z.number(),
  /** When access ends (subscriptions: the end of the paid period). */
  expires_at: z.optional(z.nullable(z.number())),
  /** Subscriptions: the subscription's own state and its auto-renewal (active or cancelled). */
  subscription_status: z.optional(z.nullable(z.string())),
  auto_renewal: z.optional(z.nullable(z.enum(['active', 'cancelled']))),
  /** The order's failure reason, when failed. */
  error: maybeText,
});
export type Order = z.infer<typeof Order>;

/** A payment transaction of an order (`GET transactions`). `label` names subscription charges. */
export const Transaction = z.object({
  id: id,
  order_id: id,
  status: text,
  amount: z.number(),
  currency: maybeText,
  created_at: z.number(),
  product_name: maybeText,
  /** 'New subscription' (created) or 'Subscription Renewal' (updated). */
  label: maybeText,
});
export type Transaction = z.infer<typeof Transaction>;

/** Clip display states (spec section 3). */
export const CLIP_STATES = ['processing', 'done', 'failed'] as const;

/** A clip as listed (`GET clips/user`), with its event. */
export const Clip = z.object({
  id: id,
  uuid: maybeText,
  event_id: id,
  name: text,
  start_time: z.number(),
  duration: z.number(),
  tags: z._default(z.array(z.string()), []),
  status: z._default(z.string(), 'processing'),
  created_at: z.optional(z.number()),
  event: z.optional(z.nullable(z.object({ id: id, name: text }))),
});
export type Clip = z.infer<typeof Clip>;

/** What a favourite can point at through `POST /favorite` (spec section 5). */
export const FAVORITABLE_TYPES = ['participant', 'group', 'category'] as const;
export type FavoritableType = (typeof FAVORITABLE_TYPES)[number];

/** One favourite (`POST /favorite` answers it; `GET /favorites` lists them by kind). */
export const Favourite = z.object({
  /** The favourite's own id, for `DELETE /favorite/{id}`. */
  id: id,
  favoritable_id: id,
  favoritable_type: text,
  name: maybeText,
});
export type Favourite = z.infer<typeof Favourite>;

/**
 * `GET /favorites`: the user's favourites by kind (spec section 3). Teams, schools and sports are chosen by the
 * user; favourite events and event locations follow from them (the events of those teams, schools and sports,
 * and where they are played) and are read-only.
 */
export const Favourites = z.object({
  participant: z._default(z.array(Favourite), []),
  participant_group: z._default(z.array(Favourite), []),
  event_category: z._default(z.array(Favourite), []),
  favorite_event: z._default(z.array(z.object({ id: id, name: text, event_utc_ts: z.number() })), []),
  event_location: z._default(z.array(EventLocation), []),
});
export type Favourites = z.infer<typeof Favourites>;

// ---------------------------------------------------------------- payments

/** What a checkout sells (spec section 3): a single-event pass, a package or a subscription. */
export const PRODUCT_TYPES = ['event', 'package', 'subscription'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/**
 * `GET pricing`: the price breakdown of one product for the signed-in user, with an optional coupon. The
 * service fee is shown as 'Taxes' (spec section 9); total = price - discount + service_fee.
 */
export const Pricing = z.object({
  type: z.enum(PRODUCT_TYPES),
  id: id,
  name: text,
  price: z.number(),
  base_price: z.optional(z.nullable(z.number())),
  service_fee: z._default(z.number(), 0),
  discount: z._default(z.number(), 0),
  total: z.number(),
  currency: text,
  coupon: maybeText,
  /** Subscriptions: monthly or annual, and the trial length in days the user may still have. */
  offer: maybeText,
  trial_period: z.optional(z.nullable(z.number())),
  /** Team passes: the team the pass is bought for. */
  participant_id: z.optional(z.nullable(id)),
  /** The user already holds a paid, active order for it. */
  purchased: z._default(flag, false),
});
export type Pricing = z.infer<typeof Pricing>;

/** `GET apply_coupon`: a valid code and what it takes off. */
export const Coupon = z.object({ code: text, discount: z.number(), percent: z.optional(z.nullable(z.number())) });
export type Coupon = z.infer<typeof Coupon>;

/** A saved card (`GET stripe/list-cards`). */
export const SavedCard = z.object({
  id: text,
  brand: text,
  last4: text,
  exp_month: z.number(),
  exp_year: z.number(),
});
export type SavedCard = z.infer<typeof SavedCard>;

/** `POST stripe/buy` answers the order at once (status created); it settles asynchronously. */
export const Purchase = z.object({ order: Order });
export type Purchase = z.infer<typeof Purchase>;

/** `POST stripe/setup-intent`. */
export const SetupIntent = z.object({ client_secret: text });

/** `POST stripe/unsubscribe`: auto-renewal cancellation is processing, then finished. */
export const Unsubscribe = z.object({ status: z.enum(['processing', 'finished']) });

/** `GET stripe/customer-portal`: where the user manages cards and invoices. */
export const CustomerPortal = z.object({ url: text });

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
  getApiKey: { method: 'POST', path: paths.GET_API_KEY_PATH, keyless: true, response: ApiKeyResponse },
  settings: { method: 'GET', path: paths.SETTINGS_PATH, keyless: true, response: envelope(Settings) },
  menu: { method: 'GET', path: 'menu', keyless: true, response: envelope(z.array(MenuItem)) },
  pages: { method: 'GET', path: 'pages', keyless: true, response: envelope(z.array(Page)) },
  page: { method: 'GET', path: 'pages/{alias}', keyless: true, response: envelope(PageDetail) },
  colors: { method: 'GET', path: paths.COLORS_PATH, keyless: true, response: envelope(ColorSettings) },
  profile: { method: 'GET', path: paths.PROFILE_PATH, keyless: false, response: envelope(User) },
  geo: { method: 'GET', path: paths.GEO_PATH, keyless: false, response: envelope(Geo) },
  events: { method: 'GET', path: 'events', keyless: false, response: EventList },
  event: { method: 'GET', path: paths.EVENT_PATH, keyless: false, response: envelope(Event) },
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
  prerolls: { method: 'GET', path: paths.PREROLLS_PATH, keyless: true, response: envelope(PrerollList) },
  downloadEvent: { method: 'GET', path: 'download-event/{id}', keyless: false, response: envelope(Download) },
  userAccess: { method: 'GET', path: 'user/access', keyless: false, response: envelope(UserAccess) },
  packages: { method: 'GET', path: 'packages', keyless: true, response: envelope(z.array(Package)) },
  package: { method: 'GET', path: 'packages/{id}', keyless: true, response: envelope(Package) },
  subscriptions: { method: 'GET', path: 'subscriptions', keyless: true, response: envelope(z.array(Subscription)) },
  subscription: { method: 'GET', path: 'subscriptions/{id}', keyless: true, response: envelope(Subscription) },
  log: { method: 'POST', path: 'logs', keyless: true, response: z.unknown() },

  // Accounts (spec section 7, Auth). Bodies are JSON; every answer is `{ data }`.
  /** `{ email, password }`. Wrong credentials: 422 'Invalid email or password. Please try again.' */
  login: { method: 'POST', path: 'v2/auth/login', keyless: false, response: envelope(AuthSession) },
  logout: { method: 'POST', path: 'auth/logout', keyless: false, response: envelope(Message) },
  /** `{ email, password, password_confirmation, first_name, last_name, terms: true, news? }`; signs in. */
  register: { method: 'POST', path: 'v2/auth/register', keyless: false, response: envelope(AuthSession) },
  /** `{ code, redirect_uri }` from the provider's redirect (its `state` carried the api key). */
  socialLogin: { method: 'POST', path: 'v2/auth/social/{provider}', keyless: false, response: envelope(AuthSession) },
  /** `{ email, expires, signature }` from the emailed link. */
  emailVerify: { method: 'POST', path: 'auth/email-verify', keyless: false, response: envelope(Message) },
  /** Sends the signed-in user's verification link again. */
  emailVerifyResend: { method: 'POST', path: 'auth/email-verify/resend', keyless: false, response: envelope(Message) },
  /** `{ email }`: emails a reset link (the same answer whether or not the email has an account). */
  passwordResetRequest: { method: 'POST', path: 'auth/password-reset-request', keyless: false, response: envelope(Message) },
  /** `{ email, token, password, password_confirmation }`; an old link: 422 'Reset password key expired'. */
  passwordReset: { method: 'POST', path: 'auth/password-reset', keyless: false, response: envelope(Message) },
  /** `{ code }`: links the device showing that code to the signed-in user (remote auth channels only). */
  addSession: { method: 'POST', path: 'auth/add_session', keyless: false, response: envelope(Message) },
  /** Emails the signed-in user a link that confirms the account's deletion. */
  deleteAccount: { method: 'POST', path: 'auth/delete-account', keyless: false, response: envelope(Message) },
  /** `{ email, token }` from the emailed link: deletes the account (keyless: the link works signed out). */
  deleteAccountConfirm: { method: 'POST', path: 'delete-account-confirm', keyless: true, response: envelope(Message) },
  /** `{ _method: 'patch', first_name, last_name, gender, news, password?, password_confirmation? }`. */
  updateProfile: { method: 'POST', path: 'profile', keyless: false, response: envelope(User) },

  // Orders, transactions and clips of the signed-in user.
  orders: { method: 'GET', path: 'orders', keyless: false, response: z.object({ data: z.array(Order), meta: z.optional(PageMeta) }) },
  order: { method: 'GET', path: 'orders/{id}', keyless: false, response: envelope(Order) },
  transactions: {
    method: 'GET',
    path: 'transactions',
    keyless: false,
    response: z.object({ data: z.array(Transaction), meta: z.optional(PageMeta) }),
  },
  userClips: { method: 'GET', path: 'clips/user', keyless: false, response: envelope(z.array(Clip)) },

  // Favourites (spec section 7).
  favourites: { method: 'GET', path: 'favorites', keyless: false, response: envelope(Favourites) },
  /** `{ favoritable_id, favoritable_type }` (participant, group or category). */
  addFavourite: { method: 'POST', path: 'favorite', keyless: false, response: envelope(Favourite) },
  deleteFavourite: { method: 'DELETE', path: 'favorite/{id}', keyless: false, response: envelope(Message) },
  /** The events of the user's favourites: stream_status, start_date, end_date, offset, limit, sort_field, sort_direction. */
  favouriteEvents: { method: 'GET', path: 'events/favorite', keyless: false, response: EventList },

  // Payments (spec section 7). Card data never comes here: only Stripe PaymentMethod ids.
  /** type, id, single_event_package_id, participant_id, coupon: the price breakdown (errors: spec section 5). */
  pricing: { method: 'GET', path: 'pricing', keyless: false, response: envelope(Pricing) },
  /** code, type, id: a valid coupon, or 422 'Wrong promo code'. */
  applyCoupon: { method: 'GET', path: 'apply_coupon', keyless: false, response: envelope(Coupon) },
  /**
   * `{ type, id, single_event_package_id?, participant_id?, coupon?, payment_method, save_card?, idempotency_key }`:
   * the order at once (created); it settles asynchronously (poll `orders/{id}`).
   */
  buy: { method: 'POST', path: 'stripe/buy', keyless: false, response: envelope(Purchase) },
  listCards: { method: 'GET', path: 'stripe/list-cards', keyless: false, response: envelope(z.array(SavedCard)) },
  setupIntent: { method: 'POST', path: 'stripe/setup-intent', keyless: false, response: envelope(SetupIntent) },
  /** `{ subscription_id, payment_method, idempotency_key }` after a confirmed setup intent. */
  startTrial: { method: 'POST', path: 'stripe/subscription/start_trial', keyless: false, response: envelope(Purchase) },
  /** `{ order_id }`: cancels the subscription's auto-renewal. */
  unsubscribe: { method: 'POST', path: 'stripe/unsubscribe', keyless: false, response: envelope(Unsubscribe) },
  customerPortal: { method: 'GET', path: 'stripe/customer-portal', keyless: false, response: envelope(CustomerPortal) },
} as const;
export type EndpointName = keyof typeof endpoints;
