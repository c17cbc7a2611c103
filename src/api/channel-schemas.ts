/**
 * The contract's schemas every page may need: errors, keys, settings, the viewer, participants and categories,
 * events. Re-exported by contract.ts, which the server and the tests import (browser code imports this module). The site's pages (site-schemas.ts), the library
 * (vod-schemas.ts) and what a viewer buys and owns (account-schemas.ts) are schemas of their own, so a page that
 * shows none of them carries none of their code.
 */
import * as z from 'zod/mini';
import {
  aliased,
  dict,
  endpointTable,
  envelope,
  flag,
  id,
  list,
  maybeText,
  num,
  obj,
  opt,
  optStrict,
  paged,
  text,
} from './schema-kit.js';
import * as paths from '../lib/api-paths.js';

// ---------------------------------------------------------------- errors

/** The error body every failing API call answers with. */
export const ErrorBody = obj({
  message: maybeText,
  errors: opt(dict(z.union([z.array(z.string()), z.string()]))),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Server message for an unknown channel key or api key (the server's spelling, kept). */
export const NO_KEY_MESSAGE = 'No chanel or api key found.';

/** A plain `{ data: { message } }` answer (logout, reset requests, verification, device linking). */
export const Message = obj({ message: text });
export type Message = z.infer<typeof Message>;

// ---------------------------------------------------------------- keys

/** The keys host's JSON for an embed key: `GET {keysUrl}/{channelKey}.json`. */
export const ChannelKeyFile = obj({
  channel_key: text,
  name: maybeText,
});
export type ChannelKeyFile = z.infer<typeof ChannelKeyFile>;

/** `POST /get_api_key` body and answer. */
export const GetApiKeyBody = z.object({ channel_key: text });
export const ApiKeyResponse = envelope(obj({ api_key: text }));

// ---------------------------------------------------------------- channel

/**
 * Channel settings (`GET /settings`, also `/storage/settings/{channel_key}.json`), read field by field: a field that
 * cannot be read (null, `[]` for a list, a wrong type) takes its default and the rest applies.
 */
export const Settings = obj({
  name: maybeText,
  language: opt(text, 'en'),
  /**
   * The currency of prices that name none (an event's, an offer's). Read field by field as the rest, so that it never
   * stops the start-up: what a checkout charges comes with its own currency, read strictly (account-schemas.ts
   * `Pricing`).
   */
  currency: opt(text, 'USD'),
  'google-analytics': maybeText,
  'yare-analytics': maybeText,
  auth: opt(obj({ remote_auth: opt(flag, false) }), { remote_auth: false }),
  /**
   * The channel's prerolls (the spec's list), read by the player alone (preroll-schemas.ts `prerollsOf`: one by one,
   * an unreadable one left out), so a page without a player carries none of their schema and a bad list costs no
   * element its settings.
   */
  prerolls: z.optional(z.unknown()),
  /**
   * Ours, beside the spec's list: `enabled` false turns the prerolls off without emptying the list, and
   * `suppression_minutes` is how long a preroll seen stays suppressed for that viewer and event (default 60). Read by
   * the player alone (preroll-schemas.ts `prerollOptionsOf`: a value it cannot read is the defaults).
   */
  preroll_options: z.optional(z.unknown()),
  static_blocks: opt(dict(dict(z.string()))),
  logo: maybeText,
  /**
   * Social sign-in (google and facebook): per provider, the OAuth client id and the provider's authorize page.
   * Production names the real providers; the reference server names its local stand-ins.
   */
  social: opt(dict(obj({ client_id: text, authorize_url: text, scope: maybeText }))),
  /**
   * Where the channel's site answers the account routes of emailed links (`/verify-email`, `/password-reset`,
   * `/confirm-account-deletion`) and social callbacks (`/auth/login/{provider}/callback`).
   */
  site_url: maybeText,
  /** Video analytics (mux-embed): the environment key and, for self-hosted collection, the beacon domain. */
  mux: opt(obj({ env_key: text, beacon_domain: maybeText })),
  /** Card payments: the Stripe publishable key `loadStripe` is called with. */
  stripe: opt(obj({ publishable_key: text })),
  /**
   * The tag-manager script to load when 'google-analytics' is set, the tag id included; when absent, Google's
   * `https://www.googletagmanager.com/gtag/js?id={google-analytics}`. The reference server names its local stand-in.
   */
  gtag_url: maybeText,
});
export type Settings = z.infer<typeof Settings>;

/** `GET /color-settings/web`: colour name to CSS hex colour. */
export const ColorSettings = dict(z.string());
export type ColorSettings = z.infer<typeof ColorSettings>;

/** `GET /geo`. */
export const Geo = obj({
  country: maybeText,
  country_code: maybeText,
  ip: maybeText,
  is_geo_blocked: optStrict(flag, false),
});
export type Geo = z.infer<typeof Geo>;

/** A standard email pattern: something@domain.tld, no spaces. Client and server check the same. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The signed-in user (`GET /profile`). */
export const User = obj({
  id: id,
  email: text,
  first_name: maybeText,
  last_name: maybeText,
  temporary_password: opt(flag, false),
  gender: opt(z.enum(['M', 'W'])),
  capabilities: optStrict(list(z.string()), []),
  trial_period_used: optStrict(flag, false),
  featureCount: opt(obj({ clips: num, downloads: num })),
  is_geo_blocked: optStrict(flag, false),
  /**
   * False until the emailed verification link was followed (registration by email); absent (the spec's User has no
   * such field) is unknown: after a registration the verification notice shows unless it is true.
   */
  email_verified: opt(flag),
  /** The user opted in to news by email at registration or in the profile. */
  news: opt(flag, false),
  /** How the account signs in: `email`, or the social provider that created it. */
  provider: opt(z.string(), 'email'),
  /**
   * False for an account made by social sign-in that never set a password: changing the password then needs
   * no current one. Channel APIs that do not send it have passwords on every account, hence the default.
   */
  has_password: opt(flag, true),
});
export type User = z.infer<typeof User>;

// ---------------------------------------------------------------- participants and categories

/** A team's fields. */
const participantFields = {
  id: id,
  name: text,
  short_name: maybeText,
  alias: maybeText,
  images: opt(obj({ logo: maybeText })),
  color: maybeText,
  properties: opt(obj({ gender: maybeText, sport: maybeText })),
  participant_group_id: opt(id),
};

/**
 * A team or athlete. `children`: the team's own teams (a club's squads), one level as the team pickers show them;
 * each child is also listed on its own in `GET participants`.
 */
export const Participant = aliased({
  ...participantFields,
  children: opt(list(aliased(participantFields))),
});
export type Participant = z.infer<typeof Participant>;

/** A school (participant group). */
export const ParticipantGroup = aliased({
  id: id,
  name: text,
  alias: maybeText,
  image: maybeText,
  /** The school's properties (`conference`, `division`, `league`, ...): what `participant-group-properties` lists. */
  properties: opt(dict(z.nullable(z.string()))),
});
export type ParticipantGroup = z.infer<typeof ParticipantGroup>;

/** `GET /participant-group-properties`: the filterable properties and their values. */
export const GroupProperty = obj({ name: text, values: list(z.string()) });
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
export const EventCategory: z.ZodMiniType<EventCategory> = obj({
  id: id,
  name: text,
  alias: maybeText,
  parent_id: opt(id),
  sport: maybeText,
  gender: maybeText,
  get children() {
    return opt(list(EventCategory));
  },
}) as unknown as z.ZodMiniType<EventCategory>;

/** `GET /events-locations`. */
export const EventLocation = obj({
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

/** Content types of an event. Unknown types are kept as strings and treated as paid. */
export const CONTENT_TYPES = ['free', 'paid', 'register', 'ppv'] as const;

/** Media kinds. */
export const MEDIA_KINDS = [
  'image',
  'live',
  'vod',
  'embedded',
  'thumbnails',
  'preview',
  'preview_alt',
  'embedded_preview',
] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** One media item of an event or library item. Unknown kinds are kept as strings and ignored. */
export const EventMedia = obj({ type: text, url: text });
export type EventMedia = z.infer<typeof EventMedia>;

/** An event, as listed and as fetched alone. */
export const Event = obj({
  id: id,
  name: text,
  type: optStrict(z.string(), 'free'),
  event_utc_ts: num,
  time_zone: maybeText,
  has_access: optStrict(flag, false),
  participants: opt(list(Participant), []),
  home_team_id: opt(id),
  location_id: opt(id),
  location: opt(EventLocation),
  event_category_id: opt(id),
  category: opt(obj({ id: id, name: text })),
  stream_status: z.enum(STREAM_STATUSES),
  image: maybeText,
  description: maybeText,
  price: optStrict(num),
  is_geo_blocked: optStrict(flag),
  /** The single-event pass that sells this event (paid and ppv events). */
  single_event_package_id: optStrict(id),
  /** Length in seconds (scheduled for live and upcoming, the recording's for finished). */
  duration: opt(num),
  /** A finished event has a recording to watch. */
  has_recording: opt(flag, true),
  /**
   * Media of the event by kind. Stream kinds (`live`, `vod`) are listed only for callers with access: their URLs
   * are signed, short-lived playback URLs that the media server checks.
   */
  media: opt(list(EventMedia), []),
});
export type Event = z.infer<typeof Event>;

/** `GET /events`: a page of events. */
export const EventList = paged(Event);
export type EventList = z.infer<typeof EventList>;

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

/** `GET user/access`: the signed-in user's capabilities and feature counts, reloaded after a download. */
export const UserAccess = obj({
  capabilities: optStrict(list(z.string()), []),
  featureCount: opt(obj({ clips: num, downloads: num })),
});
export type UserAccess = z.infer<typeof UserAccess>;

// ---------------------------------------------------------------- endpoints

/** The channel's calls every page may make: keys, settings, colours, the viewer, events and the catalogue, logging. */
export const channelApi = endpointTable({
  getApiKey: { method: 'POST', path: paths.GET_API_KEY_PATH, keyless: true, form: true, response: ApiKeyResponse },
  settings: { method: 'GET', path: paths.SETTINGS_PATH, keyless: true, response: envelope(Settings) },
  colors: { method: 'GET', path: paths.COLORS_PATH, keyless: true, response: envelope(ColorSettings) },
  profile: { method: 'GET', path: paths.PROFILE_PATH, keyless: false, response: envelope(User) },
  geo: { method: 'GET', path: paths.GEO_PATH, keyless: false, response: envelope(Geo) },
  events: { method: 'GET', path: 'events', keyless: false, response: EventList },
  event: { method: 'GET', path: paths.EVENT_PATH, keyless: false, response: envelope(Event) },
  eventCategories: {
    method: 'GET',
    path: 'events-categories',
    keyless: false,
    response: envelope(list(EventCategory)),
  },
  eventLocations: {
    method: 'GET',
    path: 'events-locations',
    keyless: true,
    response: envelope(list(EventLocation)),
  },
  participants: { method: 'GET', path: 'participants', keyless: true, response: envelope(list(Participant)) },
  participantGroups: {
    method: 'GET',
    path: 'participant-groups',
    keyless: true,
    response: envelope(list(ParticipantGroup)),
  },
  groupProperties: {
    method: 'GET',
    path: 'participant-group-properties',
    keyless: false,
    response: envelope(list(GroupProperty)),
  },
  userAccess: { method: 'GET', path: 'user/access', keyless: false, response: envelope(UserAccess) },
  log: { method: 'POST', path: 'logs', keyless: true, response: z.unknown() },
  logout: { method: 'POST', path: 'auth/logout', keyless: false, response: envelope(Message) },
  /** The events of the user's favourites: stream_status, start_date, end_date, offset, limit, sort_field, sort_direction. */
  favouriteEvents: { method: 'GET', path: 'events/favorite', keyless: false, response: EventList },
});
