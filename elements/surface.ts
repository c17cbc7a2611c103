/* eslint-disable max-lines -- the public surface written once, as data: every tag's attributes, events, slots and parts in one place */
/**
 * The public surface of the five elements, written once: each tag's attributes (with their value types), the
 * events it fires, its slots, its CSS parts and custom properties, and the player's media API. The build turns it
 * into the Custom Elements Manifest (`dist/custom-elements.json`, package.json `customElements`), the element
 * reference (elements/README.md), the typed tags (elements/tags.ts) and the React and Vue typings with
 * scripts/manifest.ts; `npm test` checks, before it builds, that the committed reference and tags are what this file
 * gives, that every attribute here is one the element reads (the `*_PROPS` lists, checked by the compiler below),
 * and at its end that every CSS part the tests see rendered is listed here, and every part listed here is rendered.
 *
 * Node and types only: no element code imports it, so none of it reaches the browser.
 */
import type { APP_PROPS } from '../src/components/app/App.js';
import type { CHECKOUT_PROPS } from '../src/components/checkout/attributes.js';
import type { PLAYER_PROPS } from '../src/components/player/attributes.js';
import type { PROFILE_PROPS } from '../src/components/profile/attributes.js';
import type { SCHEDULE_PROPS } from '../src/components/schedule/attributes.js';
import type * as Events from '../src/events/index.js';
import { AD_END_EVENT, AD_START_EVENT, MEDIA_EVENTS } from '../src/lib/media-events.js';

/** An attribute: its value's TypeScript type (what a typed host may set), what it does, its default. */
export interface AttributeDoc {
  type: string;
  description: string;
  default?: string;
}

/** An event: its name, the class it is an instance of (src/events; plain `Event` for the media events). */
export interface EventDoc {
  name: string;
  type: keyof typeof Events | 'Event';
  description: string;
}

/** A property or method beyond the attributes' own properties (the player's media API). */
export interface MemberDoc {
  name: string;
  kind: 'field' | 'method';
  type: string;
  readonly?: boolean;
  description: string;
}

/** A name, or a name with what it is. */
export type Named = string | [name: string, description: string];

/** One element. `P` is its props list: the compiler checks that every attribute it reads is described, once. */
export interface ElementSurface<P extends readonly string[]> {
  tag: string;
  className: string;
  description: string;
  /** Keyed by the prop name (camelCase); the attribute is its kebab-case form. */
  attributes: { [K in P[number]]: AttributeDoc };
  events: EventDoc[];
  slots: Named[];
  parts: Named[];
  /** Tags whose views this element shows in its own shadow root, with their parts (the site shows them all). */
  partsOf?: string[];
  cssProperties: Named[];
  members: MemberDoc[];
}

/** A numeric id: digits, as an attribute or a property. */
const ID = '`${number}` | number';
const FLAG = 'boolean';
const LANG: AttributeDoc = {
  type: "'en' | 'fr'",
  description: "this element's language (default: the page's `lang`, else the channel's)",
};

const loginRequest = (description: string): EventDoc => ({
  name: 'channel-login-request',
  type: 'ChannelLoginRequestEvent',
  description,
});

/** The video's events, dispatched again from `<channel-player>`. */
export const MEDIA_EVENT_NAMES = MEDIA_EVENTS;

/** A clip's actions, wherever a clip shows (the player's clip maker, the profile's clips). */
const CLIP_ACTION_PARTS: Named[] = [
  'clip-actions',
  'clip-download',
  'clip-copy',
  'clip-copied',
  'clip-link',
  'clip-share',
  'clip-delete',
  ['clip-stop', 'the delete button of a clip being made (it stops the job)'],
  'clip-confirm',
  'clip-confirm-delete',
  'clip-cancel',
  'clip-error',
];

