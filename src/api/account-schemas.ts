/**
 * The contract's schemas of what a viewer buys and owns: offers, accounts, orders, clips, favourites, payments,
 * and the log entry of a failed request. Re-exported by contract.ts, which the server and the tests import (browser code imports this module).
 */
import * as z from 'zod/mini';
import {
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
  time,
} from './schema-kit.js';
import { EventList, EventLocation, Message, User } from './channel-schemas.js';

// ---------------------------------------------------------------- offers

/** Fields every offer has (packages and subscriptions). */
const offerFields = {
  id: id,
  name: text,
  price: num,
  base_price: optStrict(num),
  service_fee: optStrict(num),
  weight: opt(num, 0),
  period: maybeText,
  description: maybeText,
};

/** A package: a single-event pass, a category pass or a team pass. */
export const Package = obj({
  ...offerFields,
  /**
   * Categories covered (category and team passes). Access: a list it cannot read makes no package, never one that
   * covers no category or, for `participants`, every team.
   */
  event_categories: optStrict(list(id), []),
  /** Teams a team pass can be bought for (one is chosen at purchase); none is every team of its categories. */
  participants: optStrict(list(id), []),
  is_team_pass: optStrict(flag, false),
  type: optStrict(z.string(), 'category'),
  offer: maybeText,
});
export type Package = z.infer<typeof Package>;

/** A subscription: covers every paid event while active. */
export const Subscription = obj({
  ...offerFields,
  offer: optStrict(z.string(), 'monthly'),
  /** Trial length in days; none when 0 or absent. */
  trial_period: optStrict(num),
});
export type Subscription = z.infer<typeof Subscription>;

// ---------------------------------------------------------------- accounts

/** The answer of login, registration and social sign-in: a bearer token and the user. */
export const AuthSession = obj({ token: text, user: User });
export type AuthSession = z.infer<typeof AuthSession>;

