/* eslint-disable max-lines -- every request and answer of the operator API, one schema each, read as one table */
/**
 * The operator API's requests and answers (`/operator/v1/…`, operator-api.ts), as zod schemas beside the channel
 * API's contract (src/api/contract.ts): the server parses every request body with them, the command line reads its
 * answers with them, and docs/operator-api.json (OpenAPI 3.1) is generated from them (openapi.ts).
 *
 * Conventions. Every answer body is `{ data }`; a list adds `meta: { total, offset, limit }`. Ids are numbers.
 * Times are ISO 8601 in UTC (`2026-12-06T01:00:00Z`). Errors are `{ error, message }` with `error` one of
 * ERROR_CODES; a 422 adds `errors: { field: message }` naming every field in trouble (`participant_ids.1`,
 * `settings.site_url`); a 409 for a stale `If-Match` adds the record's current `etag`.
 * Field names follow the tables (server/storage/migrations.ts) and the channel API's contract.
 */
import * as z from 'zod';
import { PageBlock } from '../channel/page-blocks.js';
import { MUX_KEY_ID, muxPrivateKeyPem } from '../media/sources/mux.js';
import {
  EventStream,
  EventStreamInput,
  LibraryStream,
  LibraryStreamInput,
  type StreamInput,
} from '../media/sources/stream-schema.js';

/** The API's base path. */
export const OPERATOR_API_BASE = '/operator/v1';

// ---------------------------------------------------------------- common pieces

export const ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid',
  'conflict',
  'idempotency_mismatch',
  'bad_request',
  'too_large',
  'unavailable',
  'internal',
] as const;

export const ErrorAnswer = z.object({
  error: z.enum(ERROR_CODES),
  message: z.string(),
  /** 422: each field in trouble (a dotted path) and what is wrong with it. */
  errors: z.optional(z.record(z.string(), z.string())),
  /** 409 (stale If-Match): the record's current ETag. */
  etag: z.optional(z.string()),
});
export type ErrorAnswer = z.infer<typeof ErrorAnswer>;

export const ListMeta = z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int() });

/** `{ data: item }` */
export const one = <T extends z.ZodType>(item: T) => z.object({ data: item });
/** `{ data: [item], meta }` */
export const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: ListMeta });

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ref = z.nullable(id);
const text = (max = 200) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const optionalText = (max = 2000) => z.nullable(z.string().max(max, `must be at most ${max} characters`));
const alias = z
  .string()
  .trim()
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/i, 'must be letters and digits joined by - or _ (a URL part)')
  .max(100);
const money = z.number().min(0, 'must be 0 or more').max(1_000_000, 'must be at most 1000000');
const position = z.number().int().min(0);
/** An image: an http(s) URL, or a path on this server (`/media/…`). */
const imageUrl = z
  .string()
  .trim()
  .refine(
    (v) => /^\/(?!\/)/.test(v) || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)),
    'must be an http(s) URL or a path on this server',
  );
const isoUtc = z.iso.datetime({
  offset: true,
  message: 'must be an ISO 8601 date and time, such as 2026-12-06T01:00:00Z',
});
const timeZone = z.string().refine((v) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return v.includes('/') || v === 'UTC';
  } catch {
    return false;
  }
}, 'must be an IANA time zone, such as America/Chicago');

/** An event's or library item's stream (media/sources/stream-schema.ts). */
export { EventStream, EventStreamInput, LibraryStream, LibraryStreamInput, type StreamInput };

/** Every stored record carries its id; answers add `etag` in the ETag header, not the body. */
const withId = <T extends z.ZodRawShape>(shape: T) => z.object({ id, ...shape });

// ---------------------------------------------------------------- the channel

