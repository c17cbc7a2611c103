/**
 * The preroll's label, in both languages: the player's texts (en.ts, fr.ts) and the loader's early preroll
 * (src/loader/early-video.ts), which shows it before the player's code has come, read it here.
 */
export const AD_TEXTS = {
  en: { ad: 'Ad', adLabel: 'Advertisement before the video' },
  fr: { ad: 'Pub', adLabel: 'Publicité avant la vidéo' },
} as const;
