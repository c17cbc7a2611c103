/**
 * The contract's preroll: the list a channel's settings carry (`settings.prerolls`). Imported from here, not through
 * contract.ts: only the player reads it, so it goes with the player's chunks, not the session's (rollup.config.mjs).
 */
import * as z from 'zod/mini';
import { flag, id, list, num, obj, opt, readAnswer, text } from './schema-kit.js';

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

/** The prerolls' place in the settings' answer, so that what is left out is named as there (`data.prerolls.1.url`). */
const SettingsPrerolls = obj({ data: obj({ prerolls: PrerollList }) });

/**
 * The prerolls of `settings.prerolls` (absent or null, or not a list, is none), and the lines of those left out, for
 * the client to report as it reports any answer's (client.ts `reportLeftOut`: endpoint `settings`, id, field).
 */
export function prerollsOf(raw: unknown): { prerolls: Preroll[]; dropped: string[] } {
  if (raw == null) return { prerolls: [], dropped: [] };
  const { result, dropped } = readAnswer(SettingsPrerolls, { data: { prerolls: raw } }, 'settings');
  return { prerolls: result.data?.data.prerolls ?? [], dropped };
}
