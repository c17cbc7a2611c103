/** The blocks of a channel's pages, as the operator API and the channel file take them. */
import * as z from 'zod';

/**
 * A block of a page, as the elements read it (src/api/content-schemas.ts PageBlock): a paragraph of HTML (sanitized by
 * the elements), an image, or a static block: a `group:key` reference to the channel's settings' static_blocks.
 * Checked here, so that a block the site would skip is refused, naming its field.
 */
export const PageBlock = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('paragraph'), html: z.string().min(1).max(100_000) }),
  z.strictObject({ type: z.literal('image'), url: z.string().min(1).max(2000), alt: z.optional(z.string().max(500)) }),
  z.strictObject({
    type: z.literal('static-block'),
    ref: z.string().regex(/^[^:\s]+:[^:\s]+$/, "is a group:key reference to the settings' static_blocks"),
  }),
]);
