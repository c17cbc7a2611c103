/**
 * The site's content: channel pages by alias (`GET pages/{alias}`), the FAQ, custom forms with their local rules
 * and their submission (static blocks: static-blocks.ts). Each answer is kept for the session (until the
 * channel changes), so going back to a page shows it at once.
 */
import { atom, type ReadableAtom, type WritableAtom } from 'nanostores';
import { EMAIL_PATTERN } from '../../api/channel-schemas.js';
import { contentApi, type CustomForm, type Faq, type PageDetail } from '../../api/content-schemas.js';
import { HttpError } from '../../api/errors.js';
import { failed, IDLE, LOADING, ready, type Async } from '../../lib/async.js';
import type { Failure, Msg } from '../account/messages.js';
import { attempt, done, once, refuse, type Outcome } from '../account/outcome.js';
import { formsMsg } from '../account/validation.js';
import { $config } from '../config.js';
import { getClient } from '../session.js';

/** Something loaded by key; `null` when the channel does not have it (the API answered 404). */
export type Found<T> = Async<T | null>;

interface Keyed<T> {
  $of(key: string): ReadableAtom<Found<T>>;
  load(key: string): Promise<void>;
}

/** A per-key cache of one endpoint: loads once, again only after a failure (Retry). */
function keyed<T>(fetchOne: (key: string) => Promise<T>): Keyed<T> {
  let atoms = new Map<string, WritableAtom<Found<T>>>();
  $config.listen(() => {
    atoms = new Map();
  });
  const of = (key: string) => {
    let state = atoms.get(key);
    if (!state) {
      state = atom<Found<T>>(IDLE);
      atoms.set(key, state);
    }
    return state;
  };
  return {
    $of: of,
    async load(key) {
      const state = of(key);
      const status = state.get().status;
      if (status === 'loading' || status === 'ready') return;
      state.set(LOADING);
      try {
        state.set(ready(await fetchOne(key)));
      } catch (error) {
        state.set(error instanceof HttpError && error.status === 404 ? ready(null) : failed(error));
      }
    },
  };
}

const pages = keyed<PageDetail>(
  async (alias) => (await getClient().call(contentApi.page, { params: { alias }, skipLog: [404] })).data,
);
const faqs = keyed<Faq[]>(async () => (await getClient().call(contentApi.faq)).data);
const forms = keyed<CustomForm>(
  async (alias) => (await getClient().call(contentApi.customForm, { params: { alias }, skipLog: [404] })).data,
);

/** The API alias of a page url: the url without its slashes at either end (`/about` -> `about`). */
export function pageAlias(url: string): string {
  return url.replace(/^\/+|\/+$/g, '');
}

/** A channel page's state (null: the channel has no such page). */
export const $page = (alias: string): ReadableAtom<Found<PageDetail>> => pages.$of(alias);
/** Loads a channel page unless it is loaded or loading. */
export const loadPage = (alias: string): Promise<void> => pages.load(alias);

const FAQ = 'faq';
/** The FAQ's state (null: the channel has none). */
export const $faq = (): ReadableAtom<Found<Faq[]>> => faqs.$of(FAQ);
/** Loads the FAQ unless it is loaded or loading. */
export const loadFaq = (): Promise<void> => faqs.load(FAQ);

/** A custom form's state (null: the channel has no form of that alias). */
export const $customForm = (alias: string): ReadableAtom<Found<CustomForm>> => forms.$of(alias);
/** Loads a custom form unless it is loaded or loading. */
export const loadCustomForm = (alias: string): Promise<void> => forms.load(alias);

// ---------------------------------------------------------------- custom forms

/** A custom form's field as the form describes it. */
export type FormField = CustomForm['fields'][number];

/**
 * What a phone number may be made of (the spec's rule): an optional leading plus, then digits, spaces, dots, dashes
 * and round or square brackets in any order (`+1 (555) 010-2000`, `(555)0102000`, `[555] 0102000`); brackets are
 * not checked for pairs. `isPhone` adds the count: 10 to 14 digits.
 */
