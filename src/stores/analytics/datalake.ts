/**
 * The analytics service (spec section 7): its session, made when missing and kept 24 h (`GET datalake/hash/`, then
 * `POST datalake/session/` once), and the bodies every call carries (the channel's analytics key as `profile`, the
 * page as `origin_url`, the outer tracker `trk` for 3 h after a landing address carried one). Each call has a 30 s
 * timeout; nothing goes from a localhost page unless the analytics URL was given explicitly; nothing without the
 * channel's analytics key. Bodies are JSON sent as text/plain (no CORS preflight, and what a beacon sends).
 * Never throws: analytics never break what the viewer is doing.
 */
import {
  ANALYTICS_SESSION_MS,
  ANALYTICS_TEXT_MAX,
  ANALYTICS_TIMEOUT_MS,
  DatalakeHash,
  OUTER_TRACKER_MS,
} from '../../api/analytics-schemas.js';
import type { Settings, User } from '../../api/channel-schemas.js';
import { env } from '../../lib/env.js';
import { partnerSlug } from '../../lib/ids.js';
import { toJson } from '../../lib/json.js';
import { $config, type ChannelConfig } from '../config.js';
import { $geo, $settings, $user } from '../session-state.js';
import { pageUrl } from './layer.js';

/** Where a channel's analytics go: the datalake base and the channel's analytics key. */
export interface DatalakeTarget {
  base: string;
  profile: string;
}

/** Whether analytics may be sent from this page (nothing from localhost unless the analytics URL was given). */
export function analyticsAllowed(config: ChannelConfig): boolean {
  if (config.analyticsExplicit) return true;
  const host = env().location()?.hostname ?? '';
  return !/^(localhost|127\.0\.0\.1|\[::1\]|::1)$/.test(host);
}

/** The datalake of a channel, when this page may send to it. */
export function targetOf(
  config: ChannelConfig | undefined,
  settings: Settings | undefined,
): DatalakeTarget | undefined {
  const profile = settings?.['yare-analytics'];
  if (!config || !profile || !analyticsAllowed(config)) return undefined;
  return { base: `${config.analyticsUrl}/datalake`, profile };
}

/** The datalake of the current channel, when this page may send to it. */
export function datalakeTarget(): DatalakeTarget | undefined {
  return targetOf($config.get(), $settings.get());
}

/** The page's address for analytics (origin and path). */
export { pageUrl };

// ---------------------------------------------------------------- the outer tracker

const TRACKER_KEY = 'analytics.trk';
/** The tracker seen in this page's address, until it may be stored (consent mode keeps it in memory till then). */
let trackerSeen: { value: string; until: number } | undefined;

/** Keeps the outer tracker of a landing address for 3 h (a later one replaces it). */
export function keepOuterTracker(trk: string | undefined | null, store: boolean): void {
  const value = trk?.trim();
  if (!value || value.length > 200) return;
  trackerSeen = { value, until: env().now() + OUTER_TRACKER_MS };
  if (store) env().storage.set(TRACKER_KEY, value, OUTER_TRACKER_MS);
}

/** Stores the tracker seen before consent was given, for what is left of its 3 h. */
export function storeOuterTracker(): void {
  const left = trackerSeen ? trackerSeen.until - env().now() : 0;
  if (trackerSeen && left > 0) env().storage.set(TRACKER_KEY, trackerSeen.value, left);
}

/** The outer tracker kept, if any and not older than 3 h. */
export function outerTracker(): string | undefined {
  const stored = env().storage.get(TRACKER_KEY, (v): v is string => typeof v === 'string');
  if (stored) return stored;
  return trackerSeen && trackerSeen.until > env().now() ? trackerSeen.value : undefined;
}

// ---------------------------------------------------------------- bodies and requests

/** A text cut to what the service keeps. */
export const cut = (value: string | undefined | null): string | undefined =>
  value ? value.slice(0, ANALYTICS_TEXT_MAX) : undefined;

/**
 * The partner this page's analytics and orders are attributed to: the page's own (`data-partner`), else the outer
 * tracker the visitor landed with in the last 3 h when it is a partner slug (a partner's link, `?trk=acme-news`).
 */