export const schedule: ElementSurface<typeof SCHEDULE_PROPS> = {
  tag: 'channel-schedule',
  className: 'ChannelScheduleElement',
  description:
    "The channel's events as cards, a list or a table, filtered by attributes and, with `show-filters`, by the " +
    'viewer; with `kind="library"`, the video-on-demand library (rails, categories, search).',
  attributes: {
    kind: {
      type: "'live' | 'upcoming' | 'vod' | 'all' | 'library'",
      default: 'upcoming',
      description:
        'which events: live, upcoming, on demand, all, or the video-on-demand library (rails, categories, search; ' +
        'of the other attributes only watch-url, category and lang apply)',
    },
    category: {
      type: 'string',
      description: 'event category id or alias (library: a library category id, alias or name to open first)',
    },
    team: { type: 'string', description: 'participant id or alias (its own teams included)' },
    school: { type: 'string', description: 'participant group id or alias' },
    sport: { type: 'string', description: 'sport name (e.g. basketball)' },
    gender: { type: "'male' | 'female'", description: 'the gender of the teams' },
    city: { type: 'string', description: 'location city' },
    state: { type: 'string', description: 'location state' },
    layout: { type: "'grid' | 'list'", default: 'grid', description: 'cards in a grid or one under the other' },
    view: { type: "'card' | 'table'", default: 'card', description: 'cards or a table' },
    limit: { type: ID, description: 'show at most this many events (1-5000), fetched at once' },
    watchUrl: {
      type: 'string',
      default: '/watch/{id}',
      description: 'link template of an event (library: `/watch_library/{id}`)',
    },
    showFilters: {
      type: FLAG,
      description: 'show the gender, sport, city and state filters, and one per school property (conference...)',
    },
    showCalendar: {
      type: FLAG,
      description:
        "show the calendar: a week strip of days in the viewer's time zone to list one day's events (or all days)",
    },
    day: {
      type: 'string',
      description:
        "only the events of one day, `YYYY-MM-DD` in the viewer's time zone, or `today`; with show-calendar, the " +
        'day it shows first',
    },
    favourites: {
      type: FLAG,
      description:
        "only the events of the signed-in user's favourites (`GET events/favorite`); a guest is asked to sign in",
    },
    favorites: {
      type: FLAG,
      description:
        'the same as `favourites`, in the spelling of earlier versions: still read, for the pages that use it ' +
        '(`favourites` wins where a tag has both)',
    },
    structuredData: {
      type: FLAG,
      description:
        "writes schema.org JSON-LD (a `SportsEvent` with its `BroadcastEvent`, and the offer's price for paid events) " +
        "for the events shown into the host document's head, so search engines can list them; removed with the " +
        'element. Where the page enforces Trusted Types, allow the policy `channel-elements`',
    },
    lang: LANG,
  },
  events: [
    {
      name: 'channel-event-select',
      type: 'ChannelEventSelectEvent',
      description: 'an event was activated; cancelable',
    },
    {
      name: 'channel-vod-select',
      type: 'ChannelVodSelectEvent',
      description: 'a library item was activated; cancelable',
    },
    loginRequest("a guest pressed a star, or the sign-in button of a favourites list (reason 'favourite')"),
  ],
  slots: [],
  parts: [
    'schedule',
    ['frame', 'around everything the element shows (its language is on it)'],
    'title',
    'count',
    'filters',
    ['calendar', 'the day picker (show-calendar)'],
    ['calendar-all', 'its "All days" choice'],
    ['calendar-day', 'a day of its week strip (`aria-checked` when chosen, `aria-current="date"` today)'],
    ['calendar-previous', 'its previous-week button'],
    ['calendar-next', 'its next-week button'],
    ['day', 'the day a fixed-day schedule (`day` without show-calendar) lists'],
    'list',
    'table',
    'event',
    'event-link',
    'card',
    ['event-picture', "a card's 16:9 picture box: the event's picture, else a match's logos; the live badge over it"],
    ['event-team-logo', "a team in a match's picture: its logo on its colour, else its short name"],
    ['event-preview', "the event's preview loop while its card is pointed at or focused"],
    'event-name',
    'row',
    'badge',
    'badge-live',
    'badge-free',
    'badge-paid',
    ['badge-ppv', 'pay-per-view'],
    ['badge-register', 'free for registered viewers'],
    'badge-purchased',
    'favourite',
    ['favourite-following', 'a star of a followed event'],
    'favourite-popover',
    'favourite-toggle',
    'more',
    'loading',
    'empty',
    'error',
    'sign-in',
    'sign-in-button',
    'button',
    'message',
    ['notice', 'an attribute value the element ignored, and why'],
    ['temporary-password', 'the message to a viewer signed in with a temporary password, who must set a new one first'],
    'toasts',
    'toast',
    'library',
    'search',
    'search-input',
    'search-status',
    'categories',
    'category',
    'category-all',
    'category-items',
    'results',
    'library-rail',
    'library-rail-title',
    'library-rail-track',
    'rail-pause',
    'rail-previous',
    'rail-next',
    'library-grid',
    'library-card',
    'library-card-locked',
    'library-card-media',
    'library-card-preview',
    'library-card-duration',
    'library-card-title',
    'library-card-date',
    'library-card-lock',
    'lock-sign-in',
    'lock-membership',
    ['lock-account', 'the lock of an item a signed-in account without the `watch` right cannot watch'],
  ],
  cssProperties: [
    '--channel-accent',
    ['--channel-accent-text', 'text on the accent colour'],
    ['--channel-background', "the element's background (transparent by default)"],
    '--channel-font-family',
    '--channel-font-size',
    '--channel-radius',
    '--channel-surface',
    '--channel-line',
    '--channel-muted',
    '--channel-text',
    '--channel-card-background',
    '--channel-card-min-width',
    ['--channel-favourite', 'a followed star'],
    '--channel-popover-background',
  ],
  members: [],
};

