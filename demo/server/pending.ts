/** TEMPORARY while issue 13 lands: endpoints whose handlers are being written answer 501. Deleted at merge. */
import type { Handlers } from './handler.js';
import { HttpError } from './http.js';

const pending = () => {
  throw new HttpError(501, 'Not implemented yet.');
};

/** Library endpoints (the library helper replaces these). */
export const pendingLibraryHandlers: Handlers<'vodItems' | 'vodCategories' | 'vodSearch' | 'vodRails'> = {
  vodItems: pending,
  vodCategories: pending,
  vodSearch: pending,
  vodRails: pending,
};
