/** TEMPORARY while issue 13 lands: endpoints whose handlers are being written answer 501. Deleted at merge. */
import type { Handlers } from './handler.js';
import { HttpError } from './http.js';

const pending = () => {
  throw new HttpError(501, 'Not implemented yet.');
};

/** Clip endpoints (the clips helper replaces these). */
export const pendingClipHandlers: Handlers<
  'createClip' | 'eventClips' | 'eventsWithClip' | 'sharedClip' | 'clipDownload' | 'deleteClip'
> = {
  createClip: pending,
  eventClips: pending,
  eventsWithClip: pending,
  sharedClip: pending,
  clipDownload: pending,
  deleteClip: pending,
};
