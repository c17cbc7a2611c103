/**
 * The contract's schemas of the site's frame and home page: the menu, the pages list, slides and the home page's
 * events (the content pages' are in content-schemas.ts). Re-exported by contract.ts, which the server and tests
 * import.
 */
import * as z from 'zod/mini';
import { endpointTable, envelope, id, maybeText, text } from './schema-kit.js';
import { Event } from './channel-schemas.js';

/** One entry of the channel menu; group entries carry a participant-group alias. */
export const MenuItem = z.object({
  id: id,
  name: text,
  alias: maybeText,
  url: maybeText,
  custom_icon: maybeText,
  type: z._default(z.string(), 'link'),
  items: z.optional(
    z.array(z.object({ id: id, name: text, alias: maybeText, url: maybeText, custom_icon: maybeText })),
  ),
});
export type MenuItem = z.infer<typeof MenuItem>;

/** A content page as listed by `GET /pages`. */
export const Page = z.object({ id: id, name: text, alt_name: maybeText, url: text });
export type Page = z.infer<typeof Page>;

/** `GET /slides/web`. A slide without a type belongs to main. */
export const Slide = z.object({
  id: id,
  title: maybeText,
  image: maybeText,
  link: maybeText,
  slidable_type: z._default(z.nullable(z.string()), 'main'),
  slidable_id: z.optional(z.nullable(id)),
});
export type Slide = z.infer<typeof Slide>;

/** `GET /events-for-homepage`. */
export const HomepageEvents = z.object({
  live: z.array(Event),
  upcoming: z.array(Event),
  finished: z.array(Event),
});
export type HomepageEvents = z.infer<typeof HomepageEvents>;

// ---------------------------------------------------------------- endpoints

/** The site's calls for its frame and home page: menu, pages list, slides and the home page's events. */
export const siteApi = endpointTable({
  menu: { method: 'GET', path: 'menu', keyless: true, response: envelope(z.array(MenuItem)) },
  pages: { method: 'GET', path: 'pages', keyless: true, response: envelope(z.array(Page)) },
  homepageEvents: {
    method: 'GET',
    path: 'events-for-homepage',
    keyless: false,
    response: envelope(HomepageEvents),
  },
  slides: { method: 'GET', path: 'slides/web', keyless: true, response: envelope(z.array(Slide)) },
});
