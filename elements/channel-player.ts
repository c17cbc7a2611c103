/** `<channel-player>`: live and on-demand playback with access control, prerolls and recovery. */
import { Player } from '../src/components/player/Player.js';
import { PLAYER_PROPS } from '../src/components/player/attributes.js';
import { applyConfig } from '../src/start.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * @attr event-id - the event to play (digits)
 * @attr vod-id - or a video-on-demand library item (digits)
 * @attr autoplay - start at once (muted when the browser requires it)
 * @attr muted - start muted
 * @attr embed - the plain /watch_embed layout: video only, no header
 * @attr prefer-playback - native | mse (hls.js even where the browser plays HLS itself)
 * @fires channel-login-request - a guest asked to sign in to watch (detail.reason, detail.eventId)
 * @fires channel-purchase-request - a paywall offer was chosen (detail.eventId, detail.offer {type, id, packageId})
 * @csspart player, header, title, badge, badge-live, stage, video, poster, loading, error, message, geo-blocked,
 *   no-recording, sign-in, countdown, countdown-clock, paywall, offers, offer, offer-price, offer-button, button,
 *   play, retry, unmute, download, actions, ad-label, reconnecting, playback-error, denied, notice
 * @cssprop --channel-accent, --channel-radius, --channel-player-background, --channel-live
 */
export const createPlayerElement = () => makeElement(Player, PLAYER_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  defineOnce('channel-player', createPlayerElement);
}
