/**
 * Which page each route opens, loaded lazily: each page (and the feature view it renders) is its own chunk, fetched
 * the first time the route is visited.
 */
import type { ComponentType } from 'react';
import { lazyChunk } from '../../ui/lazy.js';
import type { RouteName } from '../../../lib/routes.js';

type Module = Promise<{ default: ComponentType }>;

const loaders = {
  home: () => import('./Home.js') as Module,
  events: () => import('./Events.js') as Module,
  watch: () => import('./Watch.js') as Module,
  library: () => import('./Library.js') as Module,
  watchLibrary: () => import('./WatchLibrary.js') as Module,
  buy: () => import('./Buy.js') as Module,
  account: () => import('./Account.js') as Module,
  content: () => import('./Content.js') as Module,
  faq: () => import('./Faq.js') as Module,
  contacts: () => import('./Contacts.js') as Module,
  simulate: () => import('./Simulate.js') as Module,
  share: () => import('./Share.js') as Module,
  notFound: () => import('./NotFound.js') as Module,
};
type Kind = keyof typeof loaders;

/** The page kind of every route; `page` is a channel's content page. */
const KIND: Record<RouteName | 'page', Kind> = {
  home: 'home',
  upcoming: 'events',
  vod: 'events',
  live: 'events',
  schedule: 'events',
  watch: 'watch',
  watchEmbed: 'watch',
  packages: 'buy',
  buy: 'buy',
  selectPackage: 'buy',
  login: 'account',
  registration: 'account',
  verifyNotice: 'account',
  verifyEmail: 'account',
  passwordResetRequest: 'account',
  passwordReset: 'account',
  profile: 'account',
  profileTransactions: 'account',
  profileClips: 'account',
  profileSessionsAdd: 'account',
  profileEdit: 'account',
  confirmAccountDeletion: 'account',
  authCallback: 'account',
  about: 'content',
  privacyPolicy: 'content',
  termsConditions: 'content',
  page: 'content',
  faq: 'faq',
  contacts: 'contacts',
  simulate: 'simulate',
  notFound: 'notFound',
  vodLibrary: 'library',
  watchLibrary: 'watchLibrary',
  share: 'share',
};

// Each page loads within the chunk-load timeout, and a failed load starts again on the error panel's Retry.
const pages = Object.fromEntries(
  Object.entries(loaders).map(([kind, load]) => [kind, lazyChunk(`the ${kind} page`, load)]),
) as Record<Kind, ComponentType>;

/** The page component of a route. */
export function pageOf(name: RouteName | 'page'): ComponentType {
  return pages[KIND[name]];
}

/** Which routes share one page component (a change between them keeps the page mounted). */
export function pageKind(name: RouteName | 'page'): string {
  return KIND[name];
}
