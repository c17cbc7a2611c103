/**
 * Only one player on the page plays with sound: when one starts playing unmuted (or is unmuted while
 * playing), every other registered video is muted. Videos keep playing; they just fall silent.
 */
const videos = new Set<HTMLMediaElement>();

function claim(this: HTMLMediaElement): void {
  if (this.paused || this.muted) return;
  for (const other of videos) if (other !== this && !other.muted) other.muted = true;
}

/** Registers a video; returns the function that unregisters it. */
export function exclusiveSound(video: HTMLMediaElement): () => void {
  videos.add(video);
  video.addEventListener('playing', claim);
  video.addEventListener('volumechange', claim);
  return () => {
    videos.delete(video);
    video.removeEventListener('playing', claim);
    video.removeEventListener('volumechange', claim);
  };
}
