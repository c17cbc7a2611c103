/**
 * The early video: an autoplaying, muted `<channel-player>` shows its stream before any of its code has arrived.
 *
 * The loader already asks for a player's event, the guest's geo and the settings (with their preroll list) while
 * the element's chunks download (early.ts). When those answers say that this guest would be shown the stream at once,
 * the loader plays it itself in the browser's own HLS engine, in a `<video>` it puts in the player's shadow root.
 * The tag's chunks are fetched only once that video has shown its first frame (or once it is clear there will be
 * none), so that the browser's engine has the main thread and the network to itself until then. The player's
 * stage then adopts that `<video>`, playing (VideoStage, through the element's media host): the frame on screen
 * stays and the stream is not loaded twice.
 *
 * It starts only where nothing the player would decide can differ, and otherwise does nothing:
 * - the tag asks for it: `autoplay` and `muted`, an `event-id`, no engine other than the browser's own asked for;
 * - a guest (no stored sign-in: a viewer's passes, capabilities and resume positions are the profile's);
 * - the browser plays HLS itself, and the player would use it (on demand; live only without Media Source
 *   Extensions, as `playsNatively` decides);
 * - the event plays for a guest now: free, or `has_access`; live or finished with a recording; not geo-blocked,
 *   nor is the guest (geo); a stream URL of the right kind (http or https);
 * - no resume position is stored; the preroll list, if prerolls are on, is well formed.
 *
 * A preroll is chosen here by the player's own rules (src/lib/preroll-rules.ts: the event's kind, category and
 * location, `for_live` / `for_vod`, the weights, this visitor's suppressions) and played first; the video carries the
 * choice (early-protocol.ts `earlyChoiceOf`), and the player adopts it as its one preroll for this view: it counts
 * it as seen and goes on to the event's stream, never choosing another. With no preroll to show (none fits, all are
 * suppressed, prerolls off), the event's stream plays early.
 *
 * A module of its own, fetched (verified, like every chunk) only when an autoplaying muted player is on the page
 * (early-protocol.ts tells); the loader keeps the copies of the answers it reads. Dependency-free. Any failure here
 * leaves the player to start as it always does.
 */
import { AD_TEXTS } from '../i18n/ad-label.js';
import { resumeStorageKey } from '../lib/api-paths.js';
import { elementLang, toLang, type Lang } from '../lib/lang.js';
import { pickPreroll, suppressionKey, VISITOR_KEY, type PrerollRule } from '../lib/preroll-rules.js';
import { storedValue } from './early.js';
import {
  EARLY_CHOICE,
  EARLY_DECISION_MS,
  type EarlyChoice,
  EARLY_AT_ATTR,
  EARLY_FRAME_ATTR,
  EARLY_LABEL_ATTR,
  EARLY_ROOT,
  EARLY_VIDEO_ATTR,
  preferredEngine,
  type EarlyData,
} from './early-protocol.js';
import { EARLY_CSS } from './early-stage.js';

export { EARLY_DECISION_MS };
/** The chunks are fetched anyway when the early video has shown no frame this long after it was set (ms). */
export const EARLY_FRAME_WAIT_MS = 1_200;

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

/** A boolean attribute as the player reads it: present and not "false". */
const attr = (el: Element, name: string) => {
  const v = el.getAttribute(name);
  return v !== null && v.trim().toLowerCase() !== 'false';
};

