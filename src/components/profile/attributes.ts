/**
 * `<channel-profile>` attributes: names (listed once) and parsing into the view's options. A bad value is ignored
 * with a notice (see `useAttributes`), never a crash.
 */
import { AttributeReader, type Parsed } from '../ui/attributes.js';
import { PROFILE_SECTIONS, type ProfileOptions } from './options.js';

/** Attribute names of `<channel-profile>` as r2wc props. */
export const PROFILE_PROPS = ['section', 'lang'] as const;

/** Raw attribute values. */
export type ProfileProps = Partial<Record<(typeof PROFILE_PROPS)[number], string>>;

/** Parses the attributes: `section` (default `orders`; blank is the default too, without a notice). */
export function parseProfileProps(props: ProfileProps): Parsed<ProfileOptions> {
  const read = new AttributeReader();
  const section = props.section?.trim() ? props.section : undefined;
  return read.done({ section: read.pick('section', section, PROFILE_SECTIONS, 'orders') });
}
