/**
 * The rules of the bar under a playing video, shared by the player's bar (src/components/player/MediaBar.tsx) and the
 * loader's early one (src/loader/early-bar.ts), so that the two offer the same. Dependency-free.
 */

/** A live stream watched at most this far (seconds) behind the end of its window is at the live edge. */
export const LIVE_EDGE_S = 15;
/** Go to live lands this far (seconds) behind the end of the window, where the player can keep playing. */
export const LIVE_LANDING_S = 6;
/** The speeds offered for on-demand videos. */
export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/** The end of the last range of `ranges`, if any. */
export function rangeEnd(ranges: TimeRanges): number | undefined {
  return ranges.length ? ranges.end(ranges.length - 1) : undefined;
}

/** Whole seconds `video` plays behind the end of its seekable window (0 without one). */
export function secondsBehind(video: HTMLVideoElement): number {
  const end = rangeEnd(video.seekable);
  return end === undefined ? 0 : Math.max(0, Math.round(end - video.currentTime));
}

/** Moves `video` to the live edge (just behind the end of its window) and plays it. */
export function goLive(video: HTMLVideoElement): void {
  const end = rangeEnd(video.seekable);
  if (end === undefined) return;
  video.currentTime = Math.max(video.seekable.start(0), end - LIVE_LANDING_S);
  if (video.paused) void video.play().catch(() => undefined);
}

/** Whether `video` plays picture-in-picture (its shadow root's element: the document's would name the host). */
export function inPip(video: HTMLVideoElement): boolean {
  return (video.getRootNode() as Document | ShadowRoot).pictureInPictureElement === video;
}

/** Turns picture-in-picture on or off for `video`. */
export function togglePip(video: HTMLVideoElement): void {
  void (inPip(video) ? document.exitPictureInPicture() : video.requestPictureInPicture()).catch(() => undefined);
}

/** Whether picture-in-picture can be offered for `video`. */
export const pipAvailable = (video: HTMLVideoElement): boolean =>
  document.pictureInPictureEnabled && !video.disablePictureInPicture;
