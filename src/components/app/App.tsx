/**
 * `<channel-app>`'s root: the whole channel site in one React root and one shadow root. It runs the site's start-up
 * (the session's, plus menu and pages), owns the router (history mode under `base`), turns clicks on site links into
 * in-app navigation, renders the layout around the current route's page (each page a lazy chunk), and answers the
 * views' requests with navigation. After each change it scrolls to the top, names the page in `document.title`,
 * moves focus to the page's heading, announces it, and sends the page view.
 */
import { useStore } from '../ui/use-store.js';
import { Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ChannelLoginEvent, ChannelLogoutEvent, ChannelPurchaseCompleteEvent } from '../../events/account.js';
import { loadNamespace } from '../../i18n/index.js';
import { ACCOUNT_SCREEN_PATHS } from '../../lib/account-routes.js';
import { siteLang } from '../../lib/lang.js';
import { AUTH_ROUTES, type Route, type RouteName } from '../../lib/routes.js';
import { createRouter, pathOf, type Router } from '../../stores/router.js';
import { returnPath, routeShown, siteGuard } from '../../stores/site/navigation.js';
import { $chosenLanguage, $siteData, loadLanguageChoice, reloadSite, startSite } from '../../stores/site/startup.js';
import { $config } from '../../stores/config.js';
import { $settings, $user } from '../../stores/session.js';
import { useElement } from '../ui/context.js';
import { errorText } from '../ui/messages.js';
import { useNamespace } from '../ui/namespace.js';
import { ErrorBoundary } from '../ui/boundary.js';
import { LoadingPanel } from '../ui/panels.js';
import { ElementShell, StartupError, type ShellProps } from '../ui/shell.js';
import { tagViewHost, type OpenRequest, type ViewHost } from '../ui/view.js';
import { appCss } from './app-styles.js';
import { Footer, Header } from './Layout.js';
import { inAppPath } from './links.js';
import { pageKind, pageOf } from './pages/registry.js';
import { SiteProvider, type Site } from './site.js';

/** The attributes of `<channel-app>`. */
export const APP_PROPS = ['base', 'lang', 'dataLang'] as const;

/** Raw attribute values. */
export type AppProps = Partial<Record<(typeof APP_PROPS)[number], string>>;

/** The routes a purchase started on a watch page may pass through before it returns there. */
const CHECKOUT_DETOUR: readonly RouteName[] = [
  'buy',
  'packages',
  'selectPackage',
  'login',
  'registration',
  'verifyNotice',
];

/** Profile sections that have their own address. */
const SECTION_PATHS: Record<string, string> = {
  orders: '/profile',
  transactions: '/profile/transactions',
  clips: '/profile/clips',
  devices: '/profile/sessions/add',
  edit: '/profile/edit',
};

