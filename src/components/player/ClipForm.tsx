/**
 * The clip maker's form: the selection (Set start and Set end at the video's position, the I and O keys, or the
 * timeline's handles), Play selection (plays from the start and pauses at the end), the name and the tags. On
 * submit the store checks it first: each message shows at its field, focus goes to the first field in error, and
 * nothing is sent; a clip made then shows in the panel instead of the form.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { CLIP_LIVE_WINDOW_SECONDS, CLIP_MAX_TAGS, CLIP_NAME_MAX_LENGTH, CLIP_TAGS } from '../../api/account-schemas.js';
import type { Event } from '../../api/channel-schemas.js';
import type { MediaControls } from '../../media/session.js';
import { formMessage, type Msg } from '../../stores/account/messages.js';
import { makeClip, tenth, type ClipSource } from '../../stores/clips.js';
import { loadThumbnails, type Thumbnail } from '../../stores/clips/thumbnails.js';
import { env } from '../../lib/env.js';
import { formatClock } from '../../lib/time.js';
import { useElement } from '../ui/shell.js';
import { ClipTimeline, useTimeText } from './ClipTimeline.js';

/** The selection a new form starts with: the 10 s before the position (or after it, near the start). */
const FIRST_LENGTH = 10;
/** Seconds kept off the old end of a live window: the request's travel, and the clocks' rounding. */
const LIVE_MARGIN_SECONDS = 5;
/** The fields of the form, by the API's names (a message for any other shows at the top). */
const FIELDS = ['start_time', 'duration', 'name', 'tags'];

/** Re-renders as the video plays; answers its position now. */
function usePosition(media: MediaControls): ReturnType<MediaControls['position']> {
  const [, setTick] = useState(0);
  useEffect(() => media.onChange(() => setTick((n) => n + 1)), [media]);
  return media.position();
}

/** What the video is, seen by the maker: a recording of known length, or a live stream's window. */
export function clipSource(
  position: ReturnType<MediaControls['position']>,
  live: boolean,
  event: Event,
): ClipSource | undefined {
  if (!position) return undefined;
  if (!live)
    return Number.isFinite(position.duration) && position.duration > 0
      ? { kind: 'vod', duration: position.duration }
      : undefined;
  // Live: the video's clock maps to the wall clock (measured when the stream first played); the server keeps the
  // last CLIP_LIVE_WINDOW_SECONDS of the event for cutting, whatever this browser can seek back to. The edge is the
  // newest content the video holds (Chromium's own HLS reports no seekable window: then the buffer's end or the
  // position). A few seconds are kept in hand at the old end for the time the request takes.
  const clockMs = position.liveClockMs;
  if (clockMs === undefined || !Number.isFinite(position.time)) return undefined;
  const videoTimeAt = (unixSeconds: number) => unixSeconds - clockMs / 1000;
  const edge = Math.max(position.seekable?.end ?? 0, position.bufferedEnd ?? 0, position.time);
  const oldest = Math.max(
    env().now() / 1000 - CLIP_LIVE_WINDOW_SECONDS + LIVE_MARGIN_SECONDS,
    event.event_utc_ts + LIVE_MARGIN_SECONDS,
  );
  const windowStart = videoTimeAt(oldest);
  if (!(edge > windowStart)) return undefined;
  return { kind: 'live', windowStart, edge, eventStart: event.event_utc_ts, clockMs };
}

