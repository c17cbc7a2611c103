/**
 * The channel API contract: one set of zod (mini) schemas shared by the browser client and the reference
 * channel server in server/, so that the two cannot drift apart. Every response the client reads is parsed with
 * one of these; the server types (and in tests, checks) what it sends with the same schemas.
 *
 * Conventions: every API body is `{ data: ... }`; lists add `meta` when paginated; errors are
 * `{ message, errors? }`. Times are UNIX seconds in UTC.
 */
import { accountApi } from './account-schemas.js';
import { channelApi } from './channel-schemas.js';
import { contentApi } from './content-schemas.js';
import { siteApi } from './site-schemas.js';
import { vodApi } from './vod-schemas.js';

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

// ---------------------------------------------------------------- the endpoint table

/**
 * Every endpoint of this contract, the areas' tables joined: what the reference server implements and the tests
 * check. The browser's code imports an area's table (`channelApi`, `siteApi`, `contentApi`, `vodApi`,
 * `accountApi`) instead, so a
 * page carries only the calls and schemas of the parts it shows.
 */
export const endpoints = { ...channelApi, ...siteApi, ...contentApi, ...vodApi, ...accountApi };
export type EndpointName = keyof typeof endpoints;
