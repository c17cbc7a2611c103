// The site's library pages in the site harness against a fake channel API: /vod_library (heading, rails, links
// through the site's base, a category from the query) and /watch_library/{id} (the player, the item's details, the
// "More in" rail without the item itself, ?type=clip), French and axe.
import { expect, waitUntil } from '@open-wc/testing';
import LibraryPage from '../../src/components/app/pages/Library.js';
import WatchLibraryPage from '../../src/components/app/pages/WatchLibrary.js';
import { ok, type FakeServer } from '../unit/helpers.js';
import { CATEGORIES, CATEGORY_ITEMS, item, pagedItems, RAILS, searchAnswer } from './library-fixtures.js';
import { API, renderSitePage, type RenderedPage } from './site-harness.js';

declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

/** The item the watch page shows: basketball's first, with a length, a description and no category name. */
const SHOWN = { ...CATEGORY_ITEMS[0]!, duration: 3725 };

function api(server: FakeServer): void {
  server
    .on('GET', `${API}/vod-media-rails`, ok(RAILS))
    .on('GET', `${API}/vod-media-categories`, ok(CATEGORIES))
    .on('GET', `${API}/vod-media-items`, pagedItems(CATEGORY_ITEMS))
    .on('GET', `${API}/vod-media/search`, searchAnswer(CATEGORY_ITEMS))
    .on('GET', `${API}/vod-media-items/${SHOWN.id}`, ok(SHOWN))
    .on('GET', `${API}/vod-media-items/9`, ok(item(9, 'A clip id, not an item')));
}

let page: RenderedPage | undefined;
afterEach(() => {
  page?.unmount();
  page = undefined;
});

const $ = <T extends Element = HTMLElement>(selector: string) => page!.root.querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(selector: string) => [...page!.root.querySelectorAll<T>(selector)];
const requests = (path: string) => page!.server.to('GET', `${API}/${path}`);
async function shows(words: string): Promise<void> {
  await waitUntil(() => page!.text().includes(words), `expected "${words}" in "${page!.text().slice(0, 300)}"`, {
    timeout: 4000,
  });
}

describe('site library pages', () => {
  it('/vod_library: the page heading, the rails, and card links through the site', async () => {
    page = renderSitePage(LibraryPage, { path: '/vod_library', setup: api });
    await waitUntil(() => $$('[part~="library-rail"]').length === 2, 'two rails', { timeout: 4000 });
    expect($('h1')!.textContent).to.equal('Video library');
    expect(page.headings).to.include('Video library');
    // The page heading is the view's: its sections are headed one level below it.
    expect($$('h2').map((h) => h.textContent)).to.deep.equal(['Featured', 'Hockey classics']);
    expect($<HTMLAnchorElement>('[part~="library-card"]')!.getAttribute('href')).to.equal('/site/watch_library/201');
    await expect(page.root.host).shadowDom.to.be.accessible();
  });

  it('/vod_library?category=basketball opens that category', async () => {
    page = renderSitePage(LibraryPage, { path: '/vod_library?category=basketball', setup: api });
    await waitUntil(() => $$('[part~="category-items"] [part~="library-card"]').length === 12, 'the category');
    expect(requests('vod-media-items')[0]!.query.vod_media_category_id).to.equal('1');
  });

  it('/vod_library?category_id=1 (the contract’s name) opens that category too', async () => {
    page = renderSitePage(LibraryPage, { path: '/vod_library?category_id=1', setup: api });
    await waitUntil(() => $$('[part~="category-items"] [part~="library-card"]').length === 12, 'the category');
    expect(requests('vod-media-items')[0]!.query.vod_media_category_id).to.equal('1');
  });

  it('/watch_library/{id}: the player, the details, and "More in {category}" without the item itself', async () => {
    page = renderSitePage(WatchLibraryPage, { path: `/watch_library/${SHOWN.id}`, setup: api });
    await shows('More in Basketball');
    expect($('h1')!.textContent).to.equal(SHOWN.title);
    expect($('[part~="player"]')).to.not.equal(null);
    const details = $('[part~="library-details"]')!;
    expect(details.querySelector('[part~="library-details-title"]')!.textContent).to.equal(SHOWN.title);
    expect([...details.querySelectorAll('dt')].map((d) => d.textContent)).to.deep.equal(['Date', 'Length', 'Category']);
    expect([...details.querySelectorAll('dd')].map((d) => d.textContent)).to.deep.equal([
      'Mar 14, 2026',
      '1:02:05',
      'Basketball',
    ]);
    expect(details.querySelector('[part~="library-details-description"]')!.textContent).to.equal(SHOWN.description);
    // The item names its category by id: the name came from the categories.
    expect(requests('vod-media-categories')).to.have.length(1);
    const rail = $('[part~="library-rail"]')!;
    const hrefs = [...rail.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).to.have.length(11);
    expect(hrefs).to.not.include(`/site/watch_library/${SHOWN.id}`);
    expect(requests('vod-media-items')[0]!.query).to.include({ vod_media_category_id: '1', offset: '0', limit: '12' });
    await expect(page.root.host).shadowDom.to.be.accessible();
  });

  it('/watch_library/{id}?type=clip plays the clip: no library details, no category rail', async () => {
    page = renderSitePage(WatchLibraryPage, { path: '/watch_library/9?type=clip', setup: api });
    await waitUntil(() => $('h1')?.textContent === 'Clip', 'the clip heading', { timeout: 4000 });
    await new Promise((r) => setTimeout(r, 100));
    expect($('[part~="library-details"]')).to.equal(null);
    expect(requests('vod-media-items')).to.have.length(0);
  });

  it('French', async () => {
    page = renderSitePage(WatchLibraryPage, { path: `/watch_library/${SHOWN.id}`, lang: 'fr', setup: api });
    await shows('Plus dans Basketball');
    expect([...$('[part~="library-details"]')!.querySelectorAll('dt')].map((d) => d.textContent)).to.deep.equal([
      'Date',
      'Durée',
      'Catégorie',
    ]);
  });
});
