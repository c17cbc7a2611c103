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
import {
  AuthSession,
  Clip,
  Coupon,
  CustomerPortal,
  Favourite,
  Favourites,
  Message,
  Order,
  Package,
  Pricing,
  Purchase,
  SavedCard,
  SetupIntent,
  Subscription,
  Transaction,
  Unsubscribe,
} from './account-schemas.js';
import {
  ApiKeyResponse,
  ColorSettings,
  CustomForm,
  Download,
  Event,
  EventCategory,
  EventList,
  EventLocation,
  Faq,
  Geo,
  GroupProperty,
  HomepageEvents,
  MenuItem,
  Page,
  PageDetail,
  PageMeta,
  Participant,
  ParticipantGroup,
  Settings,
  Slide,
  User,
  UserAccess,
  VodCategory,
  VodItem,
  VodItemList,
  VodRail,
} from './channel-schemas.js';
import { envelope } from './schema-kit.js';

export * from './channel-schemas.js';
export * from './account-schemas.js';
export * from './analytics-schemas.js';
/** Wraps a payload schema in the `{ data }` envelope. */
export { envelope } from './schema-kit.js';
/** The partner slug orders (`stripe/buy`, `start_trial`) and every datalake body may carry as `partner`. */
export { PARTNER_MAX, PARTNER_PATTERN, partnerSlug } from '../lib/ids.js';

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
  /**
   * `{ values: { [field name]: value } }` (FormSubmission): stores a filled-in custom form and sends it to the
   * channel; 422 with `errors` by field name when a value breaks the form's rules.
   */
  submitForm: { method: 'POST', path: 'custom-forms/{alias}', keyless: false, response: envelope(Message) },
  // The video-on-demand library.
  /** limit, offset, vod_media_category_id: a page of the library, newest first. */
  vodItems: { method: 'GET', path: 'vod-media-items', keyless: false, response: VodItemList },
  vodItem: { method: 'GET', path: 'vod-media-items/{id}', keyless: false, response: envelope(VodItem) },
  vodCategories: {
    method: 'GET',
    path: 'vod-media-categories',
    keyless: false,
    response: envelope(z.array(VodCategory)),
  },
  /** title, limit (10), offset (0), sort_field (date; or title), vod_media_category_id. */
  vodSearch: { method: 'GET', path: 'vod-media/search', keyless: false, response: VodItemList },
  vodRails: { method: 'GET', path: 'vod-media-rails', keyless: false, response: envelope(z.array(VodRail)) },
  downloadEvent: { method: 'GET', path: 'download-event/{id}', keyless: false, response: envelope(Download) },
  userAccess: { method: 'GET', path: 'user/access', keyless: false, response: envelope(UserAccess) },
  packages: { method: 'GET', path: 'packages', keyless: true, response: envelope(z.array(Package)) },
  package: { method: 'GET', path: 'packages/{id}', keyless: true, response: envelope(Package) },
  subscriptions: { method: 'GET', path: 'subscriptions', keyless: true, response: envelope(z.array(Subscription)) },
  subscription: { method: 'GET', path: 'subscriptions/{id}', keyless: true, response: envelope(Subscription) },
  log: { method: 'POST', path: 'logs', keyless: true, response: z.unknown() },

  // Accounts (Auth). Bodies are JSON; every answer is `{ data }`.
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
  passwordResetRequest: {
    method: 'POST',
    path: 'auth/password-reset-request',
    keyless: false,
    response: envelope(Message),
  },
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
  orders: {
    method: 'GET',
    path: 'orders',
    keyless: false,
    response: z.object({ data: z.array(Order), meta: z.optional(PageMeta) }),
  },
  order: { method: 'GET', path: 'orders/{id}', keyless: false, response: envelope(Order) },
  transactions: {
    method: 'GET',
    path: 'transactions',
    keyless: false,
    response: z.object({ data: z.array(Transaction), meta: z.optional(PageMeta) }),
  },
  userClips: { method: 'GET', path: 'clips/user', keyless: false, response: envelope(z.array(Clip)) },

  // Clips. Making one needs the `clipping` capability, downloading one `download_clip`; both count.
  /**
   * `{ event_id, name, start_time, duration, tags }` (ClipRequest): queues the clip (answered `queued`); 422 with
   * `errors` by field ('Field is required', 'Please select tag', 'Your clip duration is longer than the end time').
   */
  createClip: { method: 'POST', path: 'clip', keyless: false, response: envelope(Clip) },
  /** The signed-in user's clips of one event, newest first. */
  eventClips: { method: 'GET', path: 'clips/event/{id}', keyless: false, response: envelope(z.array(Clip)) },
  /** The events the signed-in user has clips of. */
  eventsWithClip: { method: 'GET', path: 'events/with_clip', keyless: false, response: EventList },
  /** `?uuid=`: a shared clip, for anyone with its link (no sign-in); 404 'Clip not found.' otherwise. */
  sharedClip: { method: 'GET', path: 'shared-clip/{id}', keyless: false, response: envelope(Clip) },
  /** The MP4 of one of the user's done clips (a signed, short-lived URL). */
  clipDownload: { method: 'GET', path: 'clip/download/{id}', keyless: false, response: envelope(Download) },
  /** Deletes one of the user's clips (and its files); others' clips answer 404. */
  deleteClip: { method: 'DELETE', path: 'clip/{id}', keyless: false, response: envelope(Message) },

  // Favourites.
  favourites: { method: 'GET', path: 'favorites', keyless: false, response: envelope(Favourites) },
  /** `{ favoritable_id, favoritable_type }` (participant, group or category). */
  addFavourite: { method: 'POST', path: 'favorite', keyless: false, response: envelope(Favourite) },
  deleteFavourite: { method: 'DELETE', path: 'favorite/{id}', keyless: false, response: envelope(Message) },
  /** The events of the user's favourites: stream_status, start_date, end_date, offset, limit, sort_field, sort_direction. */
  favouriteEvents: { method: 'GET', path: 'events/favorite', keyless: false, response: EventList },

  // Payments. Card data never comes here: only Stripe PaymentMethod ids.
  /** type, id, single_event_package_id, participant_id, coupon: the price breakdown (or a pricing refusal). */
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