export const CHANNEL_KEY_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const ChannelCreate = z.object({
  key: z
    .string()
    .trim()
    .regex(CHANNEL_KEY_PATTERN, 'must be lowercase letters and digits in words joined by hyphens (my-channel)')
    .max(40),
  name: text(),
  language: z.optional(z.enum(['en', 'fr'])),
  currency: z.optional(z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals, such as USD')),
});
export type ChannelCreate = z.infer<typeof ChannelCreate>;

export const ChannelPatch = z.object({
  name: z.optional(text()),
  /** Merged key by key into the stored settings (a null removes a key), then checked by settings-rules.ts. */
  settings: z.optional(z.record(z.string(), z.unknown())),
});
export type ChannelPatch = z.infer<typeof ChannelPatch>;

export const Channel = z.object({
  id,
  key: z.string(),
  name: z.string(),
  settings: z.record(z.string(), z.unknown()),
});
export type Channel = z.infer<typeof Channel>;

/** A new channel: the caller is its owner, with a token for it (shown this once). */
export const ChannelCreated = Channel.extend({
  owner: z.object({ operator_id: id, email: z.string(), token: z.string(), token_id: id }),
});

// ---------------------------------------------------------------- secrets (owner)

export const SECRET_GROUPS = ['stripe', 'google', 'facebook', 'mux'] as const;
export type SecretGroup = (typeof SECRET_GROUPS)[number];

/** Never repeated in a message: these are secrets. */
const stripeKey = z
  .string()
  .trim()
  .refine(
    (v) => /^(sk|rk)_(live|test)_\w+$/.test(v),
    'must be a Stripe secret key (sk_live_…, sk_test_…) or a restricted key (rk_…)',
  );
const webhookSecret = z
  .string()
  .trim()
  .refine((v) => /^whsec_\w+$/.test(v), "must be a webhook endpoint's signing secret (whsec_…)");
const plainSecret = z.string().trim().min(8, 'must be at least 8 characters').max(500);

export const SecretsPut = {
  stripe: z.object({ secret_key: stripeKey, webhook_secret: webhookSecret }),
  google: z.object({ client_secret: plainSecret }),
  facebook: z.object({ app_secret: plainSecret }),
  /** A Mux signing key (Settings, Signing keys in Mux's dashboard): its id, and its private key as Mux gives it. */
  mux: z.object({
    key_id: z.string().trim().regex(MUX_KEY_ID, "must be a Mux signing key's id (letters and digits)"),
    private_key: z
      .string()
      .trim()
      .max(20_000)
      .superRefine((value, ctx) => {
        try {
          muxPrivateKeyPem(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
        }
      }),
  }),
} as const;

/** Which secret is set and when; never its value. */
export const SecretState = z.object({ set: z.boolean(), updated_at: z.nullable(z.string()) });
export const Secrets = z.object({
  stripe_secret_key: SecretState,
  stripe_webhook_secret: SecretState,
  google_client_secret: SecretState,
  facebook_app_secret: SecretState,
  mux_signing_key_id: SecretState,
  mux_signing_private_key: SecretState,
});

// ---------------------------------------------------------------- operators (owner)

export const OperatorCreate = z.object({
  email: z
    .string()
    .trim()
    .regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, 'must be an email address'),
  role: z.enum(['owner', 'editor']),
});
export const OperatorToken = z.object({
  id,
  label: z.nullable(z.string()),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
});
export const Operator = z.object({
  id,
  email: z.string(),
  role: z.enum(['owner', 'editor']),
  created_at: z.string(),
  tokens: z.array(OperatorToken),
});
/** A new operator, with its first token (shown this once). */
export const OperatorCreated = Operator.extend({ token: z.string(), token_id: id });
/** A new token: shown this once. */
export const TokenIssued = z.object({ operator_id: id, token_id: id, token: z.string() });
export const TokenCreate = z.object({ label: z.optional(z.nullable(z.string().max(100))) });

// ---------------------------------------------------------------- the audit log (owner)

export const AuditEntry = z.object({
  id,
  /** The operator's email, or 'command line' for a change made on the database directly. */
  actor: z.string(),
  operator_id: z.nullable(id),
  at: z.string(),
  action: z.string(),
  resource: z.string(),
  record_id: z.nullable(z.string()),
  before: z.unknown(),
  after: z.unknown(),
});

// ---------------------------------------------------------------- the catalogue

export const EVENT_TYPES = ['free', 'register', 'paid', 'ppv'] as const;
export const EVENT_STATUSES = ['upcoming', 'live', 'finished', 'cancelled'] as const;

export const CategoryCreate = z.object({
  name: text(),
  parent_id: z.optional(ref),
  alias: z.optional(z.nullable(alias)),
  sport: z.optional(optionalText(100)),
  gender: z.optional(optionalText(20)),
  position: z.optional(position),
});
export const Category = withId({
  name: z.string(),
  parent_id: ref,
  alias: z.nullable(z.string()),
  sport: z.nullable(z.string()),
  gender: z.nullable(z.string()),
  position,
});

export const ParticipantGroupCreate = z.object({
  name: text(),
  alias: z.optional(z.nullable(alias)),
  image: z.optional(z.nullable(imageUrl)),
  properties: z.optional(z.record(z.string(), z.string())),
});
export const ParticipantGroup = withId({
  name: z.string(),
  alias: z.nullable(z.string()),
  image: z.nullable(z.string()),
  properties: z.record(z.string(), z.string()),
});

export const ParticipantCreate = z.object({
  name: text(),
  group_id: z.optional(ref),
  parent_id: z.optional(ref),
  short_name: z.optional(optionalText(50)),
  alias: z.optional(z.nullable(alias)),
  /** By URL (or a path on this server); an upload is `PUT …/participants/{id}/logo`. */
  logo: z.optional(z.nullable(imageUrl)),
  color: z.optional(z.nullable(z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #1a2b3c'))),
  gender: z.optional(optionalText(20)),
  sport: z.optional(optionalText(100)),
});
export const Participant = withId({
  name: z.string(),
  group_id: ref,
  parent_id: ref,
  short_name: z.nullable(z.string()),
  alias: z.nullable(z.string()),
  logo: z.nullable(z.string()),
  color: z.nullable(z.string()),
  gender: z.nullable(z.string()),
  sport: z.nullable(z.string()),
});

export const LocationCreate = z.object({
  name: text(),
  city: z.optional(optionalText(100)),
  state: z.optional(optionalText(100)),
  time_zone: z.optional(z.nullable(timeZone)),
});
export const Location = withId({
  name: z.string(),
  city: z.nullable(z.string()),
  state: z.nullable(z.string()),
  time_zone: z.nullable(z.string()),
});

export const EventCreate = z.object({
  name: text(),
  type: z.enum(EVENT_TYPES),
  /** The start, in UTC (an offset is accepted and converted). */
  starts_at: isoUtc,
  /** Where the event's times are shown in: an IANA zone. */
  time_zone: timeZone,
  duration_minutes: z.optional(
    z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60),
  ),
  /** paid and ppv: a single-event package at this price is made (or reused); or name one with package_id. */
  price: z.optional(z.nullable(money)),
  package_id: z.optional(ref),
  category_id: z.optional(ref),
  location_id: z.optional(ref),
  /** Away first, home last. */
  participant_ids: z.optional(z.array(id).max(20)),
  home_team_id: z.optional(ref),
  image: z.optional(z.nullable(imageUrl)),
  description: z.optional(optionalText(5000)),
  /** Where its stream comes from; `{ "type": "generated" }` when left out. */
  stream: z.optional(EventStreamInput),
});
export type EventCreate = z.infer<typeof EventCreate>;
export const EventPatch = EventCreate.partial();
export const Event = withId({
  name: z.string(),
  type: z.enum(EVENT_TYPES),
  starts_at: z.string(),
  time_zone: z.nullable(z.string()),
  duration_minutes: z.number().int(),
  price: z.nullable(z.number()),
  category_id: ref,
  location_id: ref,
  participant_ids: z.array(id),
  home_team_id: ref,
  image: z.nullable(z.string()),
  description: z.nullable(z.string()),
  status: z.enum(EVENT_STATUSES),
  single_event_package_id: ref,
  stream: EventStream,
});
export type Event = z.infer<typeof Event>;

export const PackageCreate = z.object({
  name: text(),
  type: z.enum(['single', 'category']),
  price: money,
  base_price: z.optional(z.nullable(money)),
  service_fee: z.optional(z.nullable(money)),
  is_team_pass: z.optional(z.boolean()),
  weight: z.optional(z.number().int()),
  offer: z.optional(optionalText(100)),
  period: z.optional(optionalText(100)),
  description: z.optional(optionalText()),
  /** category packages: the categories (their subcategories included) it sells. */
  category_ids: z.optional(z.array(id)),
  participant_ids: z.optional(z.array(id)),
  position: z.optional(position),
});
export const Package = withId({
  name: z.string(),
  type: z.enum(['single', 'category']),
  price: z.number(),
  base_price: z.nullable(z.number()),
  service_fee: z.nullable(z.number()),
  is_team_pass: z.boolean(),
  weight: z.number().int(),
  offer: z.nullable(z.string()),
  period: z.nullable(z.string()),
  description: z.nullable(z.string()),
  category_ids: z.array(id),
  participant_ids: z.array(id),
  position,
  /** The Stripe Price that sells it, when the channel has Stripe. */
  processor_price: z.nullable(z.string()),
});

export const SubscriptionCreate = z.object({
  name: text(),
  /** How often it renews: monthly (every 30 days) or annual (every 12 months). */
  offer: z.enum(['monthly', 'annual']),
  /** How the period reads to viewers ('per month'). */
  period: z.optional(optionalText(50)),
  price: money,
  base_price: z.optional(z.nullable(money)),
  service_fee: z.optional(z.nullable(money)),
  trial_period: z.optional(z.nullable(z.number().int().min(0).max(365))),
  weight: z.optional(z.number().int()),
  description: z.optional(optionalText()),
  position: z.optional(position),
});
export const Subscription = withId({
  name: z.string(),
  offer: z.string(),
  period: z.nullable(z.string()),
  price: z.number(),
  base_price: z.nullable(z.number()),
  service_fee: z.nullable(z.number()),
  trial_period: z.nullable(z.number().int()),
  weight: z.number().int(),
  description: z.nullable(z.string()),
  position,
  processor_price: z.nullable(z.string()),
});

export const CouponCreate = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{2,40}$/, 'must be 2 to 40 letters, digits, - or _'),
  /** One of percent and amount. */
  percent: z.optional(z.nullable(z.number().gt(0).max(100))),
  amount: z.optional(z.nullable(money)),
});
export const Coupon = withId({ code: z.string(), percent: z.nullable(z.number()), amount: z.nullable(z.number()) });

