/**
 * The contract's schemas of the site's content pages: channel pages, the FAQ and custom forms, fetched by those pages
 * alone (the site's first render needs none of them). Re-exported by contract.ts, which the server and tests import.
 */
import * as z from 'zod/mini';
import { endpointTable, envelope, flag, id, list, num, obj, opt, text } from './schema-kit.js';
import { Message } from './channel-schemas.js';

/**
 * A content block of a page: paragraph (HTML, sanitized by the client), image, or static-block reference. (Each
 * type is a one-value enum rather than a literal: the same check, and zod's literal type stays out of the code every
 * page loads.)
 */
export const PageBlock = z.union([
  obj({ type: z.enum(['paragraph']), html: text }),
  obj({ type: z.enum(['image']), url: text, alt: opt(z.string(), '') }),
  obj({ type: z.enum(['static-block']), ref: text }),
]);
export type PageBlock = z.infer<typeof PageBlock>;

/** `GET /pages/{alias}`. */
export const PageDetail = obj({ id: id, name: text, url: text, blocks: list(PageBlock) });
export type PageDetail = z.infer<typeof PageDetail>;

/** `GET /faq`: answers are HTML, sanitized by the client. */
export const Faq = obj({ id: id, question: text, answer: text });
export type Faq = z.infer<typeof Faq>;

/** `GET /custom-forms/{alias}` (404 tolerated, yields nothing). */
export const CustomForm = obj({
  alias: text,
  name: text,
  fields: list(
    obj({
      name: text,
      label: text,
      /** text, email, phone, textarea (anything else reads as text). */
      type: opt(z.string(), 'text'),
      required: opt(flag, false),
      /** Length bounds of the value, when the channel sets them. */
      min_length: opt(num),
      max_length: opt(num),
    }),
  ),
});
export type CustomForm = z.infer<typeof CustomForm>;

/** `POST /custom-forms/{alias}`: the values of a form's fields, by field name. */
export const FormSubmission = z.object({ values: z.record(z.string(), z.string()) });
export type FormSubmission = z.infer<typeof FormSubmission>;

// ---------------------------------------------------------------- endpoints

/** The content pages' calls: a channel page, the FAQ, a custom form and its submission. */
export const contentApi = endpointTable({
  page: { method: 'GET', path: 'pages/{alias}', keyless: true, response: envelope(PageDetail) },
  faq: { method: 'GET', path: 'faq', keyless: true, response: envelope(list(Faq)) },
  customForm: { method: 'GET', path: 'custom-forms/{alias}', keyless: false, response: envelope(CustomForm) },
  /**
   * `{ values: { [field name]: value } }` (FormSubmission): stores a filled-in custom form and sends it to the
   * channel; 422 with `errors` by field name when a value breaks the form's rules.
   */
  submitForm: { method: 'POST', path: 'custom-forms/{alias}', keyless: false, response: envelope(Message) },
});