export function attributedPartner(): string | undefined {
  return $config.get()?.partner ?? partnerSlug(outerTracker());
}

/** What every body carries: the profile, the page, the outer tracker and the partner. */
export function commonFields(target: DatalakeTarget): Record<string, unknown> {
  const trk = outerTracker();
  const partner = attributedPartner();
  return {
    profile: target.profile,
    origin_url: cut(pageUrl()),
    ...(trk ? { trk } : {}),
    ...(partner ? { partner } : {}),
  };
}

/** Who a body is about: the session and the signed-in viewer (id and email, as the service asks; never the token). */
export function viewerFields(session: string, user: User | undefined = $user.get()): Record<string, unknown> {
  return { session_uuid: session, user_id: user?.id ?? null, user_email: user?.email ?? null };
}

/** A request with the 30 s timeout; resolves with the response, or undefined on any failure. */
async function request(url: string, init: RequestInit): Promise<Response | undefined> {
  const controller = new AbortController();
  const clock = env();
  const timer = clock.setTimeout(() => controller.abort(), ANALYTICS_TIMEOUT_MS);
  try {
    return await env().fetch(url, { ...init, credentials: 'omit', signal: controller.signal });
  } catch {
    return undefined;
  } finally {
    clock.clearTimeout(timer);
  }
}

/**
 * Posts one body to `{base}/{path}`; true when the service took it. `leaving`: the page is going away, so the body
 * goes as a beacon (queued by the browser past the page's end), or failing that as a keepalive fetch.
 */
export async function postDatalake(
  target: DatalakeTarget,
  path: string,
  body: Record<string, unknown>,
  leaving = false,
): Promise<boolean> {
  const url = `${target.base}/${path}`;
  const text = toJson(body);
  if (leaving && env().sendBeacon(url, text)) return true;
  const response = await request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: text,
    keepalive: text.length < 60_000,
  });
  return Boolean(response?.ok);
}

// ---------------------------------------------------------------- the session

const sessionKey = (profile: string) => `analytics.session.${profile}`;
const pendingSessions = new Map<string, Promise<string | undefined>>();

/** The session kept for this channel, if any (no request). */
export function storedSession(target: DatalakeTarget): string | undefined {
  return env().storage.get(sessionKey(target.profile), (v): v is string => typeof v === 'string' && v.length > 0);
}

/**
 * The datalake session: the one kept (24 h), else a new one: its hash from `GET datalake/hash/`, registered with
 * `POST datalake/session/` once and kept. Undefined when the service cannot make one now (the next call tries again).
 */
export function datalakeSession(target: DatalakeTarget): Promise<string | undefined> {
  const stored = storedSession(target);
  if (stored) return Promise.resolve(stored);
  let pending = pendingSessions.get(target.profile);
  if (!pending) {
    pending = createSession(target).finally(() => pendingSessions.delete(target.profile));
    pendingSessions.set(target.profile, pending);
  }
  return pending;
}

async function createSession(target: DatalakeTarget): Promise<string | undefined> {
  const common = commonFields(target);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(common)) if (typeof value === 'string') query.set(name, value);
  const answer = await request(`${target.base}/hash/?${query}`, { method: 'GET' });
  if (!answer?.ok) return undefined;
  let hash: string;
  try {
    const parsed = DatalakeHash.safeParse(await answer.json());
    if (!parsed.success) return undefined;
    hash = parsed.data.data.hash;
  } catch {
    return undefined;
  }
  const device = env().device();
  const ua = device?.userAgent ?? '';
  const taken = await postDatalake(target, 'session/', {
    ...common,
    session: hash,
    ip: $geo.get()?.ip ?? null,
    device_type: /iPad|Tablet/i.test(ua) ? 'tablet' : /Mobi|Android/i.test(ua) ? 'mobile' : 'desktop',
    user_agent: cut(ua) ?? null,
    resolution: device?.screen ?? null,
    platform: 'web',
  });
  if (!taken) return undefined;
  env().storage.set(sessionKey(target.profile), hash, ANALYTICS_SESSION_MS);
  return hash;
}

/** Forgets sessions being made (tests). */
export function resetDatalake(): void {
  pendingSessions.clear();
  trackerSeen = undefined;
}
