/**
 * The channel's static blocks (the `static_blocks` setting): how a settings text reads (an email, a web address or
 * plain text), `group:key` references of content pages, and the contact details. Shared by the site's footer and its
 * content pages, so it stays apart from the content store.
 */
import { EMAIL_PATTERN, type Settings } from '../../api/channel-schemas.js';
import { env } from '../../lib/env.js';

/** A static block's value and how to show it. */
export interface StaticValue {
  value: string;
  kind: 'email' | 'url' | 'text';
}

const warned = new Set<string>();

/** How a settings text reads: an email address, a web address, or plain text. */
export function staticValue(value: string): StaticValue {
  const trimmed = value.trim();
  if (EMAIL_PATTERN.test(trimmed)) return { value: trimmed, kind: 'email' };
  if (/^https?:\/\/[^\s]+$/i.test(trimmed)) return { value: trimmed, kind: 'url' };
  return { value, kind: 'text' };
}

/**
 * The value of a `group:key` reference into the `static_blocks` setting, or undefined when there is none (the
 * page then skips the block; developers get one console line per reference).
 */
export function resolveStaticBlock(ref: string, settings: Settings | undefined): StaticValue | undefined {
  const parts = ref.split(':');
  const [group, key] = parts;
  const value = parts.length === 2 && group && key ? settings?.static_blocks?.[group]?.[key] : undefined;
  if (value !== undefined && value.trim() !== '') return staticValue(value);
  if (!warned.has(ref)) {
    warned.add(ref);
    env().logger.warn(
      `channel-elements: a page refers to the static block "${ref}", which the channel's static_blocks setting ` +
        'does not have. Add it to the settings (as group:key) or remove the block from the page.',
    );
  }
  return undefined;
}

/** The channel's contact details (`static_blocks.contacts`: email, phone, address and any others), in order. */
export function contactDetails(settings: Settings | undefined): [string, StaticValue][] {
  const contacts = settings?.static_blocks?.contacts ?? {};
  return Object.entries(contacts)
    .filter(([, value]) => value.trim() !== '')
    .map(([key, value]) => [key, key === 'phone' ? { value: value.trim(), kind: 'text' } : staticValue(value)]);
}
