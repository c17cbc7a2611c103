// Renders one page of the site (<channel-app>'s pages) on its own: a host element with a shadow root, the element
// shell (session, language, texts) and a site whose navigation is recorded instead of moving the address bar.
// The channel API is a FakeServer (test/unit/helpers.ts): script the answers a page needs with `server.on(...)`.
import { createRoot, type Root } from 'react-dom/client';
import type { ComponentType } from 'react';
import type { MenuItem, Page } from '../../src/api/contract.js';
import { SiteProvider, type Site } from '../../src/components/app/site.js';
import { ElementShell } from '../../src/components/ui/shell.js';
import { tagViewHost } from '../../src/components/ui/view.js';
import { resetEnv, setEnv } from '../../src/lib/env.js';
import { channelPagesOf, matchRoute, type Route } from '../../src/lib/routes.js';
import { ExpiringStorage, MemoryStorage } from '../../src/lib/storage.js';
import { setConfig } from '../../src/stores/config.js';
import { resetSession } from '../../src/stores/session.js';
import { FakeServer, ok } from '../unit/helpers.js';

/** Where the fake channel lives. */
export const API = 'http://api.test/api';
export const KEYS = 'http://api.test/keys';

/** A page rendered by `renderSitePage`. */
export interface RenderedPage {
  host: HTMLElement;
  root: ShadowRoot;
  server: FakeServer;
  /** Site paths the page asked to navigate to, in order. */
  navigations: string[];
  /** The page's visible text. */
  text(): string;
  /** Titles PageHeading reported. */
  headings: string[];
  unmount(): void;
}

/** Answers the start-up calls (keys, api key, settings, colours, geo) with a minimal English channel. */
export function startupRoutes(server: FakeServer, settings: Record<string, unknown> = {}): void {
  server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo', name: 'Demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-123' }))
    .on('GET', `${API}/settings`, ok({ name: 'Demo Sports', language: 'en', currency: 'USD', ...settings }))
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country: 'US', country_code: 'US', ip: '1.2.3.4', is_geo_blocked: false }));
}

/**
 * Renders `Page` as the site would at `path` (below the base, with its query). `setup` scripts the fake API before
 * anything is requested; start-up answers are scripted already.
 */
export function renderSitePage(
  Page: ComponentType,
  options: {
    path?: string;
    lang?: 'en' | 'fr';
    menu?: MenuItem[];
    pages?: Page[];
    setup?: (server: FakeServer) => void;
  } = {},
): RenderedPage {
  resetEnv();
  resetSession();
  const server = new FakeServer(() => Date.now());
  startupRoutes(server);
  options.setup?.(server);
  setEnv({
    fetch: server.fetch,
    storage: new ExpiringStorage(
      () => new MemoryStorage(),
      () => Date.now(),
    ),
    logger: { error: () => undefined, warn: () => undefined, info: () => undefined },
  });
  setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');

  const url = new URL(options.path ?? '/', 'http://site.invalid');
  const pages = options.pages ?? [];
  const route: Route = matchRoute(url.pathname, Object.fromEntries(url.searchParams), channelPagesOf(pages)) ?? {
    name: 'notFound',
    params: {},
    path: '/404',
    query: {},
  };
  const navigations: string[] = [];
  const headings: string[] = [];
  const site: Site = {
    route,
    navigate: (to) => void navigations.push(to),
    href: (to) => `/site${to === '/' ? '/' : to}`,
    menu: options.menu ?? [],
    pages,
    headingShown: (_el, title) => void headings.push(title),
  };
  const host = document.createElement('div');
  document.body.appendChild(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const mount = document.createElement('div');
  shadow.appendChild(mount);
  const react: Root = createRoot(mount);
  react.render(
    <ElementShell container={shadow} lang={options.lang ?? 'en'} css="" viewHost={tagViewHost(host)}>
      {() => (
        <SiteProvider value={site}>
          <Page />
        </SiteProvider>
      )}
    </ElementShell>,
  );
  return {
    host,
    root: shadow,
    server,
    navigations,
    headings,
    text: () => shadow.textContent ?? '',
    unmount() {
      react.unmount();
      host.remove();
      resetEnv();
    },
  };
}
