/**
 * Where the media the server streams comes from, as the media server sees it: one stream source, chosen at start
 * from configuration (app/services.ts) and never by a caller. Its first implementation is the generated test media
 * (generated.ts); a channel's own streams (its encoder's ingest, its recordings) are the next.
 */
import type { MediaLibrary } from '../media.js';

export interface StreamSource {
  /** Its name in configuration and logs (`generated`). */
  readonly name: string;
  /** Makes the media ready to serve (at start, before the server listens) and answers what it holds. */
  prepare(): Promise<MediaLibrary>;
}
