/** `<channel-app>`: the whole channel site in one element (routes, start-up, menus, home, pages, 404). */
import { App, APP_PROPS } from '../src/components/app/App.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/events.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * @attr base - the path the site lives under (default `/`; e.g. `/tv` inside a CMS site). Every path below it is
 *   the site's: the page's server must answer each with this page (see the README's "Deep links").
 * @attr lang - en | fr (default: the viewer's choice in the site's switch, else the page's, else the channel's)
 * @fires channel-login, channel-logout, channel-purchase-complete - as the standalone elements fire them
 * @csspart site, header, brand, menu-button, header-menu, nav, menu-item, menu-group, account, account-link,
 *   sign-in, sign-out, language, main, page-title, footer, static-block, not-found, not-available
 * @cssprop --channel-accent, --channel-radius, --channel-header-background, --channel-header-text-color
 */
export const createAppElement = () => makeElement(App, APP_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-app');
  defineOnce('channel-app', createAppElement);
}
