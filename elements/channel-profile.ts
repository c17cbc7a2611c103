/** `<channel-profile>`: sign-in, registration, account links and the signed-in viewer's account. */
import { PROFILE_PROPS } from '../src/components/profile/attributes.js';
import { Profile } from '../src/components/profile/Profile.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/events.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * @attr section - orders (default: active orders) | transactions | clips | favourites | devices (only with the
 *   channel's auth.remote_auth, else orders) | edit
 * @attr lang - en | fr for this element only
 * @fires channel-login - after a sign-in here (detail.method: password | register | google | facebook)
 * @fires channel-logout - after a sign-out here, or after the signed-in account was deleted (detail {})
 * While connected, each element answers sign-in requests: from the other elements on the page, and the
 * `channel-login-request` events the host page fires (a guest: sign-in shown, scrolled into view, email field
 * focused).
 * @csspart profile, notice, loading, title, header, sign-out, verify-banner, tabs, tab, tab-selected, panel,
 *   sign-in, register, verify-notice, reset-request, reset-password, verify-email, confirm-deletion,
 *   social-callback, field, field-error, form-error, message, submit, button, continue, cancel, forgot,
 *   to-register, to-sign-in, social, social-google, social-facebook, resend, new-link, orders, order,
 *   order-status, subscription-status, auto-renewal, transactions, transaction, transaction-label,
 *   transaction-status, clips, clip, clip-state, clip-play, clip-outcome, clip-progress, clip-failed, clip-retry,
 *   clip-actions, clip-download, clip-copy, clip-copied, clip-link, clip-share, clip-delete, clip-confirm,
 *   clip-confirm-delete, clip-cancel, clip-error, clip-deleted,
 *   favourites-section (the favourites panel's own parts inside),
 *   devices, device-code, edit, temporary, email-state, capabilities, feature-counts, delete-account,
 *   confirm-delete, empty, error, retry
 * @cssprop --channel-accent, --channel-radius, --channel-error, --channel-error-background, --channel-success,
 *   --channel-success-background, --channel-warning, --channel-warning-background, --channel-input-background,
 *   --channel-input-text, --channel-card-background, --channel-profile-max-width
 */
export const createProfileElement = () => makeElement(Profile, PROFILE_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-profile');
  defineOnce('channel-profile', createProfileElement);
}
