/**
 * `<channel-profile>` attributes: names (listed once) and parsing. A bad value is ignored with a notice (shown
 * translated in the element, and as an English console warning), never a crash.
 */
import type { AttributeNotice } from '../ui/attributes.js';

/** Attribute names of `<channel-profile>` as r2wc props. */
export const PROFILE_PROPS = ['section', 'lang'] as const;

/** Raw attribute values. */
export type ProfileProps = Partial<Record<(typeof PROFILE_PROPS)[number], string>>;

/** The sections of a signed-in profile, in tab order. */
export const PROFILE_SECTIONS = ['orders', 'transactions', 'clips', 'favourites', 'devices', 'edit'] as const;
/** One section. */
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

/** Parses the attributes: `section` (default `orders`). */
export function parseProfileProps(props: ProfileProps): { section: ProfileSection; notices: AttributeNotice[] } {
  const notices: AttributeNotice[] = [];
  const raw = props.section?.trim().toLowerCase();
  let section: ProfileSection = 'orders';
  if (raw) {
    const known = PROFILE_SECTIONS.find((s) => s === raw);
    if (known) section = known;
    else notices.push({ name: 'section', value: props.section!, expected: PROFILE_SECTIONS.join(', ') });
  }
  return { section, notices };
}
