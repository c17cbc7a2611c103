/**
 * The early video: an autoplaying, muted `<channel-player>` shows its stream before any of its code has arrived.
 *
 * The loader already asks for a player's event, the guest's geo and the settings (with their preroll list) while
 * the element's chunks download (early.ts). When those answers say that this guest would be shown the stream at once,
 * the loader plays it itself in the browser's own HLS engine, in a `<video>` it puts in the player's shadow root.
 * The tag's chunks are fetched only once that video has shown its first frame (or once it is clear there will be
 * none), so that the browser's engine has the main thread and the network to itself until then. The player's
 * stage then adopts that `<video>`, playing (VideoStage, through the element's media host): the frame on screen
 * stays and the stream is not loaded twice. The event's stream shows the player's controls from its first frame (the
 * browser's, and the bar under the video: early-bar.ts), which the stage carries over until its own replace them.
 *
 * It starts only where the player would start the same stream at once, by the player's own rules: one decision,
 * src/lib/start-rules.ts `guestStart` (access as `decideAccess` decides it, the engine, the resume position, the
 * preroll), fed here from the raw start-up answers read as the contract reads them (`eventFromAnswer`,
 * `prerollsFromAnswer`). Besides, it starts only for a guest (no stored sign-in: a viewer's passes, capabilities and
 * resume positions are the profile's), in a browser that plays HLS itself (src/loader/early.ts `mayStartEarly`),
 * with answers that came within the decision window, and stream and preroll URLs of the right kind (http or https).
 *
 * A preroll chosen so is played first; the player adopts the choice as its one preroll for this view: it counts it as
 * seen and goes on to the event's stream, never choosing another. With no preroll to show (none fits, all are
 * suppressed, prerolls off), the event's stream plays early.
 *
 * What the loader started is handed over as one object (src/lib/early-video.ts), which is also its one owner.
 * Built as a module of its own, whose code opens the player's file of the integrity table (scripts/integrity.mjs):
 * the loader fetches it verified with the first tag, as the player's code needs that file anyway, and runs it only
 * when an autoplaying muted player is on the page (early.ts `mayStartEarly` tells); the loader keeps the copies of
 * the answers it reads. Dependency-free. Any failure
 * here leaves the player to start as it always does.
 */
import { AD_TEXTS } from '../i18n/ad-label.js';
import { earlyBar } from './early-bar.js';
import { resumeStorageKey } from '../lib/api-paths.js';
import {
  dropEarlyBar,
  EARLY_CSS,
  EARLY_DECISION_MS,
  setEarlyVideo,
  type EarlyChoice,
  type EarlyVideo,
} from '../lib/early-video.js';
import { elementLang, toLang, type Lang } from '../lib/lang.js';
import { suppressionKey, VISITOR_KEY, type PrerollRule } from '../lib/preroll-rules.js';
import { guestStart, type StartEvent } from '../lib/start-rules.js';
import { preferredEngine, storedValue, type EarlyData } from './early.js';

export { EARLY_DECISION_MS };
/** The chunks are fetched anyway when the early video has shown no frame this long after it was set (ms). */
export const EARLY_FRAME_WAIT_MS = 1_200;

/** A flag as the contract reads one (schema-kit.ts `flag`): true, false, or undefined when it cannot be read. */
const flagRead = (v: unknown): boolean | undefined => {
  const at = [true, false, 1, 0, '1', '0', 'true', 'false'].indexOf(
    (typeof v === 'string' ? v.toLowerCase() : v) as never,
  );
  return at < 0 ? undefined : at % 2 === 0;
};

/** A boolean attribute as the player reads it: present and not "false". */
const attr = (el: Element, name: string) => {
  const v = el.getAttribute(name);
  return v !== null && v.trim().toLowerCase() !== 'false';
};

/**
 * Starts an early video in each of `players` for which the tag asks (autoplaying and muted, not rendered yet, not
 * asking for hls.js) and the start-up answers (`data`) say so, within EARLY_DECISION_MS of `since` (ms since the
 * epoch: when the loader met the player). The loader has checked the rest (early.ts `mayStartEarly`).
 * `pageLang` is the script's `data-lang`: with the channel's language it names the preroll's label as the player
 * would.
 * Resolves once the tag's chunks may be fetched: at the early videos' first frames, or at once when there is none to
 * wait for.
 */
