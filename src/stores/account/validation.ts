/**
 * The forms of the account actions and their local rules: when a rule fails, the field says why and nothing is sent.
 */
import { EMAIL_PATTERN, type User } from '../../api/channel-schemas.js';
import type { Msg } from './messages.js';

/** The shortest password accepted for a new password. */
export const MIN_PASSWORD = 8;
/** A device code as TVs show it: 6 characters, A to Z and 2 to 9. */
export const DEVICE_CODE = /^[A-Z2-9]{6}$/;

/** A message of the `forms` namespace. */
export const formsMsg = (key: string, values?: Msg['values']): Msg =>
  values ? { key: `forms:${key}`, values } : { key: `forms:${key}` };

/** Checks an email field: present and shaped like an address. */
export function checkEmail(fields: Record<string, Msg>, email: string): void {
  if (!email.trim()) fields.email = formsMsg('validation.emailEnter');
  else if (!EMAIL_PATTERN.test(email.trim())) fields.email = formsMsg('validation.email');
}

/** True when two emails name the same account (case and surrounding spaces do not matter). */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A new password and its confirmation: required (unless optional and both empty), long enough, matching. */
function checkNewPassword(
  fields: Record<string, Msg>,
  password: string,
  confirmation: string,
  required: boolean,
): void {
  if (!password && !confirmation && !required) return;
  if (!password) fields.password = formsMsg('validation.required');
  else if (password.length < MIN_PASSWORD) fields.password = formsMsg('validation.passwordShort');
  if (!confirmation) fields.password_confirmation = formsMsg('validation.required');
  else if (password && confirmation !== password)
    fields.password_confirmation = formsMsg('validation.passwordMismatch');
}

function checkNames(fields: Record<string, Msg>, input: { first_name: string; last_name: string }): void {
  if (!input.first_name.trim()) fields.first_name = formsMsg('validation.firstName');
  if (!input.last_name.trim()) fields.last_name = formsMsg('validation.lastName');
}

/** The sign-in form. */
export interface LoginInput {
  email: string;
  password: string;
}

/** Checks the sign-in form. */
export function validateLogin(input: LoginInput): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  checkEmail(fields, input.email);
  if (!input.password) fields.password = formsMsg('validation.required');
  return fields;
}

/** The registration form. */
export interface RegisterInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirmation: string;
  terms: boolean;
  news: boolean;
}

/** Checks the registration form. */
export function validateRegister(input: RegisterInput): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  checkNames(fields, input);
  checkEmail(fields, input.email);
  checkNewPassword(fields, input.password, input.password_confirmation, true);
  if (!input.terms) fields.terms = formsMsg('validation.terms');
  return fields;
}

/** The new-password form of a reset link. */
export interface ResetInput {
  email: string;
  token: string;
  password: string;
  password_confirmation: string;
}

/** Checks the new-password form. */
export function validateReset(input: ResetInput): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  checkNewPassword(fields, input.password, input.password_confirmation, true);
  return fields;
}

/** Gender codes of the edit form: '' is "not identified". */
export type GenderCode = '' | 'M' | 'W';

/** The edit-profile form. */
export interface ProfileInput {
  first_name: string;
  last_name: string;
  gender: GenderCode;
  news: boolean;
  /** The password in use, asked for (and sent) only with a new password. */
  current_password: string;
  password: string;
  password_confirmation: string;
}

/** The edit form filled from a user. */
export function profileInput(user: User): ProfileInput {
  return {
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    gender: user.gender ?? '',
    news: user.news,
    current_password: '',
    password: '',
    password_confirmation: '',
  };
}

/**
 * True when a new password must come with the current one: the account has a password (a temporary one
 * too, which the viewer types as the current one). A social-only account sets its first password without.
 */
export function needsCurrentPassword(user: Pick<User, 'has_password' | 'temporary_password'>): boolean {
  return user.has_password || user.temporary_password;
}

/**
 * Checks the edit form for `user`: one with a temporary password must choose a new one, and a new password
 * (being typed, or required) needs the current one when the account has a password.
 */
export function validateProfile(
  input: ProfileInput,
  user: Pick<User, 'has_password' | 'temporary_password'>,
): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  checkNames(fields, input);
  checkNewPassword(fields, input.password, input.password_confirmation, user.temporary_password);
  const changing = user.temporary_password || Boolean(input.password || input.password_confirmation);
  if (changing && needsCurrentPassword(user) && !input.current_password)
    fields.current_password = formsMsg('validation.required');
  return fields;
}

/** A typed device code as sent: upper case, without spaces or dashes. */
export function normalizeDeviceCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

/** Checks a device code (already normalized). */
export function validateDeviceCode(code: string): Record<string, Msg> {
  if (!code) return { code: formsMsg('validation.required') };
  return DEVICE_CODE.test(code) ? {} : { code: formsMsg('account.devices.invalid') };
}
