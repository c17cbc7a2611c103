/**
 * The shared session: keys, user, channel settings and colours, and the start-up sequence. Every element on the
 * page reads these same stores; this module is the only thing they share.
 */
import { ApiClient, type ClientHooks } from '../api/client.js';
import { ChannelKeyFile, Settings, channelApi } from '../api/channel-schemas.js';
import { ApiError, ConfigError, HttpError, isCancel, NoApiKeyError } from '../api/errors.js';
import { ready } from '../lib/async.js';
import { env } from '../lib/env.js';
import {
  STORAGE_PREFIX,
  apiKeyStorageKey,
  channelKeyFileUrl,
  channelKeyStorageKey,
  settingsCopyUrl,
  tokenStorageKey,
} from '../lib/api-paths.js';
import { isString } from '../lib/storage.js';
import { adoptEarly, forgetEarly } from '../lib/early-requests.js';
import { $config, type ChannelConfig } from './config.js';
import { $user, $token, $settings, $colors, $geo, $profileError, $apiKeyError, $startup } from './session-state.js';
import { startAnalytics, trackApiCall } from './analytics/port.js';

/** How long the Reload button stays disabled after an api-key error. */
export const RELOAD_COUNTDOWN_MS = 60_000;

/** The session's state lives in session-state.ts; every element reads it from here. */
export * from './session-state.js';

let client: ApiClient | undefined;
let clientConfig: ChannelConfig | undefined;
let channelKeyPromise: Promise<string> | undefined;
let apiKeyPromise: Promise<string> | undefined;
let startPromise: Promise<void> | undefined;

const storageKeys = (config: ChannelConfig) => ({
  channel: channelKeyStorageKey(config.channelKey),
  api: apiKeyStorageKey,
});

function requireConfig(): ChannelConfig {
  const config = $config.get();
  if (!config) throw new ConfigError('channel-elements is not configured: data-channel-key is missing.');
  return config;
}

/** Resolves the channel key: stored, else from the keys host. */
function channelKey(): Promise<string> {
  channelKeyPromise ??= (async () => {
    const config = requireConfig();
    const keys = storageKeys(config);
    const stored = env().storage.get(keys.channel, isString);
    if (stored) return stored;
    try {
      const url = channelKeyFileUrl(config.keysUrl, config.channelKey);
      const file = await getClient().fetchJson(url, ChannelKeyFile, 'channel-key');
      env().storage.set(keys.channel, file.channel_key);
      return file.channel_key;
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) {
        const message = `channel-elements: the channel key "${config.channelKey}" is unknown to ${config.keysUrl}. Check data-channel-key.`;
        env().logger.error(message);
        throw new ConfigError(message);
      }
      throw error;
    }
  })();
  channelKeyPromise.catch(() => (channelKeyPromise = undefined));
  return channelKeyPromise;
}

/** Resolves the api key: stored, else `POST /get_api_key`. Fails with NO_API_KEY when none can be had. */
function apiKey(): Promise<string> {
  apiKeyPromise ??= (async () => {
    const config = requireConfig();
    const ck = await channelKey();
    const storageKey = storageKeys(config).api(ck);
    const stored = env().storage.get(storageKey, isString);
    if (stored) return stored;
    let answer;
    try {
      answer = await getClient().call(channelApi.getApiKey, { global: true, cache: false });
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new NoApiKeyError(error instanceof Error ? error.message : String(error));
    }
    env().storage.set(storageKey, answer.data.api_key);
    return answer.data.api_key;
  })();
  apiKeyPromise.catch(() => (apiKeyPromise = undefined));
  return apiKeyPromise;
}

/** Drops stored keys; the next call fetches them again. */
export function dropKeys(which: 'channel_key' | 'api_key'): void {
  const config = $config.get();
  if (!config) return;
  const keys = storageKeys(config);
  const ck = env().storage.get(keys.channel, isString) ?? config.channelKey;
  env().storage.remove(keys.api(ck));
  apiKeyPromise = undefined;
  if (which === 'channel_key') {
    env().storage.remove(keys.channel);
    channelKeyPromise = undefined;
  } else {
    resetUser();
  }
}

/** Forgets the signed-in user (401, invalid api key, sign-out), here and in storage. */
export function resetUser(): void {
  userEpoch++;
  const config = $config.get();
  if (config && $token.get()) env().storage.remove(tokenKey(config));
  $token.set(undefined);
  $user.set(undefined);
  $profileError.set(undefined);
  client?.clearCache();
}