export const PrerollCreate = z.object({
  name: text(),
  /** The media it plays ('bars', 'zoom': the generated test media). */
  media: text(100),
  weight: z.optional(z.number().int().min(0)),
  location_id: z.optional(ref),
  for_vod: z.optional(z.boolean()),
  for_live: z.optional(z.boolean()),
  /** None: every category. */
  category_ids: z.optional(z.array(id)),
  position: z.optional(position),
});
export const Preroll = withId({
  name: z.string(),
  media: z.string(),
  weight: z.number().int(),
  location_id: ref,
  for_vod: z.boolean(),
  for_live: z.boolean(),
  category_ids: z.array(id),
  position,
});

export const LibraryCategoryCreate = z.object({
  name: text(),
  alias: z.optional(z.nullable(alias)),
  position: z.optional(position),
});
export const LibraryCategory = withId({ name: z.string(), alias: z.nullable(z.string()), position });

export const LibraryItemCreate = z.object({
  title: text(),
  date: z.optional(z.nullable(z.iso.date({ message: 'must be a date, YYYY-MM-DD' }))),
  type: z.enum(['free', 'register', 'paid']),
  category_id: z.optional(ref),
  vod_category_id: z.optional(ref),
  duration: z.optional(z.nullable(z.number().int().min(1))),
  asset: z.optional(optionalText(100)),
  description: z.optional(optionalText()),
  position: z.optional(position),
  /** Where its stream comes from; `{ "type": "generated" }` when left out. */
  stream: z.optional(LibraryStreamInput),
});
export const LibraryItem = withId({
  title: z.string(),
  date: z.nullable(z.string()),
  type: z.enum(['free', 'register', 'paid']),
  category_id: ref,
  vod_category_id: ref,
  duration: z.nullable(z.number().int()),
  asset: z.nullable(z.string()),
  description: z.nullable(z.string()),
  position,
  stream: LibraryStream,
});

