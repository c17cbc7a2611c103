/** `<channel-player>`: live and on-demand playback with access control, prerolls and recovery. */
import { Player } from '../src/components/player/Player.js';
import { takeEarlyRoot } from '../src/lib/early-video.js';
import { PLAYER_PROPS } from '../src/components/player/attributes.js';
import { withMediaApi } from '../src/media/element-api.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/port.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * The element class. Its attributes, events, slots, parts and custom properties are written in elements/surface.ts
 * (the generated reference: elements/README.md).
 */
export const createPlayerElement = (): CustomElementConstructor => {
  const Base = withMediaApi(makeElement(Player, PLAYER_PROPS)) as unknown as { new (): HTMLElement };
  /**
   * The loader may have given the player a shadow root already, with its early video playing in it
   * (src/lib/early-video.ts): the element renders into that root, where the stage adopts the video. This tag alone.
   */
  class ChannelPlayerElement extends Base {
    override attachShadow(init: ShadowRootInit): ShadowRoot {
      return takeEarlyRoot(this) ?? super.attachShadow(init);
    }
  }
  return ChannelPlayerElement as unknown as CustomElementConstructor;
};

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-player');
  defineOnce('channel-player', createPlayerElement);
}
