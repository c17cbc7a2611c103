/**
 * The names the loader, the contract and the session must spell alike: the API paths of the start-up requests,
 * the wire names of the keys, the keys host's file and the storage keys start-up reads. The loader sends its
 * early requests with these and the client adopts an answer only for the identical request, so a name spelt
 * twice could drift silently (every start-up request sent twice). Dependency-free: it is part of the tiny loader,
 * and each name is its own export, not a property of one object, so that the minifier inlines it there.
 */

/** Path (relative to the API base) of `POST get_api_key`, which the loader may send before the code arrives. */
export const GET_API_KEY_PATH = 'get_api_key';
/**
 * The body type of `get_api_key`: a form (`channel_key=…`); JSON only where the channel's API refused the form (400,
 * 415, 422) and then read the same call as JSON, which the client remembers for that channel (client.ts; the
 * loader's early call is always a form). It carries no sign-in token either way (it needs none). A cross-origin POST
 * with a form body and no other headers than the safelisted ones is a CORS "simple" request: the browser sends it at
 * once, where a JSON one waits for a preflight (`OPTIONS`) answer first. That round trip would sit in every new
 * visitor's start-up chain (keys file, then `get_api_key`, then the keyed calls), early video or not. The spec names
 * no body type; ours reads both (server/http/http.ts `readBody`).
 */
export const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Path of the channel settings. */
export const SETTINGS_PATH = 'settings';
/** Path of the channel colours. */
export const COLORS_PATH = 'color-settings/web';
/** Path of the signed-in user's profile. */
export const PROFILE_PATH = 'profile';
/** Path of a guest's geo data. */
export const GEO_PATH = 'geo';
/** Path of the events list; one event is below it. */
export const EVENTS_PATH = 'events';
/** Path of one event (`{id}` is the event id). */
export const EVENT_PATH = `${EVENTS_PATH}/{id}`;

/** The wire name of the channel key: the parameter of keyless calls and of `get_api_key`, the keys file's field. */
export const CHANNEL_KEY_PARAM = 'channel_key';
/** The wire name of the api key: the parameter of every keyed call, the field of `get_api_key`'s answer. */
export const API_KEY_PARAM = 'api_key';

/** The keys host's file that names a configured channel's channel key. */
export function channelKeyFileUrl(keysUrl: string, configured: string): string {
  return `${keysUrl}/${encodeURIComponent(configured)}.json`;
}

/**
 * The stored copy of a channel's settings, read when `GET settings` fails (spec section 7: "Settings are also stored
 * under /storage/settings/"): on the API's host, `{API origin}/storage/settings/{channel key}.json`.
 */
export function settingsCopyUrl(apiUrl: string, channelKey: string): string {
  return `${new URL(apiUrl).origin}/storage/settings/${encodeURIComponent(channelKey)}.json`;
}

/** The prefix of every key this product writes to local storage. */
export const STORAGE_PREFIX = 'rudy_';

/** Storage key (without the prefix) of the channel key a configured channel (data-channel-key) resolved to. */
export const channelKeyStorageKey = (configured: string): string => `channel_key.${configured}`;
/** Storage key of the api key issued for a channel key. */
export const apiKeyStorageKey = (channelKey: string): string => `api_key.${channelKey}`;
/** Storage key of the signed-in user's bearer token for a configured channel. */
export const tokenStorageKey = (configured: string): string => `token.${configured}`;
/** Where the client remembers that a channel's API refused `get_api_key`'s form body (it then sends JSON). */
export const formRefusedStorageKey = (channelKey: string): string => `json_api_key.${channelKey}`;
/**
 * Storage key of a viewer's resume positions on a channel (`userId` absent: this browser's guest). The loader reads
 * the guest's before it starts a video early (early-video.ts), so a resumed video never starts from the beginning.
 */
export const resumeStorageKey = (configured: string, userId?: number): string =>
  `resume.${configured}.${userId ?? 'guest'}`;