export const LibraryRailCreate = z.object({
  title: text(),
  item_ids: z.optional(z.array(id)),
  position: z.optional(position),
});
export const LibraryRail = withId({ title: z.string(), item_ids: z.array(id), position });

export const PageCreate = z.object({
  name: text(),
  alt_name: z.optional(optionalText(200)),
  url: text(500),
  alias: alias,
  /** The page's blocks, as the channel API's `GET /pages/{alias}` serves them. */
  blocks: z.optional(z.array(PageBlock).max(200)),
  position: z.optional(position),
});
export const Page = withId({
  name: z.string(),
  alt_name: z.nullable(z.string()),
  url: z.string(),
  alias: z.string(),
  blocks: z.array(z.record(z.string(), z.unknown())),
  position,
});

export const MenuItemCreate = z.object({
  name: text(),
  parent_id: z.optional(ref),
  alias: z.optional(z.nullable(z.string().max(200))),
  url: z.optional(optionalText(500)),
  custom_icon: z.optional(optionalText(500)),
  type: z.optional(z.string().max(50)),
  position: z.optional(position),
});
export const MenuItem = withId({
  name: z.string(),
  parent_id: ref,
  alias: z.nullable(z.string()),
  url: z.nullable(z.string()),
  custom_icon: z.nullable(z.string()),
  type: z.string(),
  position,
});