export const player: ElementSurface<typeof PLAYER_PROPS> = {
  tag: 'channel-player',
  className: 'ChannelPlayerElement',
  description:
    'Live and on-demand playback with access control (sign-in, paywall, region), prerolls, recovery, live DVR, ' +
    'resume and clips; a media element in the shape of HTMLMediaElement.',
  attributes: {
    eventId: { type: ID, description: 'the event to play' },
    vodId: { type: ID, description: 'or a video-on-demand library item' },
    clipId: {
      type: ID,
      description: "or a clip: with `share`, a shared clip; without, one of the signed-in user's own",
    },
    share: { type: 'string', description: "the clip's share id (a UUID)" },
    autoplay: { type: FLAG, description: 'start at once (muted when the browser requires it)' },
    muted: { type: FLAG, description: 'start muted' },
    embed: { type: FLAG, description: 'the plain /watch_embed layout: video only, no header' },
    preferPlayback: {
      type: "'native' | 'mse'",
      description:
        "the browser's own HLS engine where it has one (the default, except live streams where hls.js can play " +
        'them), or hls.js (Media Source Extensions) even where the browser plays HLS itself',
    },
    lang: LANG,
  },
  events: [
    loginRequest("a guest asked to sign in to watch (reason 'watch')"),
    {
      name: 'channel-purchase-request',
      type: 'ChannelPurchaseRequestEvent',
      description: 'a paywall offer was chosen',
    },
    {
      name: 'channel-event-select',
      type: 'ChannelEventSelectEvent',
      description: "a clip's event link was followed; cancelable",
    },
    { name: AD_START_EVENT, type: 'Event', description: 'a preroll started (bubbles, composed)' },
    { name: AD_END_EVENT, type: 'Event', description: 'a preroll ended (bubbles, composed)' },
    ...MEDIA_EVENT_NAMES.map((name): EventDoc => ({
      name,
      type: 'Event',
      description: "the video's, from the element",
    })),
  ],
  slots: [],
  parts: [
    'player',
    ['frame', 'around everything the element shows (its language is on it)'],
    'header',
    'title',
    'badge',
    'badge-live',
    'stage',
    'video',
    'poster',
    'loading',
    'error',
    'message',
    'geo-blocked',
    'no-recording',
    ['no-watch', 'the message to a signed-in account without the `watch` right (it watches free items only)'],
    'sign-in',
    'countdown',
    'countdown-clock',
    'paywall',
    'offers',
    'offer',
    'offer-price',
    'offer-button',
    'button',
    'sign-in-button',
    'submit',
    'play',
    'retry',
    'unmute',
    ['captions', "offers the stream's subtitles where the browser's own HLS leaves them out"],
    'download',
    'actions',
    'ad-label',
    ['embedded', 'the sandboxed frame of an event whose stream is an embeddable page (media type `embedded`)'],
    'reconnecting',
    'playback-error',
    'denied',
    'notice',
    'media-bar',
    ['live', 'Go to live; data-state edge | behind'],
    'resumed',
    'start-over',
    'speed',
    'quality',
    'pip',
    'clip-maker',
    'clip-button',
    'clip-badge',
    'clip-panel',
    'clip-close',
    'clip-form',
    'clip-timeline',
    'clip-handle',
    'clip-start',
    'clip-end',
    'clip-thumb',
    'clip-preview',
    'clip-preview-image',
    'clip-selection',
    'clip-set-start',
    'clip-set-end',
    'clip-play-selection',
    'clip-name',
    'clip-tags',
    'clip-tag',
    'clip-submit',
    'field',
    'field-error',
    'form-error',
    'clip-outcome',
    'clip-progress',
    'clip-ready',
    'clip-failed',
    'clip-retry',
    ...CLIP_ACTION_PARTS,
    'clip-another',
    'clip-making',
    'clip-event',
    'clip-event-link',
  ],
  cssProperties: [
    '--channel-accent',
    ['--channel-accent-text', 'text on the accent colour'],
    ['--channel-background', "the element's background (transparent by default)"],
    '--channel-radius',
    '--channel-player-background',
    '--channel-live',
  ],
  members: [
    {
      name: 'play',
      kind: 'method',
      type: '() => Promise<void>',
      description: 'starts the item (the preroll first, if any); rejects with NotAllowedError where nothing can play',
    },
    { name: 'pause', kind: 'method', type: '() => void', description: 'pauses' },
    {
      name: 'currentTime',
      kind: 'field',
      type: 'number',
      description: "the video's position in seconds (the ad's during a preroll, which cannot be seeked)",
    },
    { name: 'duration', kind: 'field', type: 'number', readonly: true, description: "the video's duration" },
    { name: 'paused', kind: 'field', type: 'boolean', readonly: true, description: 'whether the video is paused' },
    { name: 'ended', kind: 'field', type: 'boolean', readonly: true, description: 'whether the video ended' },
    {
      name: 'muted',
      kind: 'field',
      type: 'boolean',
      description: "the video's; set before anything plays, applies when it does",
    },
    { name: 'volume', kind: 'field', type: 'number', description: "the video's (0 to 1)" },
    {
      name: 'playbackRate',
      kind: 'field',
      type: 'number',
      description: 'the speed (on-demand video only; a preroll and a live stream stay at 1)',
    },
    {
      name: 'seekable',
      kind: 'field',
      type: 'TimeRanges',
      readonly: true,
      description: "the video's (a live stream's is its DVR window)",
    },
    { name: 'buffered', kind: 'field', type: 'TimeRanges', readonly: true, description: "the video's" },
    { name: 'readyState', kind: 'field', type: 'number', readonly: true, description: "the video's" },
    { name: 'videoWidth', kind: 'field', type: 'number', readonly: true, description: "the video's" },
    { name: 'videoHeight', kind: 'field', type: 'number', readonly: true, description: "the video's" },
    { name: 'textTracks', kind: 'field', type: 'TextTrackList', readonly: true, description: "the video's" },
    { name: 'adPlaying', kind: 'field', type: 'boolean', readonly: true, description: 'true while a preroll plays' },
    {
      name: 'streamType',
      kind: 'field',
      type: "'live' | 'on-demand' | undefined",
      readonly: true,
      description: 'what plays, while something does',
    },
    {
      name: 'targetLiveWindow',
      kind: 'field',
      type: 'number',
      readonly: true,
      description: 'Infinity for a live stream (a DVR window), else NaN',
    },
    {
      name: 'requestPictureInPicture',
      kind: 'method',
      type: '() => Promise<PictureInPictureWindow>',
      description: 'the video in picture-in-picture',
    },
    {
      name: 'requestFullscreen',
      kind: 'method',
      type: '(options?: FullscreenOptions) => Promise<void>',
      description: 'the stage (video and overlays) full screen',
    },
  ],
};

