/**
 * What the account actions say: messages as translation keys with their values, failures per field and for the
 * whole form, and the server's texts mapped to translated ones.
 */
import { ApiError, HttpError, TEMPORARY_PASSWORD_LOCK } from '../../api/errors.js';

/** A text to show: an i18n key (`forms:validation.email`, `errors.generic`) and its values. */
export interface Msg {
  key: string;
  values?: Record<string, string | number>;
}

/**
 * Why an action failed: messages per field (shown under that field), a message for the whole form (always
 * shown), and the server's own summary, shown only when no field of the form explains the failure.
 */
export interface Failure {
  fields: Record<string, Msg>;
  message?: Msg | undefined;
  fallback?: Msg | undefined;
}

/** Network faults, timeouts and answers this client cannot read. */
export const GENERIC: Msg = { key: 'errors.generic' };
/** The channel's server failed (a 5xx answer): 'Oops! We are currently experiencing technical difficulties'. */
export const TECHNICAL: Msg = { key: 'errors.technical' };
/** A refusal that says nothing (a 4xx answer without a message or field errors): 'Undefined error'. */
export const UNDEFINED: Msg = { key: 'errors.undefined' };

/** Known server messages (the API's standard texts and the reference server's own) and their translation keys. */
const SERVER_MESSAGES: [RegExp, string][] = [
  [/already (been )?(registered|taken)|email.*exists/i, 'forms:server.emailTaken'],
  [/^wrong auth data/i, 'forms:server.wrongAuth'],
  [/already logged in/i, 'forms:server.alreadyLoggedIn'],
  [/^verification failed/i, 'forms:server.verificationFailed'],
  [/^email already verified/i, 'forms:server.alreadyVerified'],
  [/^user not found/i, 'forms:server.userNotFound'],
  [/^reset password key expired/i, 'forms:server.resetExpired'],
  [/^reset password failed/i, 'forms:server.resetFailed'],
  [/promo code/i, 'forms:server.promoInvalid'],
  [/recaptcha token required/i, 'forms:server.recaptchaRequired'],
  [/recaptcha.*(invalid|robot)/i, 'forms:server.recaptchaInvalid'],
  [/^invalid email or password/i, 'forms:server.invalidLogin'],
  [/^no chanel or api key found/i, 'forms:server.noKey'],
  [/code is invalid or has expired/i, 'forms:account.server.codeInvalid'],
  [/device linking is not enabled/i, 'forms:account.server.devicesOff'],
  [/link to delete the account is invalid or has expired/i, 'forms:account.server.deletionLinkInvalid'],
  [/too many accounts were created from this address/i, 'forms:account.server.tooManyAccounts'],
  [/too many sign-ins at once/i, 'forms:account.server.busy'],
  [/current password field is required/i, 'forms:account.server.currentPasswordRequired'],
  [/current password is incorrect/i, 'forms:account.server.currentPasswordWrong'],
  [/social account shared no email address/i, 'forms:account.social.emailMissing'],
  [/email address of the social account is not verified/i, 'forms:account.social.emailUnverified'],
  // In the default namespace, not `forms`: elements without forms (player, schedule) show it too.
  [TEMPORARY_PASSWORD_LOCK, 'errors.temporaryPassword'],
  // Clips: the server's validation texts are the client's own; the rest are the `clips` namespace's.
  [/^field is required\.?$/i, 'forms:validation.required'],
  [/^please select tag/i, 'forms:validation.tag'],
  [/^please fill in the input field\.?$/i, 'forms:validation.input'],
  [/^your clip duration is longer than the end time/i, 'forms:validation.clipDuration'],
  [/^your clip creation failed/i, 'forms:server.clipFailed'],
  [/cannot make clips/i, 'clips:server.noClipping'],
  [/cannot download clips/i, 'clips:server.noDownload'],
  [/^the clip is not ready yet/i, 'clips:server.notReady'],
  [/^clip not found/i, 'clips:server.notFound'],
  [/^the event has not started yet: clips can be made/i, 'clips:server.notStarted'],
  [/^this event has no recording/i, 'clips:server.noRecording'],
  [/^clip making is busy/i, 'clips:server.busy'],
  [/^this channel cannot keep more clips/i, 'clips:server.full'],
];

