/**
 * The events of `<channel-player>` as a media element (src/media/element-api.ts), also read by the documented
 * surface (elements/surface.ts), so both name the same events.
 */

/** Media events dispatched again from the element (plain, non-bubbling events, as a <video> fires them). */
export const MEDIA_EVENTS = [
  'loadstart',
  'emptied',
  'loadedmetadata',
  'loadeddata',
  'canplay',
  'canplaythrough',
  'play',
  'pause',
  'playing',
  'waiting',
  'stalled',
  'suspend',
  'timeupdate',
  'durationchange',
  'volumechange',
  'ratechange',
  'seeking',
  'seeked',
  'ended',
  'error',
  'progress',
  'resize',
  'enterpictureinpicture',
  'leavepictureinpicture',
] as const;

/** Fired from the element (bubbling, composed) when a preroll starts and when it ends. */
export const AD_START_EVENT = 'channel-ad-start';
export const AD_END_EVENT = 'channel-ad-end';