export const checkout: ElementSurface<typeof CHECKOUT_PROPS> = {
  tag: 'channel-checkout',
  className: 'ChannelCheckoutElement',
  description:
    "Buying a pass by card: the offer, the price with taxes and coupons, the viewer's saved cards or a new one " +
    '(Stripe), and the outcome. With none of the three ids, every package and subscription is listed (the ' +
    '/packages screen). It answers `channel-purchase-request` (a paywall offer, or one the host page fires).',
  attributes: {
    eventId: { type: ID, description: "sell this event's single-event pass" },
    packageId: { type: ID, description: 'or this package: single, category or team pass' },
    subscriptionId: {
      type: ID,
      description: 'or this subscription, with its trial when the viewer has not used one',
    },
    lang: LANG,
  },
  events: [
    {
      name: 'channel-purchase-complete',
      type: 'ChannelPurchaseCompleteEvent',
      description: 'an order was paid or a trial started',
    },
    loginRequest("a guest pressed Sign in (reason 'purchase')"),
  ],
  slots: [['card', "created by the element itself: the light-DOM node Stripe's card field mounts into"]],
  parts: [
    'checkout',
    ['frame', 'around everything the element shows (its language is on it)'],
    'notice',
    'loading',
    'title',
    'offers-step',
    'offers',
    'offer',
    'offer-price',
    'offer-trial',
    'offer-select',
    'purchased',
    'empty',
    'summary',
    'team-select',
    ['team-children', 'the teams of its own a chosen team has, which a team pass covers too'],
    'breakdown',
    'price',
    'base-price',
    'taxes',
    'discount',
    'total',
    'terms',
    'renewal',
    'trial',
    'final',
    'coupon',
    'coupon-apply',
    'coupon-error',
    'coupon-applied',
    'continue',
    'payment',
    'payment-total',
    'saved-cards',
    'saved-card',
    'new-card-option',
    'new-card',
    'card',
    'pay',
    'pay-error',
    'secure',
    'back',
    'failed-dialog',
    'failed-ok',
    'waiting',
    'success',
    'pending',
    'error',
    'retry',
    'sign-in',
    'sign-in-button',
    'free',
  ],
  cssProperties: [
    '--channel-accent',
    ['--channel-accent-text', 'text on the accent colour'],
    ['--channel-background', "the element's background (transparent by default)"],
    '--channel-radius',
    '--channel-error',
    '--channel-input-background',
    '--channel-input-text',
    '--channel-card-background',
    '--channel-popover-background',
    '--channel-checkout-max-width',
  ],
  members: [],
};

