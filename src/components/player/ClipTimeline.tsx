/**
 * The clip maker's timeline: the part of the video a clip may cover (a recording from start to end, a live stream's
 * last minutes up to the live edge) as a strip of preview thumbnails, the selection between two handles and the
 * playhead. The handles are sliders (aria-valuetext in m:ss): dragged with a pointer, or moved with the arrow keys
 * (1 s; Shift, Page Up and Page Down: 10 s; Home and End: as far as they go); the one in use shows the preview at its
 * position. The start handle never passes the end handle, nor the end the start.
 */
import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { formatClock } from '../../lib/time.js';
import { tenth } from '../../stores/clips.js';
import { thumbnailAt, type Thumbnail } from '../../stores/clips/thumbnails.js';
import { useElement } from '../ui/shell.js';

/** How many previews the strip shows, and their height (px). */
const STRIP = 8;
const STRIP_HEIGHT = 40;

/** The timeline's props: its range `from`..`to` and the selection, on the video's clock. */
export interface TimelineProps {
  from: number;
  to: number;
  start: number;
  end: number;
  playhead: number | undefined;
  live: boolean;
  /** Live: what to add to a video time for the event's clock (seconds since its scheduled start). */
  eventClockOffset?: number | undefined;
  thumbnails: readonly Thumbnail[];
  onChange(which: 'start' | 'end', value: number): void;
  invalid: { start: boolean; end: boolean };
  /** The id of the message under the timeline, when there is one. */
  errorId?: string | undefined;
}

/** A time as the handles and the summary say it: m:ss into a recording, or how long before the live edge. */
export function useTimeText(live: boolean, to: number): (value: number) => string {
  const { t } = useElement();
  return (value) => (live ? t('clips:maker.beforeLive', { time: formatClock(to - value) }) : formatClock(value));
}

/** The timeline with its two handles. */
export function ClipTimeline(props: TimelineProps): ReactNode {
  const { t } = useElement();
  const { from, to, start, end } = props;
  const track = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<'start' | 'end'>();
  const span = Math.max(to - from, 0.001);
  const percent = (value: number) => `${(Math.min(Math.max((value - from) / span, 0), 1) * 100).toFixed(3)}%`;
  const text = useTimeText(props.live, to);
  // A live event's previews are cued on the event's clock, wrapped around the loop it plays (the server's
  // thumbnails track of a live event): the video's clock is moved onto the event's first.
  const loop = props.thumbnails.at(-1)?.end ?? 0;
  const wrap = (time: number) => ((time % loop) + loop) % loop;
  const thumbAt = (time: number) =>
    thumbnailAt(props.thumbnails, props.live && loop > 0 ? wrap(time + (props.eventClockOffset ?? 0)) : time);

  const limits = (which: 'start' | 'end') => (which === 'start' ? { min: from, max: end } : { min: start, max: to });
  const move = (which: 'start' | 'end', value: number) => {
    const { min, max } = limits(which);
    props.onChange(which, tenth(Math.min(Math.max(value, min), max)));
  };

  const onKey = (which: 'start' | 'end') => (e: KeyboardEvent<HTMLDivElement>) => {
    const value = which === 'start' ? start : end;
    const step = e.shiftKey ? 10 : 1;
    const { min, max } = limits(which);
    const next: Record<string, number> = {
      ArrowLeft: value - step,
      ArrowDown: value - step,
      ArrowRight: value + step,
      ArrowUp: value + step,
      PageDown: value - 10,
      PageUp: value + 10,
      Home: min,
      End: max,
    };
    if (!(e.key in next)) return;
    e.preventDefault();
    move(which, next[e.key]!);
  };

  const valueAt = (clientX: number) => {
    const box = track.current?.getBoundingClientRect();
    if (!box || box.width === 0) return undefined;
    return from + ((clientX - box.left) / box.width) * span;
  };
  const onPointerDown = (which: 'start' | 'end') => (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.focus();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    setActive(which);
  };
  const onPointerMove = (which: 'start' | 'end') => (e: PointerEvent<HTMLDivElement>) => {
    if (!e.currentTarget.hasPointerCapture?.(e.pointerId)) return;
    const value = valueAt(e.clientX);
    if (value !== undefined) move(which, value);
  };

  const handle = (which: 'start' | 'end') => {
    const value = which === 'start' ? start : end;
    const { min, max } = limits(which);
    return (
      <div
        key={which}
        role="slider"
        tabIndex={0}
        className={`clip-handle ${which}`}
        part={`clip-handle clip-${which}`}
        aria-label={t(which === 'start' ? 'clips:maker.start' : 'clips:maker.end')}
        aria-valuemin={tenth(min)}
        aria-valuemax={tenth(max)}
        aria-valuenow={value}
        aria-valuetext={text(value)}
        aria-invalid={props.invalid[which] || undefined}
        aria-describedby={props.invalid[which] ? props.errorId : undefined}
        style={{ left: percent(value) }}
        onKeyDown={onKey(which)}
        onFocus={() => setActive(which)}
        onBlur={() => setActive((now) => (now === which ? undefined : now))}
        onPointerDown={onPointerDown(which)}
        onPointerMove={onPointerMove(which)}
      />
    );
  };

  const preview = active && props.thumbnails.length ? thumbAt(active === 'start' ? start : end) : undefined;
  return (
    <div className="clip-timeline" part="clip-timeline" role="group" aria-label={t('clips:maker.timeline')}>
      <div className="clip-track" ref={track}>
        <div className="clip-strip" aria-hidden="true">
          {props.thumbnails.length
            ? Array.from({ length: STRIP }, (_, i) => (
                <Crop
                  key={i}
                  thumb={thumbAt(from + ((i + 0.5) * span) / STRIP)}
                  part="clip-thumb"
                  height={STRIP_HEIGHT}
                />
              ))
            : null}
        </div>
        <div
          className="clip-range"
          aria-hidden="true"
          style={{ left: percent(start), right: `calc(100% - ${percent(end)})` }}
        />
        {props.playhead !== undefined ? (
          <div className="clip-playhead" aria-hidden="true" style={{ left: percent(props.playhead) }} />
        ) : null}
        {handle('start')}
        {handle('end')}
        {preview && active ? (
          <div
            className="clip-preview"
            part="clip-preview"
            aria-hidden="true"
            style={{ left: percent(active === 'start' ? start : end) }}
          >
            <Crop thumb={preview} part="clip-preview-image" />
            <span>{t('clips:maker.preview', { time: text(active === 'start' ? start : end) })}</span>
          </div>
        ) : null}
      </div>
    </div>
  );
}

/**
 * One preview: its crop of the sprite as CSS background (set through the CSSOM, which a strict CSP allows), at its
 * own size or zoomed to `height`.
 */
function Crop(props: { thumb: Thumbnail | undefined; part: string; height?: number }): ReactNode {
  const { thumb } = props;
  if (!thumb) return <div className="clip-crop" part={props.part} />;
  const crop = thumb.crop;
  return (
    <div
      className="clip-crop"
      part={props.part}
      data-src={thumb.url}
      style={{
        backgroundImage: `url("${thumb.url.replace(/["\\]/g, encodeURIComponent)}")`,
        backgroundPosition: crop ? `-${crop.x}px -${crop.y}px` : 'center',
        backgroundSize: crop ? 'auto' : 'cover',
        width: crop ? `${crop.w}px` : undefined,
        height: crop ? `${crop.h}px` : undefined,
        zoom: crop && props.height ? props.height / crop.h : undefined,
      }}
    />
  );
}
