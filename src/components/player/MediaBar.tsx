/**
 * The bar under a playing video, for what the browser's own controls lack: Go to live (a live stream watched behind
 * its edge, in the DVR window), Start over (an on-demand video resumed where the viewer left it), the speed
 * (on-demand), the quality (where hls.js plays more than one rendition) and picture-in-picture. Play, seeking, volume
 * and full screen stay with the browser's controls and the keyboard.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { MediaSession, SessionState } from '../../media/session.js';
import { goLive, inPip, LIVE_EDGE_S, pipAvailable, secondsBehind, SPEEDS, togglePip } from '../../lib/media-bar.js';
import { formatClock } from '../../lib/time.js';
import { useElement } from '../ui/shell.js';
// The player's English texts (`player.*`) travel with its code.
import '../../i18n/player.js';

/** What the bar shows of the video, read again when it changes. */
interface Reading {
  /** Whole seconds behind the live edge (live streams). */
  behind: number;
  rate: number;
  pip: boolean;
}

function read(video: HTMLVideoElement): Reading {
  return { behind: secondsBehind(video), rate: video.playbackRate, pip: inPip(video) };
}

/** Follows the video's time, speed and picture-in-picture, re-rendering only when what shows changes. */
function useReading(video: HTMLVideoElement): Reading {
  const [reading, setReading] = useState(() => read(video));
  useEffect(() => {
    const update = () =>
      setReading((last) => {
        const next = read(video);
        return next.behind === last.behind && next.rate === last.rate && next.pip === last.pip ? last : next;
      });
    const events = [
      'timeupdate',
      'seeked',
      'ratechange',
      'durationchange',
      'enterpictureinpicture',
      'leavepictureinpicture',
    ];
    for (const type of events) video.addEventListener(type, update);
    update();
    return () => {
      for (const type of events) video.removeEventListener(type, update);
    };
  }, [video]);
  return reading;
}

export interface MediaBarProps {
  video: HTMLVideoElement;
  live: boolean;
  state: SessionState;
  session: MediaSession | undefined;
  /** Where the video was resumed (seconds), until the viewer starts over. */
  resumedAt: number | undefined;
  onStartOver(): void;
}

export function MediaBar(props: MediaBarProps): ReactNode {
  const { t } = useElement();
  const { video, live, state } = props;
  const reading = useReading(video);
  const quality = state.quality;

  const atEdge = reading.behind <= LIVE_EDGE_S;
  return (
    <div className="media-bar" part="media-bar" role="group" aria-label={t('player.media.label')}>
      {live ? (
        <button
          type="button"
          className={atEdge ? 'btn live-edge' : 'btn quiet live-edge'}
          part="button live"
          data-state={atEdge ? 'edge' : 'behind'}
          onClick={() => goLive(video)}
        >
          <span className="dot" aria-hidden="true" />
          {atEdge ? t('player.media.atLive') : t('player.media.goLive')}
          {atEdge ? null : (
            <span className="behind" aria-hidden="true">
              −{formatClock(reading.behind)}
            </span>
          )}
        </button>
      ) : null}
      {props.resumedAt !== undefined ? (
        <>
          <span className="resumed" part="resumed" role="status">
            {t('player.media.resumed', { time: formatClock(props.resumedAt) })}
          </span>
          <button type="button" className="btn quiet" part="button start-over" onClick={props.onStartOver}>
            {t('player.media.startOver')}
          </button>
        </>
      ) : null}
      <span className="spacer" />
      {!live ? (
        <label className="menu" part="speed">
          <span>{t('player.media.speed')}</span>
          <select
            value={String(reading.rate)}
            onChange={(e) => {
              video.playbackRate = Number(e.currentTarget.value);
            }}
          >
            {SPEEDS.map((speed) => (
              <option key={speed} value={String(speed)}>
                {speed === 1 ? t('player.media.normal') : `${speed}×`}
              </option>
            ))}
            {SPEEDS.includes(reading.rate as (typeof SPEEDS)[number]) ? null : (
              <option value={String(reading.rate)}>{`${reading.rate}×`}</option>
            )}
          </select>
        </label>
      ) : null}
      {quality && quality.renditions.length > 1 ? (
        <label className="menu" part="quality">
          <span>{t('player.media.quality')}</span>
          <select
            value={String(quality.selected)}
            onChange={(e) => props.session?.setQuality(Number(e.currentTarget.value))}
          >
            <option value="-1">
              {quality.selected === -1 && quality.renditions[quality.playing]
                ? t('player.media.autoAt', { height: quality.renditions[quality.playing]!.height })
                : t('player.media.auto')}
            </option>
            {quality.renditions
              .map((rendition, index) => ({ rendition, index }))
              .sort((a, b) => b.rendition.height - a.rendition.height)
              .map(({ rendition, index }) => (
                <option key={index} value={String(index)}>
                  {t('player.media.height', { height: rendition.height })}
                </option>
              ))}
          </select>
        </label>
      ) : null}
      {pipAvailable(video) ? (
        <button
          type="button"
          className="btn quiet"
          part="button pip"
          aria-pressed={reading.pip}
          onClick={() => togglePip(video)}
        >
          {t('player.media.pip')}
        </button>
      ) : null}
    </div>
  );
}