export const profile: ElementSurface<typeof PROFILE_PROPS> = {
  tag: 'channel-profile',
  className: 'ChannelProfileElement',
  description:
    "Sign-in, registration and the viewer's account: orders, transactions, clips, favourites, devices and the " +
    'account itself. While connected it answers sign-in requests from the other elements and the host page.',
  attributes: {
    section: {
      type: "'orders' | 'transactions' | 'clips' | 'favourites' | 'devices' | 'edit'",
      default: 'orders',
      description: "the account's panel to open (devices only with the channel's auth.remote_auth, else orders)",
    },
    lang: LANG,
  },
  events: [
    { name: 'channel-login', type: 'ChannelLoginEvent', description: 'after a sign-in here' },
    {
      name: 'channel-logout',
      type: 'ChannelLogoutEvent',
      description: 'after a sign-out here, or after the signed-in account was deleted',
    },
  ],
  slots: [],
  parts: [
    'profile',
    ['frame', 'around everything the element shows (its language is on it)'],
    'notice',
    'loading',
    'title',
    'header',
    'sign-out',
    'verify-banner',
    'tabs',
    'tab',
    'tab-selected',
    'panel',
    'sign-in',
    'register',
    'verify-notice',
    'reset-request',
    'reset-password',
    'verify-email',
    'confirm-deletion',
    'social-callback',
    'field',
    'field-error',
    'form-error',
    'message',
    'submit',
    'button',
    'continue',
    'cancel',
    'forgot',
    'to-register',
    'to-sign-in',
    'social',
    'social-google',
    'social-facebook',
    'resend',
    'new-link',
    [
      'signed-in-as',
      "on an emailed link's page: who is signed in here when the link is another account's (or needs a sign-out)",
    ],
    'orders',
    'order',
    'order-status',
    ['subscription-actions', "a subscription's actions"],
    'cancel-renewal',
    ['customer-portal', "the payment provider's customer portal (cards, invoices)"],
    ['renewal-status', 'what happened to the auto-renewal'],
    ['portal-error', 'the customer portal could not be opened'],
    ['confirm-dialog', 'the confirmation before cancelling the auto-renewal'],
    'confirm-cancel',
    'keep',
    'subscription-status',
    'auto-renewal',
    'transactions',
    'transaction',
    'transaction-label',
    'transaction-status',
    'clips',
    'clip',
    'clip-state',
    'clip-play',
    'clip-outcome',
    'clip-progress',
    'clip-failed',
    'clip-retry',
    ...CLIP_ACTION_PARTS,
    'clip-deleted',
    ['favourites-section', "the favourites panel's section"],
    ['favourites', 'the favourites panel'],
    ['favourite-group', 'one kind of favourite: teams, schools or categories'],
    ['favourite-add', 'the form that adds one'],
    ['favourite', 'one followed team, school or category'],
    'favourite-remove',
    'devices',
    'device-code',
    'edit',
    ['current-password', 'the current password field of the account form'],
    'temporary',
    'email-state',
    'capabilities',
    'feature-counts',
    'delete-account',
    'confirm-delete',
    'empty',
    'error',
    'retry',
  ],
  cssProperties: [
    '--channel-accent',
    ['--channel-accent-text', 'text on the accent colour'],
    ['--channel-background', "the element's background (transparent by default)"],
    '--channel-radius',
    '--channel-error',
    '--channel-error-background',
    '--channel-success',
    '--channel-success-background',
    '--channel-warning',
    '--channel-warning-background',
    '--channel-input-background',
    '--channel-input-text',
    '--channel-card-background',
    '--channel-profile-max-width',
  ],
  members: [],
};

