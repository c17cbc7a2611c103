/**
 * How the page configured the product: from the script tag's data attributes, or from `configure()` when
 * installed from npm. Validated with zod so that a bad value is a clear console line, not a crash.
 */
import { atom } from 'nanostores';
import * as z from 'zod/mini';
import { env } from '../lib/env.js';
import { baseUrl, bundleOrigin } from '../lib/base-urls.js';
import { partnerSlug } from '../lib/ids.js';
import { toLang, type Lang } from '../lib/lang.js';

export { LANGUAGES, toLang, type Lang } from '../lib/lang.js';

/** What `configure()` accepts. */
export interface ConfigureOptions {
  /** The channel key (the script's `data-channel-key`). Required. */
  channelKey?: string | null | undefined;
  /** API base URL; default: the bundle's origin + `/api`. */
  apiUrl?: string | null | undefined;
  /** Keys host base URL; default: the bundle's origin + `/keys`. */
  keysUrl?: string | null | undefined;
  /** Logging endpoint; default: `{apiUrl}/logs`. */
  logUrl?: string | null | undefined;
  /**
   * `en` or `fr`; default: the element's nearest `[lang]`, else the channel's language, else English (the whole
   * site: the channel's language before a `[lang]` around it; lib/lang.ts).
   */
  lang?: string | null | undefined;
  /**
   * Analytics service base (datalake); default: the API's origin. Pages served from localhost send no analytics
   * unless this is given explicitly.
   */
  analyticsUrl?: string | null | undefined;
  /**
   * `required`: consent mode. No analytics at all (datalake, tag manager, video analytics, the API request
   * tracker; nothing sent, loaded or stored for them) until the page calls `channelElements.consent(true)`.
   */
  consent?: string | null | undefined;
  /**
   * The partner whose page this is (the script's `data-partner`): a slug, `springfield-gazette`, that every analytics
   * call and every order made on the page carries. Anything but a slug is ignored with a console warning.
   */
  partner?: string | null | undefined;
  /**
   * Origins besides Google's tag manager that the channel's tag manager script (settings `gtag_url`) may come from
   * (the script's `data-script-origins`, space-separated): https, or http on localhost. Read where the script loads.
   */
  scriptOrigins?: string | null | undefined;
}

/** The validated configuration the session runs on. */
export interface ChannelConfig {
  channelKey: string;
  apiUrl: string;
  keysUrl: string;
  logUrl?: string | undefined;
  lang?: Lang | undefined;
  analyticsUrl: string;
  /** Whether analyticsUrl was given explicitly (analytics from localhost pages only then). */
  analyticsExplicit: boolean;
  /** Consent mode: analytics wait for `channelElements.consent(true)`. */
  consentRequired: boolean;
  /** The page's partner (a valid slug), if it names one. */
  partner?: string | undefined;
  /** The page's `data-script-origins` as written (see url-rules.ts `scriptOrigins`). */
  scriptOrigins?: string | undefined;
}

/** The current configuration, or undefined before `configure()`. */
export const $config = atom<ChannelConfig | undefined>(undefined);
/** A configuration problem to show in every element (English for developers; elements translate the kind). */
export const $configError = atom<string | undefined>(undefined);

const httpUrl = z.string().check(z.refine((v) => /^https?:\/\//i.test(v), 'must be an absolute http(s) URL'));

/**
 * Sets the configuration. `base` is where the bundle lives (the script's URL), used for the defaults.
 * Returns the error text when the configuration is unusable (also kept in `$configError`).
 */
export function setConfig(options: ConfigureOptions, base: string): string | undefined {
  // Where neither the bundle's nor the API's URL parses, the page's origin stands in.
  const pageOrigin = env().location()?.origin ?? 'http://localhost';
  const origin = bundleOrigin(base, pageOrigin);
  const channelKey = options.channelKey?.trim();
  if (!channelKey) {
    return fail(
      'channel-elements: no channel key. Add data-channel-key="your-channel-key" to the <script> tag that loads channel-elements.js (or pass channelKey to configure()).',
    );
  }
  const apiUrl = baseUrl(options.apiUrl, `${origin}/api`);
  const keysUrl = baseUrl(options.keysUrl, `${origin}/keys`);
  const analyticsUrl = baseUrl(options.analyticsUrl, bundleOrigin(apiUrl, pageOrigin));
  for (const [name, value] of [
    ['data-api-url', apiUrl],
    ['keys URL', keysUrl],
    ['data-analytics-url', analyticsUrl],
  ] as const) {
    if (!httpUrl.safeParse(value).success) {
      return fail(`channel-elements: ${name} "${value}" is not an absolute http(s) URL.`);
    }
  }
  const lang = toLang(options.lang);
  if (options.lang && !lang) {
    env().logger.warn(
      `channel-elements: data-lang="${options.lang}" is not supported; use "en" or "fr". Falling back to the page's language.`,
    );
  }
  const consent = options.consent?.trim().toLowerCase();
  if (consent && consent !== 'required') {
    env().logger.warn(
      `channel-elements: data-consent="${options.consent}" is not a consent mode; use "required". Analytics wait for channelElements.consent(true) meanwhile.`,
    );
  }
  const partner = partnerSlug(options.partner);
  if (options.partner?.trim() && !partner) {
    env().logger.warn(
      `channel-elements: data-partner="${options.partner}" is not a partner slug (lowercase letters and digits, words joined by hyphens, at most 40 characters, e.g. "springfield-gazette"); this page's analytics and orders carry no partner.`,
    );
  }
  $configError.set(undefined);
  $config.set({
    channelKey,
    apiUrl,
    keysUrl,
    logUrl: options.logUrl?.trim() || undefined,
    lang,
    analyticsUrl,
    analyticsExplicit: Boolean(options.analyticsUrl?.trim()),
    // Any value asks for consent: a misspelt mode must not send what the page meant to hold.
    consentRequired: options.consent !== undefined && options.consent !== null,
    partner,
    scriptOrigins: options.scriptOrigins?.trim() || undefined,
  });
  return undefined;
}

function fail(message: string): string {
  env().logger.error(message);
  $config.set(undefined);
  $configError.set(message);
  return message;
}
