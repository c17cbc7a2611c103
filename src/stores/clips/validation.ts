/**
 * A clip as the maker drafts it, its local rules (the server's, with the same messages: nothing is sent while one
 * fails) and the `POST clip` body it becomes.
 */
import {
  CLIP_MAX_SECONDS,
  CLIP_MAX_TAGS,
  CLIP_MIN_SECONDS,
  CLIP_NAME_MAX_LENGTH,
  type ClipRequest,
} from '../../api/account-schemas.js';
import type { Msg } from '../account/messages.js';
import { formsMsg } from '../account/validation.js';

/**
 * What the selection is cut from, on the video's own clock (seconds): a recording from 0 to its `duration`; or a
 * live stream, whose clippable window runs from `windowStart` to the live `edge` (the last CLIP_LIVE_WINDOW_SECONDS
 * at most), for an event scheduled to start at `eventStart` (UNIX seconds), whose video time `t` was live at
 * `clockMs + t * 1000` (UNIX ms: see MediaControls.position).
 */
export type ClipSource =
  | { kind: 'vod'; duration: number }
  | { kind: 'live'; windowStart: number; edge: number; eventStart: number; clockMs: number };

/** A clip being made: its event, name, tags and the selection `start`..`end` on the video's clock. */
export interface ClipDraft {
  eventId: number;
  name: string;
  tags: readonly string[];
  start: number;
  end: number;
  source: ClipSource;
}

/** Seconds rounded to a tenth (what the maker shows and sends). */
export const tenth = (seconds: number): number => Math.round(seconds * 10) / 10;

/** The part of the video a selection may cover, on the video's clock. */
export function clipBounds(source: ClipSource): { from: number; to: number } {
  return source.kind === 'vod' ? { from: 0, to: source.duration } : { from: source.windowStart, to: source.edge };
}

/** Tolerance of the bounds: a handle dragged to the very end must not fail on a rounding hair. */
const SLACK = 0.05;

/**
 * Checks a draft: name required, 1 to CLIP_MAX_TAGS tags, the selection inside the video (start: `start_time`,
 * end: `duration`) and CLIP_MIN_SECONDS to CLIP_MAX_SECONDS long (`duration`). Messages by the API's field names.
 */
export function validateClip(draft: ClipDraft): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  const { from, to } = clipBounds(draft.source);
  const length = tenth(draft.end - draft.start);
  if (draft.start < from - SLACK) fields.start_time = formsMsg('validation.clipDuration');
  if (draft.end > to + SLACK) fields.duration = formsMsg('validation.clipDuration');
  else if (length > CLIP_MAX_SECONDS) fields.duration = formsMsg('validation.clipTooLong', { max: CLIP_MAX_SECONDS });
  else if (length < CLIP_MIN_SECONDS) fields.duration = formsMsg('validation.clipTooShort', { min: CLIP_MIN_SECONDS });
  if (!draft.name.trim()) fields.name = formsMsg('validation.input');
  if (draft.tags.length === 0) fields.tags = formsMsg('validation.tag');
  else if (draft.tags.length > CLIP_MAX_TAGS) fields.tags = formsMsg('validation.clipTags', { max: CLIP_MAX_TAGS });
  return fields;
}

/**
 * The `POST clip` body of a valid draft. `start_time` is seconds into the recording, or for a live event seconds
 * since its scheduled start: when the selection's first frame was live, less the event's start.
 */
export function clipRequest(draft: ClipDraft): ClipRequest {
  const { source } = draft;
  const start = source.kind === 'vod' ? draft.start : source.clockMs / 1000 + draft.start - source.eventStart;
  return {
    event_id: draft.eventId,
    name: draft.name.trim().slice(0, CLIP_NAME_MAX_LENGTH),
    start_time: tenth(Math.max(0, start)),
    duration: tenth(draft.end - draft.start),
    tags: [...draft.tags],
  };
}