export const app: ElementSurface<typeof APP_PROPS> = {
  tag: 'channel-app',
  className: 'ChannelAppElement',
  description:
    "The channel's whole site: home, schedule, watch pages, the library, packages, checkout and the account, " +
    'with its own routes under `base`.',
  attributes: {
    base: {
      type: 'string',
      default: '/',
      description:
        "the path the site lives under (e.g. `/tv` inside a CMS site); every path below it is the site's, and the " +
        'page\'s server must answer each with this page (docs/embedding.md, "Deep links")',
    },
    lang: {
      type: "'en' | 'fr'",
      description:
        "the site's language, unless the viewer chose one in the site's switch; without it: `data-lang`, the " +
        "script's `data-lang`, the channel's language (the page's `lang` only until that is known)",
    },
    dataLang: {
      type: "'en' | 'fr'",
      description: 'the same as `lang`, which wins when both are given',
    },
  },
  events: [
    { name: 'channel-login', type: 'ChannelLoginEvent', description: 'after a sign-in in the site' },
    { name: 'channel-logout', type: 'ChannelLogoutEvent', description: 'after a sign-out in the site' },
    {
      name: 'channel-purchase-complete',
      type: 'ChannelPurchaseCompleteEvent',
      description: 'an order was paid or a trial started in the site',
    },
  ],
  slots: [],
  parts: [
    'site',
    ['frame', 'around everything the element shows (its language is on it)'],
    'header',
    'brand',
    'menu-button',
    'header-menu',
    'nav',
    'menu-item',
    'menu-group',
    'account',
    'account-link',
    'sign-in',
    'sign-out',
    'language',
    'main',
    ['page', "a page's body"],
    ['home', 'the home page'],
    ['content', "a content page's blocks"],
    ['image', "a content page's picture"],
    ['contact-details', "the channel's contact details"],
    ['contact-form', 'the contact form'],
    ['reply-time', 'when the channel replies'],
    ['thanks', 'the message once the contact form is sent'],
    ['faq', 'the questions and answers page'],
    ['faq-item', 'one question with its answer'],
    ['carousel', "the home page's slides"],
    'carousel-pause',
    'carousel-previous',
    'carousel-next',
    'slide',
    ['clips-strip', "an event's clips on its watch page"],
    'clip-card',
    ['library-details', 'what a library item is, under its video'],
    'library-details-title',
    'library-details-description',
    ['checks', "the checks of the simulator page (the channel's own test)"],
    'check',
    ['pass', 'a check that passed'],
    'page-title',
    'footer',
    'static-block',
    'not-found',
  ],
  partsOf: ['channel-schedule', 'channel-player', 'channel-checkout', 'channel-profile'],
  cssProperties: [
    '--channel-accent',
    ['--channel-accent-text', 'text on the accent colour'],
    ['--channel-background', "the element's background (transparent by default)"],
    '--channel-radius',
    '--channel-header-background',
    '--channel-header-text-color',
  ],
  members: [],
};

/** Every element, in the order the reference lists them. */
export const ELEMENTS = [schedule, player, checkout, profile, app] as const;