export const SlideCreate = z.object({
  title: z.optional(optionalText(200)),
  image: z.optional(z.nullable(imageUrl)),
  link: z.optional(optionalText(500)),
  slidable_type: z.optional(
    z.nullable(
      z.enum(['main', 'category', 'participant', 'group'], {
        error: 'must be main, category, participant or group (or null: main)',
      }),
    ),
  ),
  slidable_id: z.optional(ref),
  position: z.optional(position),
});
export const Slide = withId({
  title: z.nullable(z.string()),
  image: z.nullable(z.string()),
  link: z.nullable(z.string()),
  slidable_type: z.nullable(z.string()),
  slidable_id: ref,
  position,
});

export const FaqCreate = z.object({ question: text(1000), answer: text(10000), position: z.optional(position) });
export const Faq = withId({ question: z.string(), answer: z.string(), position });

export const FormCreate = z.object({
  alias,
  name: text(),
  /** The form's fields, as the channel API's `GET /custom-forms/{alias}` serves them. */
  fields: z.array(z.record(z.string(), z.unknown())),
});
export const Form = withId({ alias: z.string(), name: z.string(), fields: z.array(z.record(z.string(), z.unknown())) });

/** The catalogue's resources by path name: what a create takes and what a record is. PATCH takes create.partial(). */
export const RESOURCES = {
  categories: { create: CategoryCreate, record: Category },
  'participant-groups': { create: ParticipantGroupCreate, record: ParticipantGroup },
  participants: { create: ParticipantCreate, record: Participant },
  locations: { create: LocationCreate, record: Location },
  events: { create: EventCreate, record: Event },
  packages: { create: PackageCreate, record: Package },
  subscriptions: { create: SubscriptionCreate, record: Subscription },
  coupons: { create: CouponCreate, record: Coupon },
  prerolls: { create: PrerollCreate, record: Preroll },
  'library-categories': { create: LibraryCategoryCreate, record: LibraryCategory },
  'library-items': { create: LibraryItemCreate, record: LibraryItem },
  'library-rails': { create: LibraryRailCreate, record: LibraryRail },
  pages: { create: PageCreate, record: Page },
  menu: { create: MenuItemCreate, record: MenuItem },
  slides: { create: SlideCreate, record: Slide },
  faq: { create: FaqCreate, record: Faq },
  forms: { create: FormCreate, record: Form },
} as const;
export type ResourceName = keyof typeof RESOURCES;
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];