export function startEarlyVideos(
  channelKey: string,
  found: Element[],
  data: EarlyData,
  since = Date.now(),
  pageLang?: string,
): Promise<void> {
  // Fetched after the window (a slow network): the player's code is on its way, nothing starts early.
  if (Date.now() >= since + EARLY_DECISION_MS) return Promise.resolve();
  const players = found.filter(
    (p) => attr(p, 'autoplay') && attr(p, 'muted') && !p.shadowRoot && preferredEngine(p) !== 'mse',
  );
  const stored: Stored = {
    positions: storedValue(resumeStorageKey(channelKey))?.v,
    visitor: storedValue(VISITOR_KEY)?.v,
  };
  const prerolls = data('settings').then(prerollsOfSettings);
  const blocked = data('geo').then(geoBlockedOf);
  // Answers that take longer than this leave the player to start as usual: its code is not held for them.
  let late = false;
  const deadline = new Promise<undefined>((resolve) =>
    setTimeout(
      () => {
        late = true;
        resolve(undefined);
      },
      Math.max(0, since + EARLY_DECISION_MS - Date.now()),
    ),
  );
  return Promise.all(
    players.map((player) => {
      const id = player.getAttribute('event-id')!.trim();
      const decision = new Promise<(EarlyChoice & { lang: Lang }) | undefined>((resolve) => {
        // The first answer that rules it out decides at once: the player's code is not held for the others.
        const unless = (ok: boolean) => ok || resolve(undefined);
        void prerolls.then((list) => unless(list !== null));
        void blocked.then((geoBlocked) => unless(geoBlocked === false));
        void data(`event:${id}`).then((event) =>
          unless(!!earlyDecision(player, event, [], false, stored, undefined, 0)),
        );
        void Promise.all([data(`event:${id}`), prerolls, blocked, data('settings')]).then(
          ([event, list, geoBlocked, settings]) => {
            const choice = list && geoBlocked === false && earlyDecision(player, event, list, false, stored);
            if (!choice) return resolve(undefined);
            const channelLang = (settings as { language?: unknown } | undefined)?.language;
            resolve({
              ...choice,
              lang: elementLang(
                player,
                player.getAttribute('lang'),
                toLang(pageLang),
                typeof channelLang === 'string' ? channelLang : undefined,
              ),
            });
          },
        );
      });
      return Promise.race([decision, deadline]).then((choice) =>
        // Not too late, and the player not defined meanwhile (another copy of the bundle) nor removed.
        choice && !late && player.isConnected && !player.shadowRoot && !customElements.get(player.localName)
          ? play(player, choice)
          : undefined,
      );
    }),
  ).then(
    () => undefined,
    () => undefined,
  );
}

/** What the early video reads of the guest's storage: their resume positions and visitor id, as stored. */
export interface Stored {
  positions: unknown;
  visitor: unknown;
}

/**
 * The loader's decision for `player` over the raw answers (`event`; `prerolls`, the list a guest may be shown, as
 * `prerollsOfSettings` reads it; the geo answer's block), by the player's own rules (src/lib/start-rules.ts
 * `guestStart`): what it plays, or undefined. `mse`: the browser has Media Source Extensions (hls.js would play a
 * live stream). Exported for the agreement test.
 */
export function earlyDecision(
  player: Element,
  event: unknown,
  prerolls: PrerollRule[],
  geoBlocked: boolean,
  stored: Stored,
  mse: boolean = 'MediaSource' in window || 'ManagedMediaSource' in window,
  random = Math.random(),
): EarlyChoice | undefined {
  const read = eventFromAnswer(event);
  if (!read) return undefined;
  const { visitor } = stored;
  const choice = guestStart({
    autoplay: attr(player, 'autoplay'),
    muted: attr(player, 'muted'),
    prefer: preferredEngine(player),
    // The loader fetched this module only where the browser plays HLS itself (early.ts `mayStartEarly`).
    nativeHls: true,
    mse,
    event: read,
    geoBlocked,
    positions: stored.positions,
    prerolls,
    // The player keys a guest's suppressions by their stored visitor id (one without an id yet has seen nothing)
    // and the event's id as it parsed it.
    suppressed: (id) =>
      typeof visitor === 'string' &&
      visitor !== '' &&
      storedValue(suppressionKey(`visitor-${visitor}`, String(read.id), id))?.v === true,
    random,
  });
  // A stream or an advert the browser could not be given as it is: the player's own start decides.
  return choice && isHttp(choice.stream) && (!choice.preroll || isHttp(choice.preroll.url)) ? choice : undefined;
}