/** The form; `onMade` runs once the clip is queued (the panel then follows it). */
export function ClipForm(props: { media: MediaControls; event: Event; live: boolean; onMade(): void }): ReactNode {
  const { t } = useElement();
  const { media, event, live } = props;
  const position = usePosition(media);
  const source = clipSource(position, live, event);
  const from = source ? (source.kind === 'vod' ? 0 : source.windowStart) : 0;
  const to = source ? (source.kind === 'vod' ? source.duration : source.edge) : 0;
  const [range, setRange] = useState<{ start: number; end: number }>();
  const [name, setName] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, Msg>>({});
  const [message, setMessage] = useState<Msg>();
  const [busy, setBusy] = useState(false);
  const [attempts, setAttempts] = useState(0);
  const [thumbnails, setThumbnails] = useState<Thumbnail[]>([]);
  const form = useRef<HTMLFormElement>(null);
  const stopPlaying = useRef<() => void>();
  const ids = { range: useId(), tags: useId(), tagsHint: useId(), keys: useId() };
  const text = (m: Msg) => t(m.key, m.values);
  const timeText = useTimeText(live, to);

  // The selection starts around the position once the video's length (or window) is known.
  const known = source !== undefined;
  useEffect(() => {
    if (!known || range) return;
    const now = media.position()?.time ?? from;
    const end = Math.min(to, Math.max(now, from + FIRST_LENGTH));
    setRange({ start: tenth(Math.max(from, end - FIRST_LENGTH)), end: tenth(end) });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the source becomes known: the position moving later leaves the selection alone
  }, [known]);

  const thumbsUrl = event.media.find((m) => m.type === 'thumbnails')?.url;
  useEffect(() => {
    let live = true;
    if (thumbsUrl) void loadThumbnails(thumbsUrl).then((list) => live && setThumbnails(list));
    return () => {
      live = false;
    };
  }, [thumbsUrl]);

  useEffect(() => () => stopPlaying.current?.(), []);

  // After a refused submit, focus the first field in error (a tag group: its first tag), else the form's alert.
  useEffect(() => {
    if (!attempts) return;
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target = first?.tagName === 'FIELDSET' ? first.querySelector<HTMLElement>('button') : first;
    (target ?? form.current?.querySelector<HTMLElement>('.form-error'))?.focus();
  }, [attempts]);

  const setStart = (value: number) =>
    setRange((r) => {
      const start = tenth(Math.min(Math.max(value, from), to));
      const end = r && r.end > start ? r.end : tenth(Math.min(to, start + FIRST_LENGTH));
      return { start, end };
    });
  const setEnd = (value: number) =>
    setRange((r) => {
      const end = tenth(Math.min(Math.max(value, from), to));
      const start = r && r.start < end ? r.start : tenth(Math.max(from, end - FIRST_LENGTH));
      return { start, end };
    });
  const atPosition = (set: (value: number) => void) => {
    const now = media.position()?.time;
    if (now !== undefined) set(now);
  };

  const playSelection = () => {
    if (!range) return;
    stopPlaying.current?.();
    const { start, end } = range;
    // Paused at the end once the position has been inside the selection (the seek may report the old one first).
    let inside = false;
    const stop = media.onChange(() => {
      const now = media.position()?.time;
      if (now === undefined) return;
      if (now < end) inside = now >= start - 0.5;
      else if (inside) {
        media.pause();
        stop();
        stopPlaying.current = undefined;
      }
    });
    stopPlaying.current = stop;
    media.seek(start);
    media.play();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    const target = e.target as HTMLElement;
    if (target.tagName === 'INPUT' || e.altKey || e.ctrlKey || e.metaKey) return;
    const key = e.key.toLowerCase();
    if (key !== 'i' && key !== 'o') return;
    e.preventDefault();
    atPosition(key === 'i' ? setStart : setEnd);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const now = clipSource(media.position(), live, event);
    if (busy) return;
    if (!range || !now) {
      // The video has not told its length (or a live stream its clock) yet: say so rather than do nothing.
      setMessage({ key: 'clips:maker.notReady' });
      setAttempts((n) => n + 1);
      return;
    }
    setBusy(true);
    const outcome = await makeClip({ eventId: event.id, name, tags, start: range.start, end: range.end, source: now });
    setBusy(false);
    if (outcome.ok) return props.onMade();
    setErrors(outcome.failure.fields);
    setMessage(formMessage(outcome.failure, FIELDS));
    setAttempts((n) => n + 1);
  };

  const toggleTag = (tag: string) =>
    setTags((list) => (list.includes(tag) ? list.filter((x) => x !== tag) : [...list, tag]));
  const rangeError = errors.start_time ?? errors.duration;
  const nameId = useId();
  const nameErrorId = `${nameId}-error`;
  return (
    <form
      ref={form}
      className="clip-form"
      part="clip-form"
      noValidate
      onSubmit={(e) => void submit(e)}
      onKeyDown={onKeyDown}
    >
      {message ? (
        <div className="form-error" role="alert" tabIndex={-1} part="form-error">
          <p>{text(message)}</p>
        </div>
      ) : null}
      {range && source ? (
        <>
          <ClipTimeline
            from={from}
            to={to}
            start={range.start}
            end={range.end}
            playhead={position?.time}
            live={live}
            eventClockOffset={source.kind === 'live' ? source.clockMs / 1000 - source.eventStart : undefined}
            thumbnails={thumbnails}
            onChange={(which, value) => (which === 'start' ? setStart(value) : setEnd(value))}
            invalid={{ start: Boolean(errors.start_time), end: Boolean(errors.duration) }}
            errorId={rangeError ? ids.range : undefined}
          />
          <p className="clip-selection" part="clip-selection">
            {t('clips:maker.selection', {
              start: timeText(range.start),
              end: timeText(range.end),
              length: formatClock(range.end - range.start),
            })}
          </p>
        </>
      ) : null}
      {rangeError ? (
        <p id={ids.range} className="field-error" role="alert" part="field-error">
          {text(rangeError)}
        </p>
      ) : null}
      <div className="actions">
        <button
          type="button"
          className="btn secondary"
          part="button clip-set-start"
          aria-describedby={ids.keys}
          onClick={() => atPosition(setStart)}
        >
          {t('clips:maker.setStart')}
        </button>
        <button
          type="button"
          className="btn secondary"
          part="button clip-set-end"
          aria-describedby={ids.keys}
          onClick={() => atPosition(setEnd)}
        >
          {t('clips:maker.setEnd')}
        </button>
        <button
          type="button"
          className="btn secondary"
          part="button clip-play-selection"
          disabled={!range}
          onClick={playSelection}
        >
          {t('clips:maker.playSelection')}
        </button>
      </div>
      <p id={ids.keys} className="hint">
        {t('clips:maker.keys')}
      </p>
      <div className="field" part="field clip-name">
        <label htmlFor={nameId}>{t('clips:maker.name')}</label>
        <input
          id={nameId}
          name="name"
          value={name}
          maxLength={CLIP_NAME_MAX_LENGTH}
          autoComplete="off"
          aria-required="true"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? nameErrorId : undefined}
          onChange={(e) => setName(e.target.value.slice(0, CLIP_NAME_MAX_LENGTH))}
        />
        {errors.name ? (
          <p id={nameErrorId} className="field-error" role="alert" part="field-error">
            {text(errors.name)}
          </p>
        ) : null}
      </div>
      <fieldset
        className="clip-tags"
        part="clip-tags"
        aria-invalid={errors.tags ? true : undefined}
        aria-describedby={errors.tags ? `${ids.tagsHint} ${ids.tags}` : ids.tagsHint}
      >
        <legend>{t('clips:maker.tags')}</legend>
        <p id={ids.tagsHint} className="hint">
          {t('clips:maker.tagsHint', { max: CLIP_MAX_TAGS })}
        </p>
        <div className="chips">
          {CLIP_TAGS.map((tag) => (
            <button
              key={tag}
              type="button"
              className="chip"
              part="clip-tag"
              aria-pressed={tags.includes(tag)}
              onClick={() => toggleTag(tag)}
            >
              {t(`clips:tags.${tag}`)}
            </button>
          ))}
        </div>
        {errors.tags ? (
          <p id={ids.tags} className="field-error" role="alert" part="field-error">
            {text(errors.tags)}
          </p>
        ) : null}
      </fieldset>
      <div className="actions">
        <button type="submit" className="btn" part="submit clip-submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? t('clips:maker.busy') : t('clips:maker.submit')}
        </button>
      </div>
    </form>
  );
}
