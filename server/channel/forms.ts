/**
 * Custom forms filled in by viewers (the site's contacts form, `POST custom-forms/{alias}`): each value is checked
 * against its field's rules with the spec's messages, the submission is stored and emailed to the channel's contact
 * address (settings `static_blocks.contacts.email`, in the channel's language, replies going to the viewer), with a
 * copy to the viewer (the signed-in account's address, else the form's email field; at most COPIES_PER_HOUR an
 * hour to one address, so the form cannot be used to flood someone's inbox). Bounded: values by size, submissions
 * per client address by a rate limit, stored submissions per channel by a cap.
 */
import type { ChannelDb } from '../storage/db.js';
import { INVALID, isEmail, EMAIL_MESSAGE, type ApiRequest, type HandlerResult } from '../http/handler.js';
import { addressKey, HttpError, tooMany } from '../http/http.js';
import type { RateLimiter } from '../http/limits.js';
import { languageOf, type Mailer } from '../mail/mail.js';

/** Submissions one client address may send per window (see server.ts). */
export const FORM_SUBMISSIONS_PER_ADDRESS = 10;
export const FORM_SUBMISSIONS_WINDOW_MS = 10 * 60_000;
/** The longest value of one field, and of all of them together. */
export const MAX_FIELD_CHARS = 5_000;
const MAX_TOTAL_CHARS = 20_000;
/** Stored submissions kept per channel (the oldest go first). */
export const MAX_SUBMISSIONS_PER_CHANNEL = 5_000;

/** Copies of the contact form one address receives per hour, at most. */
const COPIES_PER_HOUR = 3;

/** A phone number: 10 to 14 digits, an optional leading +, spaces, dots, dashes and brackets between. */
const PHONE = /^\+?[\d\s.()-]+$/;
const digits = (value: string) => value.replace(/\D/g, '').length;

interface Field {
  name: string;
  label: string;
  type?: string;
  required?: boolean | number;
  min_length?: number | null;
  max_length?: number | null;
}

/** The message of one value against its field's rules, or undefined when it passes. */
export function fieldError(field: Field, value: string): string | undefined {
  const text = value.trim();
  if (!text) return field.required ? 'Field is required' : undefined;
  if (text.length > MAX_FIELD_CHARS) return `Field length must be less than ${MAX_FIELD_CHARS + 1}`;
  if (field.type === 'email' && !isEmail(text)) return EMAIL_MESSAGE;
  if (field.type === 'phone' && (!PHONE.test(text) || digits(text) < 10 || digits(text) > 14))
    return 'A valid phone number is required';
  // "Greater than" and "less than" the last lengths refused: the text agrees with the rule at its bounds.
  if (field.min_length && text.length < field.min_length)
    return `Field length must be greater than ${field.min_length - 1}`;
  if (field.max_length && text.length > field.max_length)
    return `Field length must be less than ${field.max_length + 1}`;
  return undefined;
}

/** The submitForm handler, limited per client address by `limiter`. */
export function submitForm(db: ChannelDb, limiter: RateLimiter, mailer: Mailer) {
  return async (r: ApiRequest): Promise<HandlerResult> => {
    const alias = r.params.alias!;
    const row = await db.get('SELECT * FROM custom_forms WHERE channel_id = ? AND alias = ?', [r.channelId, alias]);
    if (!row) throw new HttpError(404, 'Form not found.');
    tooMany(await limiter.hit(addressKey(r.ip)));
    const fields = JSON.parse(String(row.fields_json)) as Field[];
    const given = r.body.values;
    if (typeof given !== 'object' || given === null || Array.isArray(given))
      throw new HttpError(422, INVALID, { values: ['The values field is required.'] });
    // Maps without a prototype: field names are the client's (`toString`, `__proto__` must be plain keys).
    const values = new Map<string, string>();
    const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
    const fail = (name: string, message: string) => (errors[name] ??= []).push(message);
    let total = 0;
    for (const [name, value] of Object.entries(given as Record<string, unknown>)) {
      if (!fields.some((f) => f.name === name)) fail(name, 'This form has no such field.');
      else if (typeof value !== 'string') fail(name, 'The value must be text.');
      else {
        values.set(name, value.trim());
        total += value.length;
      }
    }
    for (const field of fields) {
      const message = fieldError(field, values.get(field.name) ?? '');
      if (message) (errors[field.name] ??= []).push(message);
    }
    if (total > MAX_TOTAL_CHARS)
      (errors.values ??= []).push(`The form may hold at most ${MAX_TOTAL_CHARS} characters.`);
    if (Object.keys(errors).length) throw new HttpError(422, INVALID, errors);

    const now = r.clock.now;
    const user = (await r.access()).user;
    const to = r.settings().static_blocks?.contacts?.email;
    const emailField = fields.find((f) => f.type === 'email' && values.get(f.name));
    const viewer = user ? String(user.email) : emailField ? values.get(emailField.name) : undefined;
    // The submission and its emails are one write: all are kept, or none.
    await db.transaction(async () => {
      await db.run(
        'INSERT INTO form_submissions (channel_id, form_alias, values_json, user_id, ip, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        [r.channelId, alias, JSON.stringify(Object.fromEntries(values)), user ? Number(user.id) : null, r.ip, now],
      );
      await db.run(
        `DELETE FROM form_submissions WHERE channel_id = ? AND id <= (
         SELECT id FROM form_submissions WHERE channel_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
        [r.channelId, r.channelId, MAX_SUBMISSIONS_PER_CHANNEL],
      );
      // One line per field in the emails' text: a value's own line breaks are indented (layout.ts), so no value can
      // pass for another field.
      const filled = fields
        .filter((f) => values.get(f.name))
        .map((f) => ({ label: f.label, value: values.get(f.name)! }));
      const form = String(row.name);
      if (to)
        await mailer.send(
          { channelId: r.channelId, to, letter: { kind: 'contact', form, fields: filled }, replyTo: viewer },
          now,
        );
      if (viewer && (await copiesTo(db, r.channelId, viewer, now)) < COPIES_PER_HOUR)
        await mailer.send(
          {
            channelId: r.channelId,
            to: viewer,
            language: languageOf(user?.language),
            letter: { kind: 'contact-copy', form, fields: filled },
          },
          now,
        );
    });
    return { status: 201, body: { data: { message: 'Thank you: your message was sent.' } } };
  };
}

/** How many copies of the contact form an address was sent in the last hour. */
async function copiesTo(db: ChannelDb, channelId: number, address: string, now: number): Promise<number> {
  const row = await db.get(
    "SELECT count(*) AS n FROM outbox WHERE channel_id = ? AND kind = 'contact-copy' AND lower(to_email) = lower(?) AND queued_at > ?",
    [channelId, address, now - 3600],
  );
  return Number(row?.n ?? 0);
}
