/**
 * The generated test media as a stream source: made with ffmpeg at first start into a cache folder and reused
 * afterwards (media.ts `ensureMedia`: the main recording, its renditions, subtitles, thumbnails and download, and
 * the prerolls).
 */
import { ensureMedia } from '../media.js';
import type { StreamSource } from './source.js';

export function generatedMedia(mediaDir: string): StreamSource {
  return { name: 'generated', prepare: () => ensureMedia(mediaDir) };
}