/**
 * Where the bearer token lives: in local storage under `rudy_token.<channel>`, so that a reload and other tabs of
 * the same site keep the sign-in (with the stored values' lifetimes), and in `$token` for requests, which send it
 * as an Authorization header only. It never goes into URLs, events, logs or analytics.
 */
const tokenKey = (config: ChannelConfig) => tokenStorageKey(config.channelKey);

/** The api key requests carry now (fetched when there is none): a social sign-in's `state` must equal it. */
export function currentApiKey(): Promise<string> {
  return apiKey();
}

/**
 * Makes `token` the session's sign-in (sign-in.ts): stored, sent from now on, the cache of the guest's answers
 * dropped; a profile load started for an earlier token no longer writes its user.
 */
export function adoptToken(token: string): void {
  const config = requireConfig();
  userEpoch++;
  env().storage.set(tokenKey(config), token);
  $token.set(token);
  client?.clearCache();
}

/** Follows sign-in and sign-out done in another tab of the same site (the window's storage event). */
function followOtherTabs(): void {
  const target = env().eventTarget;
  // Once per target: the page's window in a browser (tests give each world its own target).
  if (!target || followed.has(target)) return;
  followed.add(target);
  target.addEventListener('storage', (event) => {
    const e = event as StorageEvent;
    const current = $config.get();
    if (!current || e.key !== STORAGE_PREFIX + tokenKey(current)) return;
    const token = env().storage.get(tokenKey(current), isString);
    if (token === $token.get()) return;
    client?.clearCache();
    if (token) {
      $token.set(token);
      void loadProfileOrGeo();
    } else {
      userEpoch++;
      $token.set(undefined);
      $user.set(undefined);
    }
  });
}
const followed = new WeakSet<EventTarget>();
/** Bumped by every reset, so that work started before it never writes into the new session. */
let generation = 0;
/** Bumped by every sign-in and sign-out, so that a profile load started before it never writes the old user. */
let userEpoch = 0;
let identityPromise: Promise<void> | undefined;

/** Resolves once start-up knows who the visitor is (profile, or geo for a guest): the geo-block is known then. */
export async function identified(): Promise<void> {
  await startSession();
  await identityPromise;
}

const hooks: ClientHooks = {
  channelKey,
  channelLabel: () => $config.get()?.channelKey ?? '',
  apiKey,
  dropKeys,
  token: () => $token.get(),
  onUnauthorized: resetUser,
  onGlobalError(detail) {
    $apiKeyError.set({ ...detail, at: env().now() });
    env().eventTarget?.dispatchEvent(
      new CustomEvent('api_key_error', { detail: { error: detail.error, url: detail.url } }),
    );
  },
  // The start-up requests the loader script sent while the code loaded (the client never imports the loader).
  earlyAnswer: adoptEarly,
  earlyFailed: forgetEarly,
  onCallEnd: (call) => trackApiCall(call),
};

/** The API client of the current configuration. */
export function getClient(): ApiClient {
  const config = requireConfig();
  if (!client || clientConfig !== config) {
    client = new ApiClient({ apiUrl: config.apiUrl, logUrl: config.logUrl }, hooks);
    clientConfig = config;
  }
  return client;
}

/**
 * Runs the start-up sequence once per configuration: channel key, then api key, settings, colours and the
 * profile (or geo) in parallel. Elements render once settings and colours are in; the profile/geo step
 * finishes in the background. Menu, pages and catalogues load only when an element asks for them.
 */
