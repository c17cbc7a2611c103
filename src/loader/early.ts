/**
 * Start-up requests the loader sends while the element chunks download and compile: the channel key (unless
 * stored), then the api key (unless stored), settings and colours, the start-up sequence. Without them the first
 * request would wait until React and the session code have been parsed and run.
 *
 * Nothing here interprets an answer beyond reading the channel key to build the next URL: the API client
 * adopts each answer when it makes the identical request (method, URL and body), once, and then validates,
 * stores, logs and retries as it does with its own. An answer nobody adopts is simply dropped with the page.
 * The client and the loader both wait on the same answers (the channel key, the api key), so the client may
 * reach a request before the loader has sent it: while the loader still has requests to send, the client waits
 * for them rather than sending a second copy. Where the answers are kept and how the client takes one is the
 * handover in src/lib/early-requests.ts, which the session hands the client; nothing outside the loader imports this.
 * Also what the loader reads of those answers for an early video (early-video.ts), and its cheap checks of whether
 * one may start at all.
 * Part of the tiny loader: it imports nothing but dependency-free modules (the storage format's reader, and the
 * paths and storage keys the session uses too, so that the requests here are the ones the client makes).
 */
import {
  type API_KEY_PARAM,
  type CHANNEL_KEY_PARAM,
  COLORS_PATH,
  EVENTS_PATH,
  FORM_TYPE,
  GEO_PATH,
  GET_API_KEY_PATH,
  PROFILE_PATH,
  SETTINGS_PATH,
  STORAGE_PREFIX,
  apiKeyStorageKey,
  channelKeyFileUrl,
  channelKeyStorageKey,
  tokenStorageKey,
} from '../lib/api-paths.js';
import { earlyMap, requestKey, sendingUntil } from '../lib/early-requests.js';
import { entryValue } from '../lib/storage.js';

// The wire names written as literals (smaller than computed keys) but checked against the shared constants.
type WithChannelKey<T> = Record<typeof CHANNEL_KEY_PARAM, T>;
type WithApiKey<T> = Record<typeof API_KEY_PARAM, T>;

/** A stored value that has not expired (wrapped: a stored null is a value), read as the session's storage reads it. */
export function storedValue(name: string): { v: unknown } | undefined {
  try {
    return entryValue(localStorage.getItem(STORAGE_PREFIX + name), Date.now());
  } catch {
    return undefined;
  }
}

/** A stored non-empty string that has not expired. */
function stored(name: string): string | undefined {
  const entry = storedValue(name);
  return typeof entry?.v === 'string' && entry.v ? entry.v : undefined;
}

/** The name of a start-up answer the loader's early video reads (early-video.ts): `event:{id}` for an event. */
export type EarlyAnswer = 'settings' | 'geo' | `event:${string}`;

/**
 * Sends the start-up requests for a channel; `apiUrl` and `keysUrl` are resolved the way the session does.
 * `events` are the event ids of the players on the page: their events (and the visitor's profile or geo, and
 * the settings, with the preroll list a player waits for) are asked for as soon as the api key is known, as the
 * session would, with the stored sign-in if there is one. `watch` is shown each answer the early video reads the
 * moment its request goes out (so it can read a copy before the client takes the answer). Settles once every
 * request has been sent (or could not be).
 */