/** Server texts of the clips that carry a number, to their keys and the name of the number's value. */
const NUMBERED_CLIP_MESSAGES: Array<[RegExp, string, string]> = [
  [/^the clip can be at most (\d+) seconds long/i, 'forms:validation.clipTooLong', 'max'],
  [/^the clip must be at least (\d+) seconds long/i, 'forms:validation.clipTooShort', 'min'],
  [/^choose at most (\d+) tags/i, 'forms:validation.clipTags', 'max'],
  [/^the name may be at most (\d+) characters long/i, 'clips:server.nameTooLong', 'max'],
  [/^a tag may be at most (\d+) characters long/i, 'clips:server.tagTooLong', 'max'],
  // `count` picks the singular or plural sentence.
  [/^you have made too many clips\. please try again in (\d+) minutes?/i, 'clips:server.tooMany', 'count'],
  [/^you can keep at most (\d+) clips/i, 'clips:server.keptMax', 'max'],
];

/** The text of a server message: translated when known, else the server's own words. */
export function serverText(text: string): Msg {
  const throttled = /too many login attempts.*?(\d+)\s*seconds?/i.exec(text);
  if (throttled) return { key: 'forms:account.server.throttled', values: { seconds: Number(throttled[1]) } };
  const locked = /account is locked after too many failed sign-ins.*?(\d+)\s*minutes?/i.exec(text);
  // `count` picks the singular or plural sentence (i18next's `_one` / `_other` keys).
  if (locked) return { key: 'forms:account.server.accountLocked', values: { count: Number(locked[1]) } };
  for (const [pattern, key, name] of NUMBERED_CLIP_MESSAGES) {
    const m = pattern.exec(text);
    if (m) return { key, values: { [name]: Number(m[1]) } };
  }
  for (const [pattern, key] of SERVER_MESSAGES) if (pattern.test(text)) return { key };
  return { key: 'forms:account.server.raw', values: { text } };
}

/**
 * An API failure as field and form messages. 422 bodies (`{ message, errors: { field: [text] } }`) give one
 * message per field and the form's, and a refusal without a message says 'Undefined error'; 401 means the session
 * ended (the session has reset the user); 429 is the throttling text; a 5xx the server's technical difficulties;
 * anything else (network, timeout, an answer this client cannot read) the generic text.
 */
export function failureOf(error: unknown): Failure {
  // The one 5xx with something to say: the server's sign-ins are queued full for a moment.
  if (error instanceof HttpError && error.status === 503 && /too many sign-ins at once/i.test(error.message)) {
    return { fields: {}, message: serverText(error.message) };
  }
  if (!(error instanceof HttpError)) return { fields: {}, message: GENERIC };
  if (error.status >= 500) return { fields: {}, message: TECHNICAL };
  if (error.status === 401) return { fields: {}, message: { key: 'forms:account.server.sessionEnded' } };
  if (error.status === 429) return { fields: {}, message: { key: 'errors.tooManyRequests' } };
  const fields: Record<string, Msg> = {};
  for (const [name, texts] of Object.entries(error.errors)) {
    const first = Array.isArray(texts) ? texts[0] : texts;
    if (first) fields[name] = serverText(first);
  }
  const summary = /^HTTP \d+$/.test(error.message) ? UNDEFINED : serverText(error.message);
  return Object.keys(fields).length ? { fields, fallback: summary } : { fields, message: summary };
}

/**
 * The message at the top of a form whose fields are `visible`: the failure's own message, else a field error
 * no visible field can show, else (when no visible field shows an error) the server's summary.
 */
export function formMessage(failure: Failure, visible: readonly string[]): Msg | undefined {
  if (failure.message) return failure.message;
  const unplaced = Object.entries(failure.fields).find(([name]) => !visible.includes(name));
  if (unplaced) return unplaced[1];
  return visible.some((name) => failure.fields[name]) ? undefined : (failure.fallback ?? GENERIC);
}

/** True when any message of a failure (the form's, the summary or a field's) has this key. */
export function mentions(failure: Failure, key: string): boolean {
  return [failure.message, failure.fallback, ...Object.values(failure.fields)].some((m) => m?.key === key);
}

/** The one message a failure shows where there is room for one (a list's error panel, a button's alert). */
export function headline(failure: Failure): Msg {
  return failure.message ?? failure.fallback ?? GENERIC;
}

/** What a panel says of a failure that is not an HTTP answer (a form says the generic line instead). */
const PANEL_KINDS: Partial<Record<ApiError['kind'], string>> = {
  network: 'errors.network',
  timeout: 'errors.timeout',
  'invalid-response': 'errors.invalidResponse',
  'no-api-key': 'errors.noApiKey',
};

/**
 * The reason a list's panel gives (docs/reliability-and-security.md: Errors and reports): a network fault, a timeout or an answer this
 * client cannot read says so, as every panel does; an HTTP answer reads as it does in a form.
 */
export function panelReason(error: unknown): Msg {
  const kind = error instanceof ApiError && !(error instanceof HttpError) ? PANEL_KINDS[error.kind] : undefined;
  return kind ? { key: kind } : headline(failureOf(error));
}
