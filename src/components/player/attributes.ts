/**
 * `<channel-player>` attributes: names (listed once) and their parsing into the view's options. A bad value is
 * ignored with a notice, never a crash (see `useAttributes`).
 */
import { UUID_PATTERN } from '../../lib/uuid.js';
import { AttributeReader, boolAttr, type Parsed } from '../ui/attributes.js';
import type { PlayerOptions } from './options.js';

/** Attribute names of `<channel-player>` as r2wc props (camelCase; r2wc maps them to kebab-case). */
export const PLAYER_PROPS = [
  'eventId',
  'vodId',
  'clipId',
  'share',
  'autoplay',
  'muted',
  'embed',
  'preferPlayback',
  'lang',
] as const;

/** Raw attribute values. */
export type PlayerProps = Partial<Record<(typeof PLAYER_PROPS)[number], string>>;

/** Parses the attributes; ignored values come back as notices. */
export function parsePlayerProps(props: PlayerProps): Parsed<PlayerOptions> {
  const read = new AttributeReader();
  const eventId = read.id('event-id', props.eventId);
  const vodId = read.id('vod-id', props.vodId);
  const clipId = read.id('clip-id', props.clipId);
  const share = shareId(read, props.share, clipId);
  return read.done({
    target: eventId
      ? { kind: 'event', id: eventId }
      : vodId
        ? { kind: 'vod', id: vodId }
        : clipId
          ? { kind: 'clip', id: clipId, uuid: share }
          : undefined,
    autoplay: boolAttr(props.autoplay),
    muted: boolAttr(props.muted),
    embed: boolAttr(props.embed),
    prefer: engine(read, props.preferPlayback),
  });
}

/** `share`: a clip's share id (a UUID), which only means something with a `clip-id`. */
function shareId(read: AttributeReader, value: string | undefined, clipId: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (!UUID_PATTERN.test(v)) return read.ignore('share', v, "the clip's share id (a UUID)");
  return clipId ? v : read.ignore('share', v, 'a clip-id next to it');
}

/** `prefer-playback`: absent or blank is the default (undefined: the browser's own engine where it has one). */
function engine(read: AttributeReader, value: string | undefined): PlayerOptions['prefer'] {
  const v = value?.trim().toLowerCase();
  if (!v) return undefined;
  if (v === 'native' || v === 'mse') return v;
  // `pick` would list the values as "native, mse"; the notice has always said "native or mse".
  return read.ignore('prefer-playback', value!, 'native or mse');
}
