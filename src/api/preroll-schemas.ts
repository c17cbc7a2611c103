/**
 * The contract's preroll: the list a channel's settings carry (`settings.prerolls`). Imported from here, not through
 * contract.ts: only the player reads it, so it goes with the player's chunks, not the session's (rollup.config.mjs).
 */
import * as z from 'zod/mini';
import { flag, id, text } from './schema-kit.js';

/** A preroll: played before the main video of matching events. */
export const Preroll = z.object({
  id: id,
  url: text,
  weight: z._default(z.number(), 1),
  location_id: z.optional(z.nullable(id)),
  event_categories: z._default(z.array(id), []),
  for_vod: z._default(flag, false),
  for_live: z._default(flag, false),
});
export type Preroll = z.infer<typeof Preroll>;
/** The channel's preroll list, as its settings give it. */
export const PrerollList = z.array(Preroll);

/** Ours, beside the list (`settings.preroll_options`): the prerolls' switch and their suppression time. */
export const PrerollOptions = z.object({
  enabled: z.optional(z.nullable(flag)),
  suppression_minutes: z.optional(z.nullable(z.number())),
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
