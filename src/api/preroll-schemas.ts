/**
 * The contract's preroll: the list a channel's settings carry (`settings.prerolls`). Imported from here, not through
 * contract.ts: only the player reads it, so it goes with the player's chunks, not the session's (rollup.config.mjs).
 */
import * as z from 'zod/mini';
import { flag, id, list, num, obj, opt, text } from './schema-kit.js';

/** A preroll: played before the main video of matching events. */
export const Preroll = obj({
  id: id,
  url: text,
  weight: opt(num, 1),
  location_id: opt(id),
  event_categories: opt(list(id), []),
  for_vod: opt(flag, false),
  for_live: opt(flag, false),
});
export type Preroll = z.infer<typeof Preroll>;
/** The channel's preroll list, as its settings give it. */
export const PrerollList = list(Preroll);

/** Ours, beside the list (`settings.preroll_options`): the prerolls' switch and their suppression time. */
export const PrerollOptions = obj({
  enabled: opt(flag),
  suppression_minutes: opt(num),
});
export type PrerollOptions = z.infer<typeof PrerollOptions>;

/** `settings.preroll_options` as the player reads it: anything it cannot read (null, `[]`...) is the defaults. */
export function prerollOptionsOf(raw: unknown): PrerollOptions {
  return PrerollOptions.safeParse(raw).data ?? {};
}

/** The prerolls of `settings.prerolls`: absent or null, or a list that does not parse, is none. */
export function prerollsOf(raw: unknown): Preroll[] {
  return (raw == null ? undefined : PrerollList.safeParse(raw).data) ?? [];
}