/**
 * Starts an early video in each of `players` for which the tag asks (autoplaying and muted, not rendered yet, not
 * asking for hls.js) and the start-up answers (`data`) say so, within EARLY_DECISION_MS of `since` (ms since the
 * epoch: when the loader met the player). The loader has checked the rest (early-protocol.ts `mayStartEarly`).
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
  const mse = 'MediaSource' in window || 'ManagedMediaSource' in window;
  const resumed = storedValue(resumeStorageKey(channelKey))?.v;
  // The prerolls a guest could be shown, from the settings: none when they are off or there are none; null when the
  // list is malformed (the player reads it otherwise: nothing starts early).
  const prerolls = data('settings').then((answer) => {
    const settings = answer as { prerolls?: unknown; preroll_options?: { enabled?: unknown } } | undefined;
    const flags = settings?.preroll_options;
    // Off as the player reads it (preroll-schemas.ts `prerollOptionsOf`): given, and not true, 1, '1' or 'true'.
    if (flags && typeof flags === 'object' && flags.enabled != null && !truthy(flags.enabled)) return [];
    // None given (absent or null) is none, as for the player; a list it cannot read starts nothing early.
    return settings?.prerolls == null ? [] : prerollsFromAnswer(settings.prerolls);
  });
  const visitor = storedValue(VISITOR_KEY)?.v;
  const open = data('geo').then(
    (geo) => !!geo && typeof geo === 'object' && !truthy((geo as { is_geo_blocked?: unknown }).is_geo_blocked),
  );
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
      // Resume positions are kept under the event's id as the API spells it (no leading zeros).
      if (resumed && typeof resumed === 'object' && String(Number(id)) in resumed) return undefined;
      const decision = new Promise<(EarlyChoice & { lang: Lang }) | undefined>((resolve) => {
        // The first answer that rules it out decides at once: the player's code is not held for the others.
        const unless = (ok: boolean) => ok || resolve(undefined);
        void prerolls.then((list) => unless(list !== null));
        void open.then(unless);
        const mseLive = mse && preferredEngine(player) !== 'native';
        void data(`event:${id}`).then((event) => unless(playableUrl(event, mseLive) !== undefined));
        void Promise.all([data(`event:${id}`), prerolls, open, data('settings')]).then(
          ([event, list, unblocked, settings]) => {
            const url = unblocked && list ? playableUrl(event, mseLive) : undefined;
            if (!url) return resolve(undefined);
            const preroll = earlyPreroll(list!, event as Record<string, unknown>, visitor);
            // A preroll the browser could not be given as it is: the player's own start decides.
            if (preroll && !isHttp(preroll.url)) return resolve(undefined);
            const channelLang = (settings as { language?: unknown } | undefined)?.language;
            resolve({
              stream: url,
              preroll,
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
/** A flag as the contract reads one (absent: false); undefined when it is not one. */
const flagOf = (v: unknown): boolean | undefined =>
  v === undefined ? false : ['boolean', 'number', 'string'].includes(typeof v) ? truthy(v) : undefined;
const MALFORMED = new Error('malformed');
const must = <T>(v: T | undefined): T => {
  if (v === undefined) throw MALFORMED;
  return v;
};

/**
 * A preroll list as the contract's `PrerollList` reads it (numbers for ids, flags as booleans, the defaults), or
 * null when it would not parse: the player then has no list to agree with. Exported for the agreement test.
 */
export function prerollsFromAnswer(raw: unknown): PrerollRule[] | null {
  if (!Array.isArray(raw)) return null;
  try {
    return raw.map((entry: unknown) => {
      if (!entry || typeof entry !== 'object') throw MALFORMED;
      const p = entry as Record<string, unknown>;
      const weight = p.weight === undefined ? 1 : p.weight;
      const categories = p.event_categories === undefined ? [] : p.event_categories;
      if (typeof p.url !== 'string' || typeof weight !== 'number' || !Number.isFinite(weight)) throw MALFORMED;
      if (!Array.isArray(categories)) throw MALFORMED;
      const preroll: PrerollRule = {
        id: must(idOf(p.id)),
        url: p.url,
        weight,
        event_categories: categories.map((c: unknown) => must(idOf(c))),
        for_vod: must(flagOf(p.for_vod)),
        for_live: must(flagOf(p.for_live)),
      };
      // Absent stays absent, as the contract leaves it.
      if ('location_id' in p)
        preroll.location_id = p.location_id == null ? (p.location_id as null | undefined) : must(idOf(p.location_id));
      return preroll;
    });
  } catch {
    return null;
  }
}

/**
 * The preroll the player would choose for a guest (`visitor`: their stored visitor id, if any) before this event (a
 * raw answer), by the shared rules, or undefined for none.
 */