export function startSession(): Promise<void> {
  if (startPromise) return startPromise;
  $startup.set({ status: 'loading' });
  // A reset (new configuration, tests) while this runs makes its late answers moot.
  const mine = generation;
  startPromise = (async () => {
    try {
      const api = getClient();
      // The stored sign-in first, so that every request from here on (including elements' early ones) is the
      // signed-in user's.
      followOtherTabs();
      if (!$token.get()) $token.set(env().storage.get(tokenKey(requireConfig()), isString));
      await channelKey();
      const keyed = apiKey();
      // The profile (or geo) follows the api key, alongside settings and colours.
      identityPromise = keyed.then(
        () => (mine === generation ? loadProfileOrGeo() : undefined),
        () => undefined,
      );
      const [settings, colors] = await Promise.all([
        loadSettings(),
        // The colours are the theme's, never a reason not to start: without them the elements wear their defaults (the
        // failure is logged by the client).
        api.call(channelApi.colors).then(
          (answer) => answer.data,
          () => ({}),
        ),
        keyed,
      ]);
      if (mine !== generation) return;
      $settings.set(settings);
      $colors.set(colors);
      $startup.set(ready(undefined));
      // The analytics layer starts once the channel's keys for it are known (and waits for its moment).
      startAnalytics();
    } catch (error) {
      if (mine !== generation) return;
      const failure =
        error instanceof ApiError
          ? error
          : new ApiError('network', error instanceof Error ? error.message : String(error));
      env().logger.error(`channel-elements: start-up failed: ${failure.message}`);
      $startup.set({ status: 'error', error: failure });
      startPromise = undefined;
    }
  })();
  return startPromise;
}

/**
 * The channel's settings: `GET settings`, else (spec section 7) their stored copy under `/storage/settings/`, so a
 * failing settings call does not stop the elements while the channel's storage answers. When both fail, the API's
 * error is the start-up's (the copy's failure is logged on its own).
 */
async function loadSettings(): Promise<Settings> {
  const api = getClient();
  try {
    return (await api.call(channelApi.settings, { global: true })).data;
  } catch (error) {
    if (isCancel(error) || error instanceof ConfigError || !serverTrouble(error)) throw error;
    try {
      const url = settingsCopyUrl(requireConfig().apiUrl, await channelKey());
      const copy = await api.fetchJson(url, Settings, 'settings-copy');
      env().logger.warn(
        `channel-elements: GET settings failed (${error instanceof Error ? error.message : String(error)}); using the stored copy.`,
      );
      return copy;
    } catch {
      throw error;
    }
  }
}

/**
 * Whether a failed call is the server's trouble (unreachable, too slow, a 5xx or 429, an answer that breaks the
 * contract), which the stored settings can stand in for; a refusal (401, 403, 404: a revoked key, a closed
 * channel) is the answer, and a stale copy must not hide it.
 */
function serverTrouble(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return !(error instanceof HttpError) || error.status >= 500 || error.status === 429;
}

/** Loads the user's profile when there is a token; when that fails (or for a guest), the geo data. */
async function loadProfileOrGeo(): Promise<void> {
  const api = getClient();
  const mine = generation;
  const epoch = userEpoch;
  if ($token.get()) {
    try {
      const profile = await api.call(channelApi.profile, { global: true, allow: [401], skipLog: [401], cache: false });
      if (mine !== generation || epoch !== userEpoch) return;
      $profileError.set(undefined);
      $user.set(profile.data);
      return;
    } catch (error) {
      // Fall through to geo: when the profile fails, geo data is fetched instead. A 401 ended the sign-in (the
      // client reset the user); any other failure leaves it stored, to be tried again.
      if (mine === generation && epoch === userEpoch && $token.get() && serverTrouble(error)) {
        $profileError.set(error as ApiError);
      }
    }
  }
  try {
    const geo = await api.call(channelApi.geo);
    if (mine === generation) $geo.set(geo.data);
  } catch {
    // Geo is best effort: without it nobody is blocked.
  }
}

/** Loads the stored sign-in's profile again (the profile's Retry after `$profileError`). */
export async function retryProfile(): Promise<void> {
  await loadProfileOrGeo();
}

/**
 * The Reload button of the start-up error screen, as the spec says: fetch a new api key (stored for the next page),
 * then reload the page. A key that cannot be had is the reloaded page's start-up error.
 */
export async function reloadSession(): Promise<void> {
  dropKeys('api_key');
  $apiKeyError.set(undefined);
  await apiKey().catch(() => undefined);
  env().reloadPage();
}

/** Forgets everything (a new `configure()`, or tests). */
export function resetSession(): void {
  generation++;
  client = undefined;
  clientConfig = undefined;
  channelKeyPromise = undefined;
  apiKeyPromise = undefined;
  startPromise = undefined;
  identityPromise = undefined;
  $user.set(undefined);
  $token.set(undefined);
  $profileError.set(undefined);
  $settings.set(undefined);
  $colors.set(undefined);
  $geo.set(undefined);
  $apiKeyError.set(undefined);
  $startup.set({ status: 'idle' });
}

$config.listen(() => resetSession());
