/**
 * The session's state: the viewer (user, token, geo), the channel (settings, colours) and where start-up is. The
 * start-up and the actions that set these are in session.ts, which re-exports them; the analytics layer reads them
 * here, because session.ts reports to that layer (through its port) and must not be imported back by it.
 */
import { atom, computed } from 'nanostores';
import type { ColorSettings, Geo, Settings, User } from '../api/channel-schemas.js';
import type { ApiError } from '../api/errors.js';
import type { Async } from '../lib/async.js';

/** The signed-in user, or undefined for a guest. */
export const $user = atom<User | undefined>(undefined);
/** The user's bearer token (set by sign-in; kept out of URLs, events and logs). */
export const $token = atom<string | undefined>(undefined);
/** Channel settings once loaded. */
export const $settings = atom<Settings | undefined>(undefined);
/** Channel colours once loaded. */
export const $colors = atom<ColorSettings | undefined>(undefined);
/** Geo data, fetched when the profile cannot be had. */
export const $geo = atom<Geo | undefined>(undefined);
/**
 * Why the stored sign-in's profile could not be loaded (the server's trouble: unreachable, too slow, a 5xx or 429,
 * an answer that breaks the contract); undefined once it loads, after a 401 (the sign-in is gone then) and for a
 * guest. The visitor is a guest meanwhile, but their sign-in is kept: the profile says so and offers Retry.
 */
export const $profileError = atom<ApiError | undefined>(undefined);
/** The last global api-key error (429 or a failing global call), with the time it happened. */
export const $apiKeyError = atom<{ at: number; error: string; url: string; status: number } | undefined>(undefined);

/** Start-up progress shared by every element. */
export type StartupState = Async<void, ApiError>;
/** Where the start-up sequence is. */
export const $startup = atom<StartupState>({ status: 'idle' });

/** True when the visitor is geo-blocked (from the profile or the geo answer). */
export const $geoBlocked = computed([$user, $geo], (user, geo) => Boolean(user?.is_geo_blocked || geo?.is_geo_blocked));
