/**
 * What the loader's early video shows before the player's code has come, in both languages, in the player's own
 * words: the preroll's label (src/loader/early-video.ts) and the bar under the event's stream
 * (src/loader/early-bar.ts). The player's texts (player-en.ts, fr.ts) read them here.
 */

/** The preroll's label. */
export const AD_TEXTS = {
  en: { ad: 'Ad', adLabel: 'Advertisement before the video' },
  fr: { ad: 'Pub', adLabel: 'Publicité avant la vidéo' },
} as const;

/**
 * The bar under a playing video (`player.media.*`), as far as the loader's early video shows it too
 * (src/loader/early-bar.ts): the player's texts read these, so the two bars say the same.
 */
export const MEDIA_BAR_TEXTS = {
  en: {
    label: 'Playback',
    goLive: 'Go to live',
    atLive: 'Live',
    speed: 'Speed',
    normal: 'Normal',
    pip: 'Picture-in-picture',
  },
  fr: {
    label: 'Lecture',
    goLive: 'Revenir au direct',
    atLive: 'Direct',
    speed: 'Vitesse',
    normal: 'Normale',
    pip: 'Image dans l’image',
  },
} as const;
