/** `<channel-player>`: live and on-demand playback with access control, prerolls and recovery. */
import { Player } from '../src/components/player/Player.js';
import { PLAYER_PROPS } from '../src/components/player/attributes.js';
import { withMediaApi } from '../src/media/element-api.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/events.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * @attr event-id - the event to play (digits)
 * @attr vod-id - or a video-on-demand library item (digits)
 * @attr clip-id - or a clip (digits): with share, a shared clip; without, one of the signed-in user's own
 * @attr share - the clip's share id (a UUID)
 * @attr autoplay - start at once (muted when the browser requires it)
 * @attr muted - start muted
 * @attr embed - the plain /watch_embed layout: video only, no header
 * @attr prefer-playback - native | mse (hls.js even where the browser plays HLS itself)
 * @fires channel-login-request - a guest asked to sign in to watch (detail.reason, detail.eventId)
 * @fires channel-purchase-request - a paywall offer was chosen (detail.eventId, detail.offer {type, id, packageId})
 * @fires channel-event-select - a clip's event link was followed (detail.id); cancelable
 * @fires channel-ad-start, channel-ad-end - a preroll started, ended (`adPlaying` says which)
 * @fires play, pause, playing, waiting, timeupdate, durationchange, volumechange, ratechange, seeking, seeked,
 *   ended, error, loadedmetadata, loadeddata, progress, ... - the video's media events, from the element
 * Media API (as HTMLMediaElement): play(), pause(), currentTime, duration, paused, ended, muted, volume,
 * playbackRate, seekable, buffered, readyState, textTracks, requestPictureInPicture(), requestFullscreen(),
 * plus adPlaying, streamType and targetLiveWindow (see the README's "Media API").
 * @csspart player, header, title, badge, badge-live, stage, video, poster, loading, error, message, geo-blocked,
 *   no-recording, sign-in, countdown, countdown-clock, paywall, offers, offer, offer-price, offer-button, button,
 *   play, retry, unmute, download, actions, ad-label, reconnecting, playback-error, denied, notice, media-bar,
 *   live (Go to live; data-state edge | behind), resumed, start-over, speed, quality, pip, clip-maker,
 *   clip-button, clip-badge, clip-panel, clip-close, clip-form, clip-timeline, clip-handle, clip-start, clip-end,
 *   clip-thumb, clip-preview, clip-preview-image, clip-selection, clip-set-start, clip-set-end,
 *   clip-play-selection, clip-name, clip-tags, clip-tag, clip-submit, field, field-error, form-error, clip-outcome,
 *   clip-progress, clip-ready, clip-failed, clip-retry, clip-actions, clip-download, clip-copy, clip-copied,
 *   clip-link, clip-share, clip-delete, clip-confirm, clip-confirm-delete, clip-cancel, clip-error, clip-another,
 *   clip-making, clip-event, clip-event-link
 * @cssprop --channel-accent, --channel-radius, --channel-player-background, --channel-live
 */
export const createPlayerElement = () => withMediaApi(makeElement(Player, PLAYER_PROPS));

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-player');
  defineOnce('channel-player', createPlayerElement);
}
