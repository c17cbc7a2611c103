/** Turns errors into translated text for users. */
import { ApiError, ConfigError, HttpError, TEMPORARY_PASSWORD_LOCK } from '../../api/errors.js';
import type { TFunction } from '../../i18n/index.js';

/** The translated sentence for an error of the API layer (or anything else thrown). */
export function errorText(error: unknown, t: TFunction): string {
  if (error instanceof ConfigError) {
    return /unknown/i.test(error.message) ? t('errors.unknownChannel') : t('errors.config');
  }
  if (error instanceof HttpError && error.status === 429) return t('errors.tooManyRequests');
  if (error instanceof HttpError && error.status === 403 && TEMPORARY_PASSWORD_LOCK.test(error.message)) {
    return t('errors.temporaryPassword');
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