export function sendEarly(
  channelKey: string,
  apiUrl: string,
  keysUrl: string,
  events: string[] = [],
  watch: (name: EarlyAnswer, answer: Promise<Response>) => void = () => undefined,
): Promise<void> {
  const map = earlyMap();
  const token = stored(tokenStorageKey(channelKey));
  const send = (method: string, url: string, body?: string, signedIn = false): Promise<Response> => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (signedIn && token) headers.Authorization = `Bearer ${token}`;
    // Only get_api_key has a body: a form, so that no preflight holds it up (api-paths.ts FORM_TYPE).
    if (body) headers['Content-Type'] = FORM_TYPE;
    const answer = fetch(url, { method, headers, body });
    // A failure is the client's to meet when it adopts the answer (or to never see when it does not).
    answer.catch(() => undefined);
    map.set(requestKey(method, url, body), answer);
    return answer;
  };
  const known = stored(channelKeyStorageKey(channelKey));
  const channel = known
    ? Promise.resolve(known)
    : send('GET', channelKeyFileUrl(keysUrl, channelKey))
        .then((r) => (r.ok ? (r.clone().json() as Promise<Partial<WithChannelKey<unknown>>>) : undefined))
        .then((file) => file?.channel_key);
  const sending = channel
    .then((key) => {
      if (typeof key !== 'string' || !key) return;
      const withKey: WithChannelKey<string> = { channel_key: key };
      const query = `?${new URLSearchParams(withKey).toString()}`;
      // The api key first: the players' events wait for it (the rest does not depend on it).
      const known = stored(apiKeyStorageKey(key));
      // The body as the client writes it (URLSearchParams, the same form as the query).
      const asked = known ? undefined : send('POST', `${apiUrl}/${GET_API_KEY_PATH}`, query.slice(1));
      watch('settings', send('GET', `${apiUrl}/${SETTINGS_PATH}${query}`));
      send('GET', `${apiUrl}/${COLORS_PATH}${query}`);
      if (!events.length) return;
      const apiKey = asked
        ? asked
            .then((r) => (r.ok ? (r.clone().json() as Promise<{ data?: Partial<WithApiKey<unknown>> }>) : undefined))
            .then((body) => body?.data?.api_key)
        : Promise.resolve(known);
      return apiKey.then((api) => {
        if (typeof api !== 'string' || !api) return;
        const keyed = `?${new URLSearchParams({ api_key: api } satisfies WithApiKey<string>).toString()}`;
        // The session asks for the profile when a sign-in is stored, else for geo.
        if (token) send('GET', `${apiUrl}/${PROFILE_PATH}${keyed}`, undefined, true);
        else watch('geo', send('GET', `${apiUrl}/${GEO_PATH}${keyed}`));
        for (const id of events) {
          watch(
            `event:${id}`,
            send('GET', `${apiUrl}/${EVENTS_PATH}/${encodeURIComponent(id)}${keyed}`, undefined, true),
          );
        }
      });
    })
    .catch(() => undefined);
  // Settled once every request above has been sent (or could not be): see adoptEarly.
  return sendingUntil(sending);
}

/** The engine a player asks for (`prefer-playback`), read as the player reads it: "native", "mse" or none. */
export const preferredEngine = (player: Element): 'native' | 'mse' | undefined => {
  const v = player.getAttribute('prefer-playback')?.trim().toLowerCase();
  return v === 'native' || v === 'mse' ? v : undefined;
};

/**
 * Whether an early video could start on this page for `channelKey`, by what is cheap to tell: a player with
 * `autoplay` and `muted`, a guest (a signed-in viewer's passes, capabilities and resume positions are the
 * profile's), a browser that plays HLS itself. The loader runs the early video's module only then; the module
 * reads the attributes as the player does.
 */
export function mayStartEarly(channelKey: string, players: Element[]): boolean {
  return (
    storedValue(tokenStorageKey(channelKey)) === undefined &&
    document.createElement('video').canPlayType('application/vnd.apple.mpegurl') !== '' &&
    players.some((p) => p.hasAttribute('autoplay') && p.hasAttribute('muted'))
  );
}

/** Reads a start-up answer the early video needs: its `data`, or undefined (never asked, failed, not JSON). */
export type EarlyData = (name: EarlyAnswer) => Promise<unknown>;

/**
 * Collects the answers of `sendEarly` (pass `watch` as its `watch`): a copy of each, made the moment its request
 * goes out (the client takes the original). `data(name)` answers once every request has gone out when `name` is not
 * in yet (`sending` settles then).
 */
export function earlyAnswers(sending: () => Promise<void>): {
  watch(name: EarlyAnswer, answer: Promise<Response>): void;
  data: EarlyData;
} {
  const answers = new Map<EarlyAnswer, Promise<unknown>>();
  return {
    watch(name, answer) {
      answers.set(
        name,
        answer
          .then((r) => (r.ok ? r.clone().json() : undefined))
          .then((body: { data?: unknown } | undefined) => body?.data)
          .catch(() => undefined),
      );
    },
    data: (name) => answers.get(name) ?? sending().then(() => answers.get(name)),
  };
}