export function earlyPreroll(
  prerolls: PrerollRule[],
  event: Record<string, unknown>,
  visitor: unknown,
  random = Math.random(),
): PrerollRule | undefined {
  if (!prerolls.length) return undefined;
  // The player keys suppressions by the event's id as it parsed it (a number), and the visitor's stored id.
  const eventId = String(idOf(event.id));
  const viewer = `visitor-${String(visitor)}`;
  const target = {
    eventId,
    live: event.stream_status === 'live',
    locationId: event.location_id == null ? (event.location_id as null | undefined) : idOf(event.location_id),
    categoryId:
      event.event_category_id == null ? (event.event_category_id as null | undefined) : idOf(event.event_category_id),
  };
  // A guest without a visitor id yet has seen nothing: no suppression is stored under one.
  const suppressed = (id: number) =>
    typeof visitor === 'string' && visitor !== '' && storedValue(suppressionKey(viewer, eventId, id))?.v === true;
  return pickPreroll(prerolls, target, false, suppressed, random);
}

/**
 * The stream a guest would be shown at once for this event answer, if any (see the module's rules); `mse`: a live
 * stream would play through hls.js.
 */
function playableUrl(event: unknown, mse: boolean): string | undefined {
  if (!event || typeof event !== 'object') return undefined;
  const e = event as Record<string, unknown>;
  const live = e.stream_status === 'live';
  if (!live && !(e.stream_status === 'finished' && (e.has_recording === undefined || truthy(e.has_recording))))
    return undefined;
  if (live && mse) return undefined;
  if (truthy(e.is_geo_blocked)) return undefined;
  // The contract's default is for a missing type only (null is malformed: the player shows an error).
  const type = e.type === undefined ? 'free' : e.type;
  if (type !== 'free' && (type === 'register' || !truthy(e.has_access))) return undefined;
  const media = Array.isArray(e.media) ? (e.media as { type?: unknown; url?: unknown }[]) : [];
  // Every media entry must be well formed (the player rejects the whole event otherwise).
  if (!media.every((m) => m && typeof m === 'object' && typeof m.type === 'string' && typeof m.url === 'string'))
    return undefined;
  const url = media.find((m) => m.type === (live ? 'live' : 'vod'))?.url;
  return typeof url === 'string' && isHttp(url) ? url : undefined;
}

/**
 * Plays the choice (its preroll, else the event's stream) in a muted `<video>` in a new shadow root of `player`, a
 * preroll with the player's "Ad" label in `lang` over it (the player takes its place when it adopts the video);
 * resolves at its first frame, at an error, or after EARLY_FRAME_WAIT_MS, whichever comes first.
 */
function play(player: Element, { lang, ...choice }: EarlyChoice & { lang: Lang }): Promise<void> {
  const url = choice.preroll ? choice.preroll.url : choice.stream;
  const root = player.attachShadow({ mode: 'open' });
  (root as unknown as Record<symbol, boolean>)[EARLY_ROOT] = true;
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
  video.setAttribute(EARLY_VIDEO_ATTR, '');
  video.setAttribute('part', 'video');
  video.muted = video.defaultMuted = video.playsInline = true;
  video.crossOrigin = 'anonymous';
  video.preload = 'auto';
  video.src = url;
  video.setAttribute(EARLY_AT_ATTR, String(Date.now()));
  // The loader's choice (a preroll, or none): the player adopts it as its own.
  (video as unknown as Record<symbol, EarlyChoice>)[EARLY_CHOICE] = choice;
  if (choice.preroll) {
    const label = document.createElement('div');
    label.setAttribute(EARLY_LABEL_ATTR, '');
    label.setAttribute('part', 'ad-label');
    label.setAttribute('role', 'status');
    label.setAttribute('aria-label', AD_TEXTS[lang].adLabel);
    label.textContent = AD_TEXTS[lang].ad;
    root.appendChild(label);
    // Gone when the advert ends or fails, or when the video is stopped (a stop empties it).
    for (const type of ['ended', 'error', 'emptied']) video.addEventListener(type, () => label.remove());
  }
  root.appendChild(video);
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
      video.setAttribute(EARLY_FRAME_ATTR, String(Date.now()));
      done();
    };
    const framed = () => (video.requestVideoFrameCallback ? video.requestVideoFrameCallback(shown) : shown());
    const timer = setTimeout(done, EARLY_FRAME_WAIT_MS);
    video.addEventListener('loadeddata', framed);
    video.addEventListener('error', done);
  });
}
