/**
 * An event's or library item's `stream` (schemas.ts EventStream, LibraryStream) and its columns (migration
 * STREAM_SOURCES): stream_source, stream_url, mux_playback_id, mux_signed. An ingest event's key is never part of
 * it (the ingest endpoint makes and shows it).
 */
import type { Row, SqlValue } from '../storage/db.js';
import type { StreamInput } from './schemas.js';

/** The columns, in the order streamValues() gives their values. */
export const STREAM_COLUMNS = ['stream_source', 'stream_url', 'mux_playback_id', 'mux_signed'] as const;

/** The `stream` of a stored row (its STREAM_COLUMNS). */
export function streamJson(row: Row): StreamInput {
  switch (row.stream_source) {
    case 'url':
      return { type: 'url', url: String(row.stream_url) };
    case 'mux':
      return { type: 'mux', playback_id: String(row.mux_playback_id), signed: Number(row.mux_signed) !== 0 };
    case 'ingest':
      return { type: 'ingest' };
    default:
      return { type: 'generated' };
  }
}

/** The STREAM_COLUMNS' values of a `stream` (generated when there is none). */
export function streamValues(stream: StreamInput | undefined): SqlValue[] {
  switch (stream?.type) {
    case 'url':
      return ['url', stream.url, null, 0];
    case 'mux':
      return ['mux', null, stream.playback_id, stream.signed ? 1 : 0];
    case 'ingest':
      return ['ingest', null, null, 0];
    default:
      return ['generated', null, null, 0];
  }
}
