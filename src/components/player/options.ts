/** What a player view shows and how: its typed options, whoever builds them (the tag's attributes, a site page). */
import type { PlayerTarget } from '../../stores/player.js';

/** What a player view shows and how. */
export interface PlayerOptions {
  /** The item to play; none: the view says there is nothing to play. */
  target?: PlayerTarget | undefined;
  autoplay: boolean;
  muted: boolean;
  /** The plain /watch_embed layout: the stage only, no header. */
  embed: boolean;
  /** The playback engine: the browser's own HLS where it has it (default), or hls.js ('mse') even then. */
  prefer?: 'native' | 'mse' | undefined;
}