/**
 * The prerolls a guest could be shown, from the settings' answer: none when they are off (`preroll_options.enabled`
 * read as false, as preroll-schemas.ts `prerollOptionsOf` reads it: a value it cannot read leaves them on) or there are none (absent
 * or null); null when the list is malformed (the player reads it otherwise: nothing starts early).
 */
export function prerollsOfSettings(answer: unknown): PrerollRule[] | null {
  const settings = answer as { prerolls?: unknown; preroll_options?: { enabled?: unknown } } | undefined;
  const flags = settings?.preroll_options;
  if (flags && typeof flags === 'object' && flagRead(flags.enabled) === false) return [];
  return settings?.prerolls == null ? [] : prerollsFromAnswer(settings.prerolls);
}

/**
 * Whether the geo answer blocks the guest's region; undefined without one, or when its flag cannot be read (the
 * contract's `Geo` refuses it: the player decides). Exported for the agreement test.
 */
export const geoBlockedOf = (geo: unknown): boolean | undefined => {
  if (!geo || typeof geo !== 'object') return undefined;
  const v = (geo as { is_geo_blocked?: unknown }).is_geo_blocked;
  return v == null ? false : flagRead(v);
};

/** An http(s) URL. */
const isHttp = (url: string) => {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
};

/** An id as the contract reads one: a number, or a string of digits. */
const idOf = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
/** A number as the contract reads one: a number, or a numeric string. */
const numOf = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
/** An optional flag as the contract reads one: absent, null or unreadable is `absent`. */
const flagOf = (v: unknown, absent = false): boolean => flagRead(v) ?? absent;
/** A flag of access as the contract reads one (schema-kit.ts `optStrict`): absent or null is false, unreadable no event. */
const accessFlagOf = (v: unknown): boolean => (v == null ? false : must(flagRead(v)));
/** An optional id as the contract reads one: null stays null, absent or unreadable is undefined. */
const maybeIdOf = (v: unknown): number | null | undefined => (v === null ? null : idOf(v));
const MALFORMED = new Error('malformed');
const must = <T>(v: T | undefined): T => {
  if (v === undefined) throw MALFORMED;
  return v;
};
/** An optional list as the contract reads one (schema-kit.ts `list`): the entries `read` can read, else none. */
const listOf = <T>(v: unknown, read: (entry: unknown) => T): T[] =>
  Array.isArray(v)
    ? v.flatMap((entry: unknown) => {
        try {
          return [read(entry)];
        } catch {
          return [];
        }
      })
    : [];

/**
 * An event answer as the player reads it (the contract's `Event`, then `fromEvent`): what the start rules need, or
 * null when a field they need is required and cannot be read (the player shows an error). Exported for the
 * agreement test.
 */
export function eventFromAnswer(raw: unknown): StartEvent | null {
  if (!raw || typeof raw !== 'object') return null;
  const e = raw as Record<string, unknown>;
  try {
    const status = e.stream_status;
    if (status !== 'live' && status !== 'upcoming' && status !== 'finished') throw MALFORMED;
    if (typeof e.name !== 'string') throw MALFORMED;
    // A price or a pass it cannot read makes the contract refuse the event (schema-kit.ts `optStrict`): so does the
    // loader.
    if (e.price != null) must(numOf(e.price));
    if (e.single_event_package_id != null) must(idOf(e.single_event_package_id));
    return {
      kind: 'event',
      id: must(idOf(e.id)),
      // Absent or null is free; anything else but a string is no event (never free: schema-kit.ts `optStrict`).
      type: e.type == null ? 'free' : typeof e.type === 'string' ? e.type : must<string>(undefined),
      hasAccess: accessFlagOf(e.has_access),
      status,
      startsAt: must(numOf(e.event_utc_ts)),
      hasRecording: flagOf(e.has_recording, true),
      geoBlocked: accessFlagOf(e.is_geo_blocked),
      media: listOf(e.media, (m) => {
        const { type, url } = (m ?? {}) as { type?: unknown; url?: unknown };
        if (typeof type !== 'string' || typeof url !== 'string') throw MALFORMED;
        return { type, url };
      }),
      categoryId: maybeIdOf(e.event_category_id),
      locationId: maybeIdOf(e.location_id),
    };
  } catch {
    return null;
  }
}

