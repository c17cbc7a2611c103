/**
 * The `stream` of an event or library item as the operator API and the channel file take and give it (zod): where
 * its stream comes from (docs/streams.md "## Sources"). Stored in the STREAM_SOURCES migration's columns
 * (operator/stream-columns.ts).
 */
import * as z from 'zod';
import { MUX_PLAYBACK_ID } from './mux.js';

/**
 * Where an event's or library item's stream comes from (docs/streams.md "## Sources"): `generated` (the server's
 * test media, the default), `url` (an HLS URL of the channel's packager or CDN: https, or http to this machine only,
 * for development and tests), `mux` (a Mux playback id; `signed` for a signed playback policy: the server then mints
 * a token per viewer with the channel's Mux signing key) or, for events only, `ingest` (the channel's encoder pushes
 * over RTMP; its stream key is made and shown by `…/events/{id}/ingest`, never here).
 */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const hlsUrl = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((v) => {
    if (!URL.canParse(v)) return false;
    const url = new URL(v);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
  }, 'must be an absolute https URL (http only to this machine: localhost, 127.0.0.1, [::1])');
const muxPlaybackId = z
  .string()
  .trim()
  .regex(MUX_PLAYBACK_ID, "must be a Mux playback id (letters and digits, as Mux's dashboard shows it)");
export const streamVariants = (answer: boolean) =>
  [
    z.strictObject({ type: z.literal('generated') }),
    z.strictObject({ type: z.literal('url'), url: answer ? z.string() : hlsUrl }),
    z.strictObject({
      type: z.literal('mux'),
      playback_id: answer ? z.string() : muxPlaybackId,
      signed: answer ? z.boolean() : z.optional(z.boolean()),
    }),
  ] as const;
const ingestStream = z.strictObject({ type: z.literal('ingest') });
export const EventStreamInput = z.discriminatedUnion('type', [...streamVariants(false), ingestStream]);
export const LibraryStreamInput = z.discriminatedUnion('type', [...streamVariants(false)]);
export const EventStream = z.discriminatedUnion('type', [...streamVariants(true), ingestStream]);
export const LibraryStream = z.discriminatedUnion('type', [...streamVariants(true)]);
export type StreamInput = z.infer<typeof EventStreamInput>;
