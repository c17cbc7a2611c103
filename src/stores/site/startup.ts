/**
 * The site's start-up, on top of the session's (keys, settings, colours, profile or geo): the channel's menu and
 * pages alongside settings, then participant groups, participants and event categories in the background. Also the
 * viewer's language choice and country, kept in local storage as the spec asks.
 */
import { atom } from 'nanostores';
import { siteApi, type MenuItem, type Page } from '../../api/site-schemas.js';
import { ApiError } from '../../api/errors.js';
import { failed, IDLE, LOADING, ready, type Async } from '../../lib/async.js';
import { env } from '../../lib/env.js';
import { toLang, type Lang } from '../../lib/lang.js';
import { channelPagesOf, type ChannelPage } from '../../lib/routes.js';
import { categories, participantGroups, participants } from '../catalog.js';
import { $config } from '../config.js';
import { $geo, currentApiKey, getClient, reloadSession, startSession } from '../session.js';

/** What the site adds to the session: the menu, the content pages and the paths they open. */
export interface SiteData {
  menu: MenuItem[];
  pages: Page[];
  channelPages: ChannelPage[];
}

/** The site's data, once loaded. */
export const $siteData = atom<Async<SiteData, ApiError>>(IDLE);

let loading: Promise<void> | undefined;

/** Runs the site's start-up once (again after a failure, or after `reloadSite`). */
export function startSite(): Promise<void> {
  if (loading) return loading;
  $siteData.set(LOADING);
  loading = (async () => {
    try {
      const api = getClient();
      // The spec's order: the keys first, then settings, menu, pages, colours and the profile together (the
      // session's start-up asks for settings and colours as soon as the channel key is in; it runs meanwhile).
      const session = startSession();
      await currentApiKey();
      const [menu, pages] = await Promise.all([
        api.call(siteApi.menu, { global: true }),
        api.call(siteApi.pages, { global: true }),
        session,
      ]);
      const channelPages = channelPagesOf([...pages.data, ...menuPages(menu.data)]);
      $siteData.set(ready({ menu: menu.data, pages: pages.data, channelPages }));
      // Afterwards, in the background: what filters, favourites and the home's groups need.
      for (const list of [participantGroups, participants, categories]) list.load().catch(() => undefined);
    } catch (error) {
      const failure =
        error instanceof ApiError
          ? error
          : new ApiError('network', error instanceof Error ? error.message : String(error));
      env().logger.error(`channel-elements: the site could not start: ${failure.message}`);
      $siteData.set(failed(failure));
      loading = undefined;
    }
  })();
  return loading;
}

/** The Reload button of the site's start-up error: a new api key, then the page reloaded (reloadSession). */
export async function reloadSite(): Promise<void> {
  loading = undefined;
  await reloadSession();
}

/** Page entries of the menu (`type: page` with a site url): they open the generic content page too. */
function menuPages(menu: readonly MenuItem[]): { id: number; name: string; url: string }[] {
  return menu.filter((item) => item.type === 'page' && item.url).map((item) => ({ ...item, url: item.url! }));
}

const LANGUAGE_KEY = 'language';
const COUNTRY_KEY = 'country';

/** The language the viewer chose in the site's switch, if any. */
export const $chosenLanguage = atom<Lang | undefined>(undefined);

/** Reads the stored language choice (once the session's storage is in place). */
export function loadLanguageChoice(): void {
  $chosenLanguage.set(toLang(env().storage.get(LANGUAGE_KEY, (v): v is string => typeof v === 'string')));
}

/** The viewer picked a language: kept in local storage and used by the whole site at once. */
export function chooseLanguage(lang: Lang): void {
  env().storage.set(LANGUAGE_KEY, lang);
  $chosenLanguage.set(lang);
}

// The country of the geo answer is kept alongside the language (spec: both in local storage).
$geo.listen((geo) => {
  if (geo?.country_code) env().storage.set(COUNTRY_KEY, geo.country_code);
});

/** Forgets the site's data (a new configuration, or tests). */
export function resetSite(): void {
  loading = undefined;
  $siteData.set(IDLE);
  $chosenLanguage.set(undefined);
}

$config.listen(resetSite);