/**
 * A preroll list as the contract's `PrerollList` reads it (one by one, an unreadable one left out; numbers for ids,
 * flags as booleans, the defaults), or null when it is not a list: the player then has no list to agree with.
 * Exported for the agreement test.
 */
export function prerollsFromAnswer(raw: unknown): PrerollRule[] | null {
  if (!Array.isArray(raw)) return null;
  return listOf(raw, (entry) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw MALFORMED;
    const p = entry as Record<string, unknown>;
    if (typeof p.url !== 'string') throw MALFORMED;
    const preroll: PrerollRule = {
      id: must(idOf(p.id)),
      url: p.url,
      weight: numOf(p.weight) ?? 1,
      event_categories: listOf(p.event_categories, (c) => must(idOf(c))),
      for_vod: flagOf(p.for_vod),
      for_live: flagOf(p.for_live),
    };
    // Absent stays absent, as the contract leaves it.
    if ('location_id' in p) preroll.location_id = maybeIdOf(p.location_id);
    return preroll;
  });
}

/**
 * Plays the choice (its preroll, else the event's stream) in a muted `<video>` in a new shadow root of `player`, a
 * preroll with the player's "Ad" label in `lang` over it, and hands it over (src/lib/early-video.ts); resolves at its
 * first frame, at an error, or after EARLY_FRAME_WAIT_MS, whichever comes first.
 */
function play(player: Element, { lang, ...choice }: EarlyChoice & { lang: Lang }): Promise<void> {
  const root = player.attachShadow({ mode: 'open' });
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function') {
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(EARLY_CSS);
      root.adoptedStyleSheets = [sheet];
    } catch {
      // Without the sheet the video still shows at its own size.
    }
  }
  const video = document.createElement('video');
  video.setAttribute('part', 'video');
  video.muted = video.defaultMuted = video.playsInline = true;
  video.crossOrigin = 'anonymous';
  video.preload = 'auto';
  video.src = choice.preroll ? choice.preroll.url : choice.stream;
  let label: HTMLElement | undefined;
  if (choice.preroll) {
    label = document.createElement('div');
    label.setAttribute('part', 'ad-label');
    label.setAttribute('role', 'status');
    label.setAttribute('aria-label', AD_TEXTS[lang].adLabel);
    label.textContent = AD_TEXTS[lang].ad;
    label.lang = lang;
    root.appendChild(label);
    // Gone when the advert ends or fails, or when the video is stopped (a stop empties it).
    for (const type of ['ended', 'error', 'emptied']) video.addEventListener(type, () => label!.remove());
  }
  root.appendChild(video);
  const early: EarlyVideo = {
    ...choice,
    video,
    root,
    label,
    bar: undefined,
    startedAt: Date.now(),
    framedAt: undefined,
    taken: false,
    rooted: false,
  };
  setEarlyVideo(player, early);
  void video.play().catch(() => undefined);
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      video.removeEventListener('loadeddata', framed);
      video.removeEventListener('error', done);
      resolve();
    };
    // A frame is decoded; the next one the browser paints shows it.
    const shown = () => {
      early.framedAt = Date.now();
      // The event's stream shows the player's controls with its first frame: the browser's, and the bar under it
      // (early-bar.ts), unless the player's code came first and has the root (its stage shows its own then).
      if (!choice.preroll && !early.taken && !early.rooted && !video.error) {
        video.controls = true;
        early.bar = earlyBar(video, choice.live, lang);
        root.appendChild(early.bar.element);
        // A stream that fails (or is stopped) before the player has it loses its controls with it.
        const off = () => {
          if (early.taken) return;
          dropEarlyBar(early);
          video.controls = false;
        };
        for (const type of ['error', 'emptied']) video.addEventListener(type, off, { once: true });
      }
      done();
    };
    const framed = () => (video.requestVideoFrameCallback ? video.requestVideoFrameCallback(shown) : shown());
    const timer = setTimeout(done, EARLY_FRAME_WAIT_MS);
    video.addEventListener('loadeddata', framed);
    video.addEventListener('error', done);
  });
}
