/**
 * The preroll's label, in both languages: the player's texts (en.ts, fr.ts) and the loader's early preroll
 * (src/loader/early-video.ts), which shows it before the player's code has come, read it here.
 */
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