const PHONE_SHAPE = /^\+?[\d\s().[\]-]+$/;

/** True for a phone number the spec accepts. */
export function isPhone(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return PHONE_SHAPE.test(value) && digits >= 10 && digits <= 14;
}

/** The first rule a field's value breaks, or undefined. */
export function checkField(field: FormField, raw: string): Msg | undefined {
  const value = raw.trim();
  if (!value) return field.required ? formsMsg('validation.required') : undefined;
  if (field.type === 'email' && !EMAIL_PATTERN.test(value)) return formsMsg('validation.email');
  if (field.type === 'phone' && !isPhone(value)) return formsMsg('validation.phone');
  // The spec's texts say "greater than" and "less than": the numbers are the last lengths refused, so the message
  // agrees with the rule at its bounds (min_length 2: "greater than 1"; max_length 40: "less than 41").
  if (field.min_length && value.length < field.min_length)
    return formsMsg('validation.minLength', { number: field.min_length - 1 });
  if (field.max_length && value.length > field.max_length)
    return formsMsg('validation.maxLength', { number: field.max_length + 1 });
  return undefined;
}

/** The messages of every field in error. */
export function validateForm(form: CustomForm, values: Record<string, string>): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  for (const field of form.fields) {
    const problem = checkField(field, values[field.name] ?? '');
    if (problem) fields[field.name] = problem;
  }
  return fields;
}

/** The server's rule texts (422) that have a translation of their own. */
const RULE_TEXTS: [RegExp, (match: RegExpExecArray) => Msg][] = [
  // Most specific first: "A valid email address is required" is an email rule, not the required one.
  [/valid email/i, () => formsMsg('validation.email')],
  [/phone number|\bdigits\b/i, () => formsMsg('validation.phone')],
  // "Greater than N" and "less than N" name the last length refused; "at least N" and "at most N" the first and last
  // accepted, said the spec's way (N - 1, N + 1), as the client's own check says them.
  [
    /greater than (\d+)|at least (\d+)/i,
    (m) => formsMsg('validation.minLength', { number: m[1] ? Number(m[1]) : Number(m[2]) - 1 }),
  ],
  [
    /less than (\d+)|at most (\d+)|more than (\d+)/i,
    (m) => formsMsg('validation.maxLength', { number: m[1] ? Number(m[1]) : Number(m[2] ?? m[3]) + 1 }),
  ],
  [/\brequired\b/i, () => formsMsg('validation.required')],
];

/** A 422's field messages in the viewer's language where the server's text is one of the known rules. */
function translateRules(failure: Failure): Failure {
  const fields: Record<string, Msg> = {};
  for (const [name, msg] of Object.entries(failure.fields)) {
    const text = msg.key === 'forms:account.server.raw' ? String(msg.values?.text ?? '') : '';
    const rule = RULE_TEXTS.map(([pattern, make]) => [pattern.exec(text), make] as const).find(([m]) => m);
    fields[name] = rule?.[0] ? rule[1](rule[0]) : msg;
  }
  return { ...failure, fields };
}

/**
 * Sends a filled-in custom form (`POST custom-forms/{alias}`) after checking it locally: a broken rule answers its
 * field messages and sends nothing; a 422 answers the server's messages by field; a network fault the generic one.
 */
export function submitForm(form: CustomForm, values: Record<string, string>): Promise<Outcome<void>> {
  const local = refuse(validateForm(form, values));
  if (local) return Promise.resolve(local);
  const body = {
    values: Object.fromEntries(form.fields.map((field) => [field.name, (values[field.name] ?? '').trim()])),
  };
  return once(`custom-form:${form.alias}`, async () => {
    const outcome = await attempt(() =>
      getClient().call(contentApi.submitForm, { params: { alias: form.alias }, body }),
    );
    return outcome.ok ? done(undefined) : { ok: false, failure: translateRules(outcome.failure) };
  });
}
