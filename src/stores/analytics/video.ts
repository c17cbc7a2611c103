/**
 * What the video payloads say of an event (spec: category, sport, gender, school and league): its category's name;
 * the sport and gender of its home team (else of its category); the home team's school and that school's league
 * (its `league` property, else its `conference`). Looked up after the first frame: the schools' list (and the
 * categories' when the teams do not say) may be fetched then, once per page.
 */
import type { Event, EventCategory } from '../../api/contract.js';
import type { VideoDetails } from '../../media/analytics.js';
import { categories, participantGroups } from '../catalog.js';

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
