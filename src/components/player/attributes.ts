/**
 * `<channel-player>` attributes: names (listed once) and parsing. A bad value is ignored with a notice (shown
 * translated in the element, and as an English console warning), never a crash.
 */
import type { PlayerTarget } from '../../stores/player.js';
import { boolAttr, type AttributeNotice } from '../ui/attributes.js';

/** Attribute names of `<channel-player>` as r2wc props (camelCase; r2wc maps them to kebab-case). */
export const PLAYER_PROPS = ['eventId', 'vodId', 'autoplay', 'muted', 'embed', 'preferPlayback', 'lang'] as const;

/** Raw attribute values. */
export type PlayerProps = Partial<Record<(typeof PLAYER_PROPS)[number], string>>;

/** Parsed, safe values. */
export interface PlayerOptions {
  target?: PlayerTarget | undefined;
  autoplay: boolean;
  muted: boolean;
  embed: boolean;
  prefer?: 'native' | 'mse' | undefined;
}

const ID = /^\d{1,12}$/;

/** Parses the attributes; ignored values come back as notices. */
export function parsePlayerProps(props: PlayerProps): { options: PlayerOptions; notices: AttributeNotice[] } {
  const notices: AttributeNotice[] = [];
  const id = (name: string, value: string | undefined): string | undefined => {
    const v = value?.trim();
    if (!v) return undefined;
    if (ID.test(v)) return v;
    notices.push({ name, value: v, expected: 'digits only' });
    return undefined;
  };
  const eventId = id('event-id', props.eventId);
  const vodId = id('vod-id', props.vodId);
  let prefer: PlayerOptions['prefer'];
  const p = props.preferPlayback?.trim().toLowerCase();
  if (p === 'native' || p === 'mse') prefer = p;
  else if (p) notices.push({ name: 'prefer-playback', value: props.preferPlayback!, expected: 'native or mse' });
  return {
    options: {
      target: eventId ? { kind: 'event', id: eventId } : vodId ? { kind: 'vod', id: vodId } : undefined,
      autoplay: boolAttr(props.autoplay),
      muted: boolAttr(props.muted),
      embed: boolAttr(props.embed),
      prefer,
    },
    notices,
  };
}