/** Social sign-in providers. */
export const SOCIAL_PROVIDERS = ['google', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** Gender codes of the profile: M, W (woman, shown as female), or not identified (null). */
export const GENDERS = ['M', 'W'] as const;

/** Order types and statuses. Statuses are compared case-insensitively: 'Paid' and 'paid'. */
export const ORDER_TYPES = ['event', 'package', 'subscription'] as const;
export const ORDER_STATUSES = ['paid', 'inactive', 'refunded', 'active', 'failed', 'created'] as const;
export const TRANSACTION_STATUSES = ['created', 'failed', 'paid', 'refunded'] as const;
export const SUBSCRIPTION_STATUSES = ['expired', 'inactive', 'active', 'canceled'] as const;

/** An order (`GET orders`, `GET orders/{id}`). Unknown statuses are kept as text. */
export const Order = obj({
  id: id,
  type: z.enum(ORDER_TYPES),
  status: text,
  activity_status: optStrict(text),
  product: obj({
    id: id,
    name: maybeText,
    /** What the order covers (none: the whole package), so never guessed. */
    event_category_id: optStrict(id),
    participant_id: optStrict(id),
  }),
  /** Amount charged and its currency (the channel's). */
  price: optStrict(num),
  currency: optStrict(text),
  /** A short reference the viewer can quote to support. */
  reference: maybeText,
  created_at: time,
  /** When access ends (subscriptions: the end of the paid period). */
  expires_at: optStrict(time),
  /** Subscriptions: the subscription's own state and its auto-renewal (active or cancelled). */
  subscription_status: optStrict(z.string()),
  auto_renewal: optStrict(z.enum(['active', 'cancelled'])),
  /** The order's failure reason, when failed. */
  error: maybeText,
});
export type Order = z.infer<typeof Order>;

/** A payment transaction of an order (`GET transactions`). `label` names subscription charges. */
export const Transaction = obj({
  id: id,
  order_id: id,
  status: text,
  amount: num,
  currency: optStrict(text),
  created_at: time,
  product_name: maybeText,
  /** 'New subscription' (created) or 'Subscription Renewal' (updated). */
  label: maybeText,
});
export type Transaction = z.infer<typeof Transaction>;

/**
 * Clip states on the wire. A new clip is `queued`, then `processing` (the server cuts it with ffmpeg), then
 * `done` (the spec's "ready": play, download, share, delete) or `failed` ('Your clip creation failed'). Channel
 * back ends that say `ready` mean `done`; the client reads both alike.
 */
export const CLIP_STATES = ['queued', 'processing', 'done', 'failed'] as const;
export type ClipState = (typeof CLIP_STATES)[number];

/** The shortest and longest clip, in seconds (the server refuses others with the same messages). */
export const CLIP_MIN_SECONDS = 2;
export const CLIP_MAX_SECONDS = 60;
/**
 * How long a clip may take from its request to done (seconds): the server fails a cut that runs past it, and the
 * client stops waiting for one and shows it failed, with Retry.
 */
export const CLIP_TIME_LIMIT_SECONDS = 300;
/** How many tags a clip may carry, and the longest tag. */
export const CLIP_MAX_TAGS = 5;
export const CLIP_TAG_MAX_LENGTH = 30;
/** The longest clip name. */
export const CLIP_NAME_MAX_LENGTH = 80;
/** How far back a clip of a live event may start: the live window kept for clipping (DVR), in seconds. */
export const CLIP_LIVE_WINDOW_SECONDS = 600;
/** The tags the clip maker offers (the server accepts any tag within the limits above). */
export const CLIP_TAGS = ['highlight', 'goal', 'save', 'assist', 'defense', 'celebration', 'funny'] as const;

/**
 * A clip (`POST clip`, `GET clips/user`, `GET clips/event/{id}`, `GET shared-clip/{id}`), with its event.
 * `start_time` is seconds into the recording for a finished event; for a live event, seconds since the event's
 * scheduled start (`event_utc_ts`). `media` lists, once the clip is done and only for callers who may play it,
 * its `vod` HLS stream (a signed URL) and its `image` poster.
 */
export const Clip = obj({
  id: id,
  uuid: maybeText,
  event_id: id,
  name: text,
  start_time: num,
  duration: num,
  tags: opt(list(z.string()), []),
  status: opt(z.string(), 'processing'),
  /** Cutting progress, 0 to 100, while queued or processing. */
  progress: opt(num),
  /** Where it was cut from: the recording (`vod`) or the live window (`live`). */
  source: opt(z.string()),
  created_at: opt(time),
  event: opt(
    obj({
      id: id,
      name: text,
      event_utc_ts: opt(num),
      image: maybeText,
    }),
  ),
  media: opt(list(obj({ type: text, url: text })), []),
});
export type Clip = z.infer<typeof Clip>;

/** `POST clip`'s body. */
export const ClipRequest = z.object({
  event_id: id,
  name: text,
  start_time: z.number(),
  duration: z.number(),
  tags: z.array(z.string()),
});
export type ClipRequest = z.infer<typeof ClipRequest>;

/** What a favourite can point at through `POST /favorite`. */
export const FAVORITABLE_TYPES = ['participant', 'group', 'category'] as const;
export type FavoritableType = (typeof FAVORITABLE_TYPES)[number];

/** One favourite (`POST /favorite` answers it; `GET /favorites` lists them by kind). */
export const Favourite = obj({
  /** The favourite's own id, for `DELETE /favorite/{id}`. */
  id: id,
  favoritable_id: id,
  favoritable_type: text,
  name: maybeText,
});
export type Favourite = z.infer<typeof Favourite>;

/**
 * `GET /favorites`: the user's favourites by kind. Teams, schools and sports are chosen by the user; favourite
 * events and event locations follow from them (the events of those teams, schools and sports, and where they are
 * played) and are read-only.
 */
export const Favourites = obj({
  participant: opt(list(Favourite), []),
  participant_group: opt(list(Favourite), []),
  event_category: opt(list(Favourite), []),
  favorite_event: opt(list(obj({ id: id, name: text, event_utc_ts: num })), []),
  event_location: opt(list(EventLocation), []),
});
export type Favourites = z.infer<typeof Favourites>;

// ---------------------------------------------------------------- payments

/** What a checkout sells: a single-event pass, a package or a subscription. */
export const PRODUCT_TYPES = ['event', 'package', 'subscription'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/**
 * `GET pricing`: the price breakdown of one product for the signed-in user, with an optional coupon. The service
 * fee is shown as 'Taxes'; total = price - discount + service_fee.
 */
export const Pricing = obj({
  type: z.enum(PRODUCT_TYPES),
  id: id,
  name: text,
  price: num,
  base_price: optStrict(num),
  service_fee: optStrict(num, 0),
  discount: optStrict(num, 0),
  total: num,
  currency: text,
  coupon: maybeText,
  /** Subscriptions: monthly or annual, and the trial length in days the user may still have. */
  offer: optStrict(text),
  trial_period: optStrict(num),
  /** Team passes: the team the pass is bought for. */
  participant_id: optStrict(id),
  /** The user already holds a paid, active order for it. */
  purchased: optStrict(flag, false),
});
export type Pricing = z.infer<typeof Pricing>;

/** `GET apply_coupon`: a valid code and what it takes off. */
export const Coupon = obj({ code: text, discount: num, percent: optStrict(num) });
export type Coupon = z.infer<typeof Coupon>;

/** A saved card (`GET stripe/list-cards`). */
export const SavedCard = obj({
  id: text,
  brand: text,
  last4: text,
  exp_month: num,
  exp_year: num,
});
export type SavedCard = z.infer<typeof SavedCard>;

/**
 * `POST stripe/buy` (and `start_trial`) answers the order at once: paid or failed when the card processor answered
 * so, else created (settled by its webhooks: poll `orders/{id}`). `action`: the card asks for 3-D Secure, which the
 * browser finishes with Stripe.js and this client secret (`handleNextAction`); absent or null without one, and an
 * answer whose action cannot be read is refused (never a challenge skipped).
 */
export const Purchase = obj({
  order: Order,
  action: optStrict(obj({ client_secret: text })),
});
export type Purchase = z.infer<typeof Purchase>;

/** `POST stripe/setup-intent`. */
export const SetupIntent = obj({ client_secret: text });

/** `POST stripe/unsubscribe`: auto-renewal cancellation is processing, then finished. */
export const Unsubscribe = obj({ status: z.enum(['processing', 'finished']) });

/** `GET stripe/customer-portal`: where the user manages cards and invoices. */
export const CustomerPortal = obj({ url: text });

/** A social sign-in started (`POST v2/auth/social/{provider}/start`): the provider's URL to send the browser to. */
export const SocialStart = obj({ url: text });

// ---------------------------------------------------------------- downloads

/** `GET download-event/{id}`: where to download the recording (a signed, short-lived URL). */
export const Download = obj({ url: text, filename: maybeText });
export type Download = z.infer<typeof Download>;

// ---------------------------------------------------------------- logging

/** The JSON log entry a failed request posts to the logging endpoint. */
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

// ---------------------------------------------------------------- endpoints

/** The calls of what a viewer buys and owns: offers, accounts, orders, clips, favourites, payments, downloads. */
export const accountApi = endpointTable({
  downloadEvent: { method: 'GET', path: 'download-event/{id}', keyless: false, response: envelope(Download) },
  packages: { method: 'GET', path: 'packages', keyless: true, response: envelope(list(Package)) },
  package: { method: 'GET', path: 'packages/{id}', keyless: true, response: envelope(Package) },
  subscriptions: { method: 'GET', path: 'subscriptions', keyless: true, response: envelope(list(Subscription)) },
  subscription: { method: 'GET', path: 'subscriptions/{id}', keyless: true, response: envelope(Subscription) },
  /** `{ email, password }`. Wrong credentials: 422 'Invalid email or password. Please try again.' */
  login: { method: 'POST', path: 'v2/auth/login', keyless: false, response: envelope(AuthSession) },
  /** `{ email, password, password_confirmation, first_name, last_name, terms: true, news? }`; signs in. */
  register: { method: 'POST', path: 'v2/auth/register', keyless: false, response: envelope(AuthSession) },
  /**
   * `{ redirect_uri }`: starts a sign-in with the provider (ours, beside the spec): the URL to send the browser to,
   * with the attempt's `state`, nonce and PKCE challenge, bound to this api key.
   */
  socialStart: {
    method: 'POST',
    path: 'v2/auth/social/{provider}/start',
    keyless: false,
    response: envelope(SocialStart),
  },
  /** `{ code, state, iss?, redirect_uri }` from the provider's redirect to the site's callback; signs in. */
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
  orders: {
    method: 'GET',
    path: 'orders',
    keyless: false,
    response: paged(Order),
  },
  order: { method: 'GET', path: 'orders/{id}', keyless: false, response: envelope(Order) },
  transactions: {
    method: 'GET',
    path: 'transactions',
    keyless: false,
    response: paged(Transaction),
  },
  userClips: { method: 'GET', path: 'clips/user', keyless: false, response: envelope(list(Clip)) },
  /**
   * `{ event_id, name, start_time, duration, tags }` (ClipRequest): queues the clip (answered `queued`); 422 with
   * `errors` by field ('Field is required', 'Please select tag', 'Your clip duration is longer than the end time').
   */
  createClip: { method: 'POST', path: 'clip', keyless: false, response: envelope(Clip) },
  /** The signed-in user's clips of one event, newest first. */
  eventClips: { method: 'GET', path: 'clips/event/{id}', keyless: false, response: envelope(list(Clip)) },
  /** The events the signed-in user has clips of. */
  eventsWithClip: { method: 'GET', path: 'events/with_clip', keyless: false, response: EventList },
  /** `?uuid=`: a shared clip, for anyone with its link (no sign-in); 404 'Clip not found.' otherwise. */
  sharedClip: { method: 'GET', path: 'shared-clip/{id}', keyless: false, response: envelope(Clip) },
  /** The MP4 of one of the user's done clips (a signed, short-lived URL). */
  clipDownload: { method: 'GET', path: 'clip/download/{id}', keyless: false, response: envelope(Download) },
  /** Deletes one of the user's clips (and its files); others' clips answer 404. */
  deleteClip: { method: 'DELETE', path: 'clip/{id}', keyless: false, response: envelope(Message) },
  favourites: { method: 'GET', path: 'favorites', keyless: false, response: envelope(Favourites) },
  /** `{ favoritable_id, favoritable_type }` (participant, group or category). */
  addFavourite: { method: 'POST', path: 'favorite', keyless: false, response: envelope(Favourite) },
  deleteFavourite: { method: 'DELETE', path: 'favorite/{id}', keyless: false, response: envelope(Message) },
  /** type, id, single_event_package_id, participant_id, coupon: the price breakdown (or a pricing refusal). */
  pricing: { method: 'GET', path: 'pricing', keyless: false, response: envelope(Pricing) },
  /** code, type, id: a valid coupon, or 422 'Wrong promo code'. */
  applyCoupon: { method: 'GET', path: 'apply_coupon', keyless: false, response: envelope(Coupon) },
  /**
   * `{ type, id, single_event_package_id?, participant_id?, coupon?, confirmation_token | payment_method, save_card?,
   * idempotency_key }`: the Payment Element's confirmation token, or a saved card's id. The order at once (see
   * Purchase).
   */
  buy: { method: 'POST', path: 'stripe/buy', keyless: false, response: envelope(Purchase) },
  listCards: { method: 'GET', path: 'stripe/list-cards', keyless: false, response: envelope(list(SavedCard)) },
  setupIntent: { method: 'POST', path: 'stripe/setup-intent', keyless: false, response: envelope(SetupIntent) },
  /** `{ subscription_id, confirmation_token | payment_method, idempotency_key }`: the card is saved for the trial. */
  startTrial: { method: 'POST', path: 'stripe/subscription/start_trial', keyless: false, response: envelope(Purchase) },
  /** `{ order_id }`: cancels the subscription's auto-renewal. */
  unsubscribe: { method: 'POST', path: 'stripe/unsubscribe', keyless: false, response: envelope(Unsubscribe) },
  customerPortal: { method: 'GET', path: 'stripe/customer-portal', keyless: false, response: envelope(CustomerPortal) },
});
