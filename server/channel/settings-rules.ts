/**
 * What a channel's stored settings may say about URLs, checked whenever settings are written (the fixtures when a
 * database is seeded, `POST /__dev/settings` in dev mode). Settings are read by every host page that embeds the
 * channel, so a URL in them is a script, a redirect or an image on someone else's site:
 *
 * - `gtag_url`, the only script: https, from an allowed origin (Google's tag manager unless the operator adds
 *   origins with SCRIPT_ORIGINS). Anything else would be stored cross-site scripting on every checkout page.
 * - `site_url` (emailed links and social callbacks go there) and the social providers' `authorize_url` (the browser
 *   is sent there): http(s) URLs without credentials; authorize pages https.
 * - `logo`: an http(s) URL or a path on this server.
 * - `mux.beacon_domain`: a host name with an optional port, nothing else (mux-embed builds the beacon URL from it).
 * - `stripe.publishable_key`: a Stripe publishable key (`pk_live_…` or `pk_test_…`), the one Stripe.js loads with;
 *   it must be of the same mode as the channel's secret key (app/services.ts refuses card payments otherwise).
 * - `social.{provider}.client_id`: the channel's client (app) id at the network, one token of visible characters
 *   (its secret is not a setting: channel/secrets.ts).
 * And as a whole they must match the contract's strict `StoredSettings` (social authorize pages aside, which the server
 * fills in when it serves them): this server sends what the spec says. (The elements read settings field by field,
 * so a field they cannot read would only fall back to its default; the check keeps it from being stored at all.)
 */
import { StoredSettings } from '../../src/api/contract.js';

type Problems = Record<string, string[]>;

/** A plain JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An absolute URL of one of `protocols` without credentials, or undefined. */
function urlOf(value: string, protocols: readonly string[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return protocols.includes(url.protocol) && !url.username && !url.password ? url : undefined;
}

/** The problems of a settings object (field path to messages); empty when it may be stored. */
export function settingsProblems(settings: unknown, scriptOrigins: readonly string[]): Problems {
  const problems: Problems = {};
  const fail = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (!isObject(settings)) {
    fail('settings', 'Settings must be a JSON object.');
    return problems;
  }
  const optionalText = (field: string, value: unknown): value is string | null | undefined => {
    if (value === undefined || value === null || typeof value === 'string') return true;
    fail(field, `The ${field} must be a string or null.`);
    return false;
  };

  const gtag = settings.gtag_url;
  if (optionalText('gtag_url', gtag) && gtag) {
    const url = urlOf(gtag, ['https:']);
    if (!url || !scriptOrigins.includes(url.origin)) {
      fail('gtag_url', `The gtag_url must be an https URL on an allowed origin (${scriptOrigins.join(', ')}).`);
    }
  }

  const site = settings.site_url;
  if (optionalText('site_url', site) && site && !urlOf(site, ['http:', 'https:'])) {
    fail('site_url', 'The site_url must be an http(s) URL.');
  }

  const logo = settings.logo;
  if (optionalText('logo', logo) && logo && !(/^\/(?!\/)/.test(logo) || urlOf(logo, ['http:', 'https:']))) {
    fail('logo', 'The logo must be an http(s) URL or a path on this server.');
  }

  const social = settings.social;
  if (social !== undefined && social !== null) {
    if (!isObject(social)) fail('social', 'The social settings must be an object.');
    else {
      for (const [provider, client] of Object.entries(social)) {
        if (!isObject(client)) {
          fail(`social.${provider}`, 'A social provider must be an object.');
          continue;
        }
        const clientId = client.client_id;
        if (typeof clientId !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(clientId)) {
          fail(
            `social.${provider}.client_id`,
            'The client_id must be the client (app) id the network gave the channel: up to 255 visible characters, no spaces.',
          );
        }
        const authorize = client.authorize_url;
        if (optionalText(`social.${provider}.authorize_url`, authorize) && authorize && !urlOf(authorize, ['https:'])) {
          fail(`social.${provider}.authorize_url`, 'The authorize_url must be an https URL.');
        }
      }
    }
  }

  const stripe = settings.stripe;
  if (stripe !== undefined && stripe !== null) {
    if (!isObject(stripe)) fail('stripe', 'The stripe settings must be an object.');
    else {
      const key = stripe.publishable_key;
      if (typeof key !== 'string' || !/^pk_(live|test)_[A-Za-z0-9_]+$/.test(key)) {
        fail(
          'stripe.publishable_key',
          'The publishable_key must be a Stripe publishable key (pk_live_… or pk_test_…).',
        );
      }
    }
  }

  const mux = settings.mux;
  if (mux !== undefined && mux !== null) {
    if (!isObject(mux)) fail('mux', 'The mux settings must be an object.');
    else {
      const domain = mux.beacon_domain;
      if (
        optionalText('mux.beacon_domain', domain) &&
        domain &&
        !/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(:\d{1,5})?$/i.test(domain)
      ) {
        fail('mux.beacon_domain', 'The beacon_domain must be a host name, with an optional port.');
      }
    }
  }
  if (Object.keys(problems).length) return problems;
  const served = structuredClone(settings);
  if (isObject(served.social)) {
    for (const client of Object.values(served.social))
      if (isObject(client) && !client.authorize_url) client.authorize_url = 'https://provider.invalid/';
  }
  const parsed = StoredSettings.safeParse(served);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      fail(issue.path.join('.') || 'settings', `Does not match the settings contract: ${issue.message}`);
  }
  return problems;
}
