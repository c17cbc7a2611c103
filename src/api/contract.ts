/**
 * The channel API contract: one set of zod (mini) schemas shared by the browser client and the reference
 * channel server in server/, so that the two cannot drift apart. Every response the client reads is parsed with
 * one of these; the server types (and in tests, checks) what it sends with the same schemas.
 *
 * Conventions: every API body is `{ data: ... }`; lists add `meta` when paginated; errors are
 * `{ message, errors? }`. Times are UNIX seconds in UTC.
 */
import * as z from 'zod/mini';
import { accountApi } from './account-schemas.js';
import { channelApi } from './channel-schemas.js';
import { contentApi } from './content-schemas.js';
import { siteApi } from './site-schemas.js';
import { vodApi } from './vod-schemas.js';
import { flag } from './schema-kit.js';

export * from './channel-schemas.js';
export * from './site-schemas.js';
export * from './content-schemas.js';
export * from './vod-schemas.js';
export * from './account-schemas.js';
export * from './analytics-schemas.js';
/** Wraps a payload schema in the `{ data }` envelope. */
export { envelope, type Endpoint } from './schema-kit.js';
/** The partner slug orders (`stripe/buy`, `start_trial`) and every datalake body may carry as `partner`. */
export { PARTNER_MAX, PARTNER_PATTERN, partnerSlug } from '../lib/ids.js';

// ---------------------------------------------------------------- the reference server's stored settings

const someText = z.optional(z.nullable(z.string()));

/**
 * The settings as the reference server takes them to store and serves them (server/channel/settings-rules.ts refuses
 * the others): every field of the tolerant `Settings` (channel-schemas.ts, which the browser reads any channel's
 * settings with: field by field, a field it cannot read taking its default) typed as it is meant, with no value read
 * as a default.
 */
export const StoredSettings = z.object({
  name: z.optional(z.string()),
  language: z._default(z.string(), 'en'),
  currency: z._default(z.string(), 'USD'),
  'google-analytics': someText,
  'yare-analytics': someText,
  auth: z._default(z.object({ remote_auth: z._default(flag, false) }), { remote_auth: false }),
  prerolls: z.optional(z.unknown()),
  preroll_options: z.optional(z.unknown()),
  static_blocks: z.optional(z.record(z.string(), z.record(z.string(), z.string()))),
  logo: someText,
  social: z.optional(
    z.nullable(
      z.record(
        z.string(),
        z.object({ client_id: z.string(), authorize_url: z.string(), scope: z.optional(z.string()) }),
      ),
    ),
  ),
  site_url: someText,
  mux: z.optional(z.nullable(z.object({ env_key: z.string(), beacon_domain: someText }))),
  stripe: z.optional(z.nullable(z.object({ publishable_key: z.string() }))),
  gtag_url: someText,
});
export type StoredSettings = z.infer<typeof StoredSettings>;

// ---------------------------------------------------------------- the endpoint table

/**
 * Every endpoint of this contract, the areas' tables joined: what the reference server implements and the tests
 * check. The browser's code imports an area's table (`channelApi`, `siteApi`, `contentApi`, `vodApi`,
 * `accountApi`) instead, so a
 * page carries only the calls and schemas of the parts it shows.
 */
export const endpoints = { ...channelApi, ...siteApi, ...contentApi, ...vodApi, ...accountApi };
export type EndpointName = keyof typeof endpoints;
