/**
 * What the player's video analytics (src/media/analytics.ts) report through: `videoReporting` gives them the
 * channel's Mux key and datalake for this viewer, and the consent gate.
 *
 * What the video payloads say of an event (spec: category, sport, gender, school and league): its category's name;
 * the sport and gender of its home team (else of its category); the home team's school and that school's league
 * (its `league` property, else its `conference`). Looked up after the first frame: the schools' list (and the
 * categories' when the teams do not say) may be fetched then, once per page.
 */
import type { Event, EventCategory, Settings, User } from '../../api/channel-schemas.js';
import type { VideoReporting } from '../../media/analytics.js';
import { categories, participantGroups } from '../catalog.js';
import type { ChannelConfig } from '../config.js';
import {
  analyticsAllowed,
  attributedPartner,
  commonFields,
  cut,
  datalakeSession,
  postDatalake,
  targetOf,
  viewerFields,
} from './datalake.js';
import { onAnalyticsConsent, whenAnalyticsMay } from './gate.js';

/** What the video payloads say of what is watched (spec: category, sport, gender, school and league). */
export interface VideoDetails {
  category?: string | undefined;
  sport?: string | undefined;
  gender?: string | undefined;
  school?: string | undefined;
  league?: string | undefined;
}

/** Whose analytics a player reports: the channel, the viewer, and what the payloads say of the item. */
export interface VideoAnalyticsContext {
  config: ChannelConfig;
  settings: Settings | undefined;
  user: User | undefined;
  /** What the payloads say of the item (its category, sport, ...), looked up once, after the first frame. */
  details?: (() => Promise<VideoDetails>) | undefined;
}

/**
 * Where one monitor reports (make one per monitor: the item's details are looked up once for it). Mux with the
 * channel's environment key, the datalake with its analytics key, each only where this page may send analytics.
 */
export function videoReporting({ config, settings, user, details }: VideoAnalyticsContext): VideoReporting {
  const allowed = analyticsAllowed(config);
  const muxKey = settings?.mux?.env_key;
  let found: VideoDetails = {};
  let asked: Promise<void> | undefined;
  const lookUp = () =>
    (asked ??= (details?.() ?? Promise.resolve({})).then(
      (answer) => void (found = answer),
      () => undefined,
    ));
  return {
    mux: muxKey && allowed ? { envKey: muxKey, beaconDomain: settings?.mux?.beacon_domain ?? undefined } : undefined,
    partner: attributedPartner,
    datalake:
      settings?.['yare-analytics'] && allowed
        ? (path, view, fields) => {
            const target = targetOf(config, settings);
            if (!target) return;
            void Promise.all([datalakeSession(target), lookUp()]).then(([session]) => {
              if (!session) return;
              void postDatalake(target, path, {
                ...commonFields(target),
                ...viewerFields(session, user),
                stream_id: view.streamId,
                stream_type: view.streamType,
                video_view_uuid: view.viewId,
                title: cut(view.title) ?? null,
                category: cut(found.category) ?? null,
                sport: cut(found.sport) ?? null,
                gender: cut(found.gender) ?? null,
                school: cut(found.school) ?? null,
                league: cut(found.league) ?? null,
                ...fields,
              });
            });
          }
        : undefined,
    whenMay: whenAnalyticsMay,
    onConsent: onAnalyticsConsent,
  };
}

/** The category of `id` in a category tree. */
function findCategory(tree: readonly EventCategory[], id: number): EventCategory | undefined {
  for (const category of tree) {
    if (category.id === id) return category;
    const inner = category.children ? findCategory(category.children, id) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/** The details of `event` for its video payloads; what cannot be found is left out. Never rejects. */
export async function videoDetails(event: Event): Promise<VideoDetails> {
  const home = event.participants.find((p) => p.id === event.home_team_id) ?? event.participants[0];
  const details: VideoDetails = {
    category: event.category?.name ?? undefined,
    sport: home?.properties?.sport ?? undefined,
    gender: home?.properties?.gender ?? undefined,
  };
  const categoryId = event.event_category_id ?? event.category?.id;
  if ((!details.sport || !details.gender) && categoryId) {
    try {
      const category = findCategory(await categories.load(), categoryId);
      details.sport ??= category?.sport ?? undefined;
      details.gender ??= category?.gender ?? undefined;
    } catch {
      // Best effort: the payload goes without them.
    }
  }
  if (home?.participant_group_id) {
    try {
      const school = (await participantGroups.load()).find((g) => g.id === home.participant_group_id);
      details.school = school?.name;
      details.league = school?.properties?.league ?? school?.properties?.conference ?? undefined;
    } catch {
      // Best effort, as above.
    }
  }
  return details;
}
