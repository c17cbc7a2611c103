/**
 * What the loader does when a tag's code cannot be had (it failed, or did not arrive within the 120 s chunk-load
 * timeout): one log entry to the channel's logging endpoint, and a short message in each element of that tag that
 * has nothing of its own inside. The message is light DOM: should the code arrive after all (a later insertion
 * tries again), the element's shadow root hides it. Dependency-free and small: it is part of the loader.
 */

const TEXTS = {
  en: 'This part of the page could not be loaded. Check your connection and reload the page.',
  fr: 'Cette partie de la page n’a pas pu être chargée. Vérifiez votre connexion et rechargez la page.',
};
/** When the code arrived but failed its integrity check: reloading will not help, the site has to fix it. */
const REFUSED = {
  en: 'This part of the page was blocked: its code did not pass a security check. Please try again later.',
  fr: 'Cette partie de la page a été bloquée : son code n’a pas passé un contrôle de sécurité. Réessayez plus tard.',
};

/**
 * The message in each element of `tag` with no content of its own, in its own language, else `lang` (the script's
 * data-lang), else the page's around it;
 * `refused`: the code failed its integrity check.
 */
export function showUnloaded(tag: string, lang: string | undefined, refused = false): void {
  for (const element of document.querySelectorAll(tag)) {
    if (element.childElementCount > 0 || element.textContent?.trim()) continue;
    // As the elements choose (src/lib/lang.ts): its own lang, the script's data-lang, then the nearest one around it.
    const language = element.getAttribute('lang') || lang || element.closest('[lang]')?.getAttribute('lang') || '';
    const note = document.createElement('p');
    note.setAttribute('role', 'alert');
    note.setAttribute('data-channel-unloaded', '');
    const texts = refused ? REFUSED : TEXTS;
    note.textContent = /^fr\b/i.test(language) ? texts.fr : texts.en;
    element.appendChild(note);
  }
}

const q = (text: string) => JSON.stringify(text);

/**
 * Posts one log entry (the client's shape: date, status 0, service 'chunk', channel, message, request_data, url) to
 * `logUrl`. Never throws.
 */
export function reportUnloaded(logUrl: string, channel: string, message: string, chunkUrl: string): void {
  try {
    void fetch(logUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'omit',
      keepalive: true,
      // Written out rather than JSON.stringify of an object: strings alone are never passed to a toJSON a host page
      // added to the prototypes (src/lib/json.ts guards objects; the loader stays small without it).
      body: `{"date":${q(new Date().toISOString())},"status":0,"service":"chunk","channel":${q(channel)},"message":${q(message)},"request_data":null,"url":${q(chunkUrl)},"channel_key":${q(channel)}}`,
    }).catch(() => undefined);
  } catch {
    // Reporting never adds a failure of its own.
  }
}