/** The element's root component. */
export function App(props: AppProps & ShellProps): ReactNode {
  const container = props.container;
  const host = (container instanceof ShadowRoot ? container.host : container) as HTMLElement | undefined;
  const base = props.base;
  const router = useMemo(() => createRouter(base, { guard: siteGuard }), [base]);
  useEffect(() => () => router.destroy(), [router]);
  const checkoutReturn = useRef<string | undefined>(undefined);

  useEffect(() => {
    loadLanguageChoice();
    void startSite();
    // The site's texts load alongside start-up (in the likely language, the channel's still unknown; the shell
    // settles the real one).
    void loadNamespace(
      siteLang(host, $chosenLanguage.get(), props.lang, props.dataLang, $config.get()?.lang, undefined),
      'site',
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per site: start-up, and the texts in the language likely then
  }, []);

  // A purchase's way back lasts while the viewer stays in the checkout (or signs in on the way).
  useEffect(
    () =>
      router.$route.listen((route) => {
        if (!CHECKOUT_DETOUR.includes(route.name as RouteName)) checkoutReturn.current = undefined;
      }),
    [router],
  );

  // Clicks on links to site paths anywhere in the shadow root navigate in the app; everything else is the
  // browser's. On the root itself, from the first render, so no click can slip through before a page is shown.
  useEffect(() => {
    if (!container) return;
    const onClick = (event: Event) => {
      const click = event as MouseEvent;
      const link = click.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
      if (!link?.hasAttribute('href')) return;
      const target = { href: link.href, target: link.target, download: link.hasAttribute('download') };
      const to = inAppPath(click, target, location.origin, router.base);
      if (to === undefined) return;
      click.preventDefault();
      router.navigate(to);
    };
    container.addEventListener('click', onClick);
    return () => container.removeEventListener('click', onClick);
  }, [container, router]);

  // The tag's answers (public events from the element, the light DOM for Stripe's field) with the site's own:
  // navigation for what views ask, and what the site does after their news. The router adds no history entry for
  // the page the viewer is already on (a view asking for the screen it shows).
  const viewHost = useMemo<ViewHost>(() => {
    const tag = host ? tagViewHost(host) : undefined;
    const go = (to: string, options?: { replace?: boolean }) => router.navigate(to, options);
    const emit = (event: Event) => {
      const handled = tag ? tag.emit(event) : true;
      // A sign-in returns to the last page (a registration first shows the verification notice), a purchase to the
      // page it started from.
      if (event instanceof ChannelLoginEvent) {
        go(event.detail.method === 'register' ? '/verify-notice' : returnPath(), { replace: true });
      } else if (event instanceof ChannelLogoutEvent) {
        router.recheck();
      } else if (event instanceof ChannelPurchaseCompleteEvent && checkoutReturn.current) {
        const back = checkoutReturn.current;
        checkoutReturn.current = undefined;
        // Replacing the checkout's entry: Back from the watch page does not offer the pass just bought again.
        go(back, { replace: true });
      }
      return handled;
    };
    const open = (request: OpenRequest): boolean => {
      const now = router.$route.get();
      switch (request.to) {
        case 'event':
          go(`/watch/${request.id}`);
          return false;
        case 'library-item':
          go(`/watch_library/${request.id}`);
          return false;
        case 'offer': {
          const { offer } = request;
          const query =
            offer.type === 'event'
              ? `event_id=${offer.id}${offer.packageId ? `&single_event_package_id=${offer.packageId}` : ''}`
              : `${offer.type}_id=${offer.id}`;
          // A purchase started on a watch page comes back to it, playing.
          checkoutReturn.current = now.name === 'watch' ? pathOf(now) : undefined;
          go(`/buy?${query}`);
          return false;
        }
        case 'sign-in':
          go('/login');
          return false;
        case 'profile': {
          const path = SECTION_PATHS[request.section];
          if (!path) return true;
          go(path);
          return false;
        }
        case 'account': {
          const onAuthPage = AUTH_ROUTES.includes(now.name as RouteName);
          if (request.screen === 'home') {
            if (onAuthPage) go(returnPath(), { replace: true });
            return true;
          }
          if (onAuthPage) go(ACCOUNT_SCREEN_PATHS[request.screen], { replace: request.replace ?? false });
          return true;
        }
      }
    };
    return {
      emit,
      open,
      reveal: () => undefined,
      attachLight: (node) => tag?.attachLight(node) ?? (() => undefined),
      siteHref: (path) => router.href(path),
    };
  }, [host, router]);

  const chosen = useStore($chosenLanguage);
  // The site's own rule (lib/lang.ts `siteLang`): a `lang` around it does not win over the channel's language.
  const langOf = (at: HTMLElement, channelLang: string | undefined) =>
    siteLang(at, chosen, props.lang, props.dataLang, $config.get()?.lang, channelLang);
  return (
    <ElementShell
      container={container}
      lang={props.lang}
      langOf={langOf}
      css={appCss}
      viewHost={viewHost}
      onReload={reloadSite}
    >
      {() => <SiteBody router={router} />}
    </ElementShell>
  );
}

/** The site once the session is up: waits for the site's own start-up, then the layout and the page. */
function SiteBody(props: { router: Router }): ReactNode {
  const { t } = useElement();
  const data = useStore($siteData);
  const route = useStore(props.router.$route);
  const user = useStore($user);
  const settings = useStore($settings);
  const { router } = props;
  const textsReady = useNamespace('site');

  // The channel's pages become routes once known (a path waiting for them resolves then).
  useEffect(() => {
    if (data.status === 'ready') router.setPages(data.value.channelPages);
  }, [data, router]);
  // Who the viewer is changed (the profile arrived, a sign-in or sign-out, a temporary password): guards again.
  useEffect(() => router.recheck(), [user, settings, router]);

  if (data.status === 'error') {
    return <StartupError message={errorText(data.error, t)} onReload={reloadSite} />;
  }
  if (data.status !== 'ready' || route.name === 'pending' || !textsReady) {
    return <LoadingPanel text={t('common.loading')} />;
  }
  return (
    <div className={route.name === 'watchEmbed' ? 'site plain' : 'site'} part="site">
      <SitePage route={route} router={router} />
    </div>
  );
}

/**
 * Moves focus to a page's heading, and again over the next frames if it fell to the document (a node that held it
 * was removed meanwhile: the leaving page, a loading panel), until the heading has it or the viewer moved it.
 */
function focusSoon(heading: HTMLElement, tries = 5): void {
  heading.focus({ preventScroll: true });
  const root = heading.getRootNode() as ShadowRoot | Document;
  if (tries <= 1) return;
  requestAnimationFrame(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (heading.isConnected && root.activeElement !== heading && lost) focusSoon(heading, tries - 1);
    else if (heading.isConnected && root.activeElement === heading)
      requestAnimationFrame(() => {
        if (heading.isConnected && (!document.activeElement || document.activeElement === document.body))
          focusSoon(heading, tries - 1);
      });
  });
}

