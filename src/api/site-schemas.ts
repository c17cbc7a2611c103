/**
 * The contract's schemas of the site's pages: the menu, content pages, the FAQ, slides, custom forms and the home
 * page's events. Re-exported by contract.ts, which callers import.
 */
import * as z from 'zod/mini';
import { endpointTable, envelope, flag, id, maybeText, text } from './schema-kit.js';
import { Event, Message } from './channel-schemas.js';

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

/** A content block of a page: paragraph (HTML, sanitized by the client), image, or static-block reference. */
export const PageBlock = z.union([
  z.object({ type: z.literal('paragraph'), html: text }),
  z.object({ type: z.literal('image'), url: text, alt: z._default(z.string(), '') }),
  z.object({ type: z.literal('static-block'), ref: text }),
]);
export type PageBlock = z.infer<typeof PageBlock>;

/** `GET /pages/{alias}`. */
export const PageDetail = z.object({ id: id, name: text, url: text, blocks: z.array(PageBlock) });
export type PageDetail = z.infer<typeof PageDetail>;

/** `GET /faq`: answers are HTML, sanitized by the client. */
export const Faq = z.object({ id: id, question: text, answer: text });
export type Faq = z.infer<typeof Faq>;

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

/** `GET /custom-forms/{alias}` (404 tolerated, yields nothing). */
export const CustomForm = z.object({
  alias: text,
  name: text,
  fields: z.array(
    z.object({
      name: text,
      label: text,
      /** text, email, phone, textarea (anything else reads as text). */
      type: z._default(z.string(), 'text'),
      required: z._default(flag, false),
      /** Length bounds of the value, when the channel sets them. */
      min_length: z.optional(z.nullable(z.number())),
      max_length: z.optional(z.nullable(z.number())),
    }),
  ),
});
export type CustomForm = z.infer<typeof CustomForm>;

/** `POST /custom-forms/{alias}`: the values of a form's fields, by field name. */
export const FormSubmission = z.object({ values: z.record(z.string(), z.string()) });
export type FormSubmission = z.infer<typeof FormSubmission>;

/** `GET /events-for-homepage`. */
export const HomepageEvents = z.object({
  live: z.array(Event),
  upcoming: z.array(Event),
  finished: z.array(Event),
});
export type HomepageEvents = z.infer<typeof HomepageEvents>;

// ---------------------------------------------------------------- endpoints

/** The site's calls: menu, pages, FAQ, slides, custom forms and the home page's events. */
export const siteApi = endpointTable({
  menu: { method: 'GET', path: 'menu', keyless: true, response: envelope(z.array(MenuItem)) },
  pages: { method: 'GET', path: 'pages', keyless: true, response: envelope(z.array(Page)) },
  page: { method: 'GET', path: 'pages/{alias}', keyless: true, response: envelope(PageDetail) },
  homepageEvents: {
    method: 'GET',
    path: 'events-for-homepage',
    keyless: false,
    response: envelope(HomepageEvents),
  },
  faq: { method: 'GET', path: 'faq', keyless: true, response: envelope(z.array(Faq)) },
  slides: { method: 'GET', path: 'slides/web', keyless: true, response: envelope(z.array(Slide)) },
  customForm: { method: 'GET', path: 'custom-forms/{alias}', keyless: false, response: envelope(CustomForm) },
  /**
   * `{ values: { [field name]: value } }` (FormSubmission): stores a filled-in custom form and sends it to the
   * channel; 422 with `errors` by field name when a value breaks the form's rules.
   */
  submitForm: { method: 'POST', path: 'custom-forms/{alias}', keyless: false, response: envelope(Message) },
});
