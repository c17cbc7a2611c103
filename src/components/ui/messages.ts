/** Turns errors into translated text for users. */
import { ApiError, ConfigError, HttpError, TEMPORARY_PASSWORD_LOCK } from '../../api/errors.js';
import type { TFunction } from '../../i18n/index.js';

/**
 * The translated sentence for an error of the API layer (or anything else thrown): the server's failure (5xx) is
 * 'Oops! We are currently experiencing technical difficulties', a refusal without a message and anything thrown
 * that is not an API error 'Undefined error', other refusals the generic text.
 */
export function errorText(error: unknown, t: TFunction): string {
  if (error instanceof ConfigError) {
    return /unknown/i.test(error.message) ? t('errors.unknownChannel') : t('errors.config');
  }
  if (error instanceof HttpError) {
    if (error.status === 429) return t('errors.tooManyRequests');
    if (error.status === 403 && TEMPORARY_PASSWORD_LOCK.test(error.message)) return t('errors.temporaryPassword');
    // The channel's server failed; a refusal that gives no reason (no message in its body) says so.
    if (error.status >= 500) return t('errors.technical');
    if (/^HTTP \d+$/.test(error.message)) return t('errors.undefined');
  }
  if (error instanceof ApiError) {
    switch (error.kind) {
      case 'network':
        return t('errors.network');
      case 'timeout':
        return t('errors.timeout');
      case 'invalid-response':
        return t('errors.invalidResponse');
      case 'no-api-key':
        return t('errors.noApiKey');
      default:
        return t('errors.generic');
    }
  }
  return t('errors.undefined');
}
