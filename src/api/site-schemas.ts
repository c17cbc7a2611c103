/**
 * The contract's schemas of the site's frame and home page: the menu, the pages list, slides and the home page's
 * events (the content pages' are in content-schemas.ts). Re-exported by contract.ts, which the server and tests
 * import.
 */
import * as z from 'zod/mini';
import { endpointTable, envelope, id, list, maybeText, obj, opt, text } from './schema-kit.js';
import { Event } from './channel-schemas.js';

/** One entry of the channel menu; group entries carry a participant-group alias. */
export const MenuItem = obj({
  id: id,
  name: text,
  alias: maybeText,
  url: maybeText,
  custom_icon: maybeText,
  type: opt(z.string(), 'link'),
  items: opt(list(obj({ id: id, name: text, alias: maybeText, url: maybeText, custom_icon: maybeText }))),
});
export type MenuItem = z.infer<typeof MenuItem>;

/** A content page as listed by `GET /pages`. */
export const Page = obj({ id: id, name: text, alt_name: maybeText, url: text });
export type Page = z.infer<typeof Page>;

/** `GET /slides/web`. A slide without a type belongs to main. */
export const Slide = obj({
  id: id,
  title: maybeText,
  image: maybeText,
  link: maybeText,
  slidable_type: opt(z.string(), 'main'),
  slidable_id: opt(id),
});
export type Slide = z.infer<typeof Slide>;

/** `GET /events-for-homepage`. */
export const HomepageEvents = obj({
  live: opt(list(Event), []),
  upcoming: opt(list(Event), []),
  finished: opt(list(Event), []),
});
export type HomepageEvents = z.infer<typeof HomepageEvents>;

// ---------------------------------------------------------------- endpoints

/** The site's calls for its frame and home page: menu, pages list, slides and the home page's events. */
export const siteApi = endpointTable({
  menu: { method: 'GET', path: 'menu', keyless: true, response: envelope(list(MenuItem)) },
  pages: { method: 'GET', path: 'pages', keyless: true, response: envelope(list(Page)) },
  homepageEvents: {
    method: 'GET',
    path: 'events-for-homepage',
    keyless: false,
    response: envelope(HomepageEvents),
  },
  slides: { method: 'GET', path: 'slides/web', keyless: true, response: envelope(list(Slide)) },
});
