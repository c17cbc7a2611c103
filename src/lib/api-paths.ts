/**
 * The names the loader and the session must spell alike: API paths of the start-up requests, the parameter that
 * carries a key, the keys host's file, and the storage keys of what start-up reads. The loader sends its early
 * requests with these and the client adopts an answer only for the identical request, so a name spelt twice
 * could drift silently (every answer sent twice). Dependency-free: it is part of the tiny loader.
 */

/** API paths (relative to the API base) of the requests the loader may send before the code arrives. */
export const PATHS = {
  getApiKey: 'get_api_key',
  settings: 'settings',
  colors: 'color-settings/web',
  profile: 'profile',
  geo: 'geo',
  event: 'events/{id}',
  prerolls: 'prerolls',
} as const;

/** The wire name of the channel key: the parameter of keyless calls and of `get_api_key`, the keys file's field. */
export const CHANNEL_KEY_PARAM = 'channel_key';
/** The wire name of the api key: the parameter of every keyed call, the field of `get_api_key`'s answer. */
export const API_KEY_PARAM = 'api_key';

/** The keys host's file that names a configured channel's channel key. */
export function channelKeyFileUrl(keysUrl: string, configured: string): string {
  return `${keysUrl}/${encodeURIComponent(configured)}.json`;
}

/** The prefix of every key this product writes to local storage. */
export const STORAGE_PREFIX = 'rudy_';

/** Storage keys (without the prefix) start-up reads; `configured` is the page's data-channel-key. */
export const STORAGE_KEYS = {
  channelKey: (configured: string) => `channel_key.${configured}`,
  apiKey: (channelKey: string) => `api_key.${channelKey}`,
  token: (configured: string) => `token.${configured}`,
  prerolls: (configured: string) => `prerolls.${configured}`,
} as const;