/** The layout and the page of one route, with the focus, title, scroll and announcement duties of a change. */
function SitePage(props: { route: Route; router: Router }): ReactNode {
  const { t } = useElement();
  const { route, router } = props;
  const data = useStore($siteData);
  const settings = useStore($settings);
  const [announced, setAnnounced] = useState('');
  const shownKey = useRef<string | undefined>(undefined);
  const key = pathOf(route);

  // Every change but the first address scrolls to the top.
  useEffect(() => {
    if (router.previous()) window.scrollTo(0, 0);
  }, [key, router]);

  const channelName = settings?.name ?? '';
  const site = useMemo<Site>(
    () => ({
      route,
      navigate: (to, options) => router.navigate(to, options),
      href: (to) => router.href(to),
      menu: data.status === 'ready' ? data.value.menu : [],
      pages: data.status === 'ready' ? data.value.pages : [],
      headingShown(heading, title) {
        // After the frame: the page that was shown re-runs its heading's effect with this new site before it
        // unmounts; only a heading still on the page names it.
        requestAnimationFrame(() => {
          if (!heading.isConnected || heading.getClientRects().length === 0) return;
          document.title = channelName && title !== channelName ? `${title} | ${channelName}` : title || channelName;
          if (shownKey.current === key) return;
          shownKey.current = key;
          routeShown(route, router.previous(), title);
          // The first page of a visit keeps the browser's focus; later ones move it to their heading.
          if (!router.previous()) return;
          focusSoon(heading);
          setAnnounced(title);
        });
      },
    }),
    [route, router, data, channelName, key],
  );

  const Page = pageOf(route.name);
  const plain = route.name === 'watchEmbed';
  return (
    <SiteProvider value={site}>
      {plain ? null : <Header />}
      <main className="site-main" part="main">
        {/* A page that fails (its chunk did not load, or it threw) shows a panel with Retry under the usable menu;
            a new route is a fresh start. */}
        <ErrorBoundary tag="channel-app" resetKey={route.path}>
          <Suspense fallback={<LoadingPanel text={t('common.loading')} />}>
            <Page key={pageKind(route.name) === 'content' ? key : pageKind(route.name)} />
          </Suspense>
        </ErrorBoundary>
      </main>
      {plain ? null : <Footer />}
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {announced}
      </p>
    </SiteProvider>
  );
}
