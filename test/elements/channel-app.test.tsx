// Element tests of <channel-app>: the site's start-up sequence over the wire, the layout (menu from the API, the
// account entry, the language switch, the collapsed menu), in-app navigation by link clicks (and what is left to
// the browser), the guards at start-up, the WHOOPS screen with Reload, and axe. The channel API is a FakeServer;
// the page's address and history are faked through the environment, so nothing here moves the test page.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { start } from '../../elements/channel-app.js';
import { resetEnv, setEnv } from '../../src/lib/env.js';
import { ExpiringStorage, MemoryStorage } from '../../src/lib/storage.js';
import { resetSession } from '../../src/stores/session.js';
import { resetSite } from '../../src/stores/site/startup.js';
import { fakeAddress, FakeServer, ok } from '../unit/helpers.js';
import { API, KEYS, startupRoutes } from './site-harness.js';

declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function before(body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

const MENU = [
  { id: 1, name: 'Live', url: '/live', type: 'link' },
  {
    id: 2,
    name: 'Schools',
    type: 'group',
    items: [
      { id: 21, name: 'Northfield', alias: 'northfield', custom_icon: '/media/logos/northfield.svg' },
      { id: 22, name: 'No Alias U', alias: null },
    ],
  },
  { id: 3, name: 'Partners', url: '/partners', type: 'page' },
  { id: 4, name: 'Elsewhere', url: 'https://elsewhere.example/', type: 'link' },
];
const PAGES = [{ id: 9, name: 'Partners', alt_name: null, url: '/partners' }];

let server: FakeServer;
let storage: ExpiringStorage;

function world(path = '/', setup: (s: FakeServer) => void = () => undefined) {
  resetEnv();
  resetSession();
  resetSite();
  server = new FakeServer(() => Date.now());
  startupRoutes(server);
  server
    .on('GET', `${API}/menu`, ok(MENU))
    .on('GET', `${API}/pages`, ok(PAGES))
    .on('GET', `${API}/participant-groups`, ok([]))
    .on('GET', `${API}/participants`, ok([]))
    .on('GET', `${API}/events-categories`, ok([]));
  setup(server);
  storage = new ExpiringStorage(
    () => new MemoryStorage(),
    () => Date.now(),
  );
  setEnv({
    fetch: server.fetch,
    storage,
    logger: { error: () => undefined, warn: () => undefined, info: () => undefined },
  });
  return fakeAddress(path);
}

const shadow = (el: Element) => el.shadowRoot!;
const text = (el: Element) => shadow(el).textContent ?? '';
async function shows(el: Element, words: string): Promise<void> {
  await waitUntil(() => text(el).includes(words), `expected "${words}" in "${text(el).slice(0, 300)}"`, {
    timeout: 5000,
  });
}

describe('<channel-app>', () => {
  before(() => {
    resetEnv();
    start({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
  });
  afterEach(() => {
    document.title = '';
    resetEnv();
  });

  it('runs the start-up sequence: keys, then settings, menu, pages, colours (and geo), then the catalogues', async () => {
    world('/faq', (s) => s.on('GET', `${API}/faq`, ok([])));
    const el = await fixture(html`<channel-app></channel-app>`);
    await shows(el, 'Live');
    await waitUntil(() => server.trail.some((t) => t.endsWith('/events-categories')), 'catalogues', { timeout: 4000 });
    const trail = server.trail;
    const at = (path: string) => trail.findIndex((t) => t.endsWith(path));
    expect(at('/keys/demo.json')).to.equal(0);
    for (const path of ['/settings', '/menu', '/pages', '/color-settings/web'])
      expect(at(path), path).to.be.greaterThan(0);
    for (const path of ['/menu', '/pages'])
      expect(at(path), `${path} after the api key`).to.be.greaterThan(at('/get_api_key'));
    for (const path of ['/participant-groups', '/participants', '/events-categories'])
      expect(at(path), `${path} after the menu and pages`).to.be.greaterThan(Math.max(at('/menu'), at('/pages')));
  });

  it('shows the menu with its school entries (alias, else name, as the group query) and external links apart', async () => {
    world('/');
    const el = await fixture(html`<channel-app></channel-app>`);
    await shows(el, 'Schools');
    const links = [...shadow(el).querySelectorAll<HTMLAnchorElement>('nav a')];
    const hrefOf = (name: string) => links.find((a) => a.textContent === name)?.getAttribute('href');
    expect(hrefOf('Live')).to.equal('/live');
    expect(hrefOf('Northfield')).to.equal('/?group=northfield');
    expect(hrefOf('No Alias U')).to.equal('/?group=No+Alias+U');
    const out = links.find((a) => a.textContent === 'Elsewhere')!;
    expect(out.getAttribute('rel')).to.equal('noopener noreferrer');
    const group = shadow(el).querySelector<HTMLButtonElement>('[part~="menu-group"] button')!;
    expect(group.getAttribute('aria-expanded')).to.equal('false');
    group.click();
    await waitUntil(() => group.getAttribute('aria-expanded') === 'true');
    await expect(el).shadowDom.to.be.accessible();
  });

  it('a plain click on a site link navigates in the app; a modified click and other origins are the browser’s', async () => {
    const page = world('/', (s) =>
      s.on('GET', `${API}/pages/partners`, ok({ id: 9, name: 'Partners', url: '/partners', blocks: [] })),
    );
    const el = await fixture(html`<channel-app base="/"></channel-app>`);
    await shows(el, 'Partners');
    const link = [...shadow(el).querySelectorAll<HTMLAnchorElement>('nav a')].find(
      (a) => a.textContent === 'Partners',
    )!;
    const modified = new MouseEvent('click', { bubbles: true, composed: true, cancelable: true, ctrlKey: true });
    // The browser would open a tab: stop it here, after the site had its say.
    document.addEventListener('click', (e) => e.preventDefault(), { once: true });
    link.dispatchEvent(modified);
    expect(page.pushed, 'a modified click is left alone').to.deep.equal([]);
    link.click();
    expect(page.pushed).to.deep.equal(['/partners']);
    await waitUntil(() => document.title.startsWith('Partners'), `title ${document.title}`, { timeout: 4000 });
  });

  it('an unknown path waits for the pages, then is the 404 with a link home', async () => {
    const page = world('/nowhere');
    const el = await fixture(html`<channel-app></channel-app>`);
    await shows(el, 'Looks like we lose this page');
    expect(page.path).to.equal('/404');
    const home = shadow(el).querySelector<HTMLAnchorElement>('[part~="not-found"] a')!;
    expect(home.textContent).to.equal('Go to Home page');
    expect(home.getAttribute('href')).to.equal('/');
  });

  it('a stored sign-in on an auth page goes home; a temporary password holds the viewer on /profile/edit', async () => {
    const page = world('/login', (s) =>
      s.on('GET', `${API}/profile`, ok({ id: 5, email: 'viewer@example.com', temporary_password: true })),
    );
    storage.set('token.demo', 'tok-1');
    await fixture(html`<channel-app></channel-app>`);
    await waitUntil(() => page.path === '/profile/edit', `at ${page.path}`, { timeout: 5000 });
  });

  it('a signed-in viewer is not sent away from a reset link: its page asks to sign out first; Stay signed in goes on', async () => {
    const page = world('/password-reset?email=other%40example.com&token=t-1', (s) =>
      s.on('GET', `${API}/profile`, ok({ id: 5, email: 'viewer@example.com' })),
    );
    storage.set('token.demo', 'tok-1');
    const el = await fixture(html`<channel-app></channel-app>`);
    await shows(el, 'This link is for other@example.com, but you are signed in as viewer@example.com.');
    expect(page.path, 'the one-time values are gone, the page stays').to.equal('/password-reset');
    expect(server.to('POST', `${API}/auth/password-reset`)).to.have.length(0);
    shadow(el).querySelector<HTMLButtonElement>('[part~="signed-in-as"] ~ .actions [part~="continue"]')!.click();
    await waitUntil(() => page.path === '/', `at ${page.path}`, { timeout: 5000 });
  });

  it('the language switch turns the site French and keeps the choice', async () => {
    world('/');
    const el = await fixture(html`<channel-app></channel-app>`);
    await shows(el, 'Sign in');
    const select = shadow(el).querySelector<HTMLSelectElement>('[part~="language"] select')!;
    select.value = 'fr';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await shows(el, 'Se connecter');
    expect(storage.get('language', (v): v is string => typeof v === 'string')).to.equal('fr');
  });

  describe('a French channel on an English page (a CMS\'s default <html lang="en">)', () => {
    const french = (s: FakeServer) =>
      s.on('GET', `${API}/settings`, ok({ name: 'Démo Sports', language: 'fr', currency: 'EUR' }));
    let pageLang: string | null;
    before(() => {
      pageLang = document.documentElement.getAttribute('lang');
    });
    afterEach(() => {
      if (pageLang === null) document.documentElement.removeAttribute('lang');
      else document.documentElement.setAttribute('lang', pageLang);
    });
    const frameLang = (el: Element) => shadow(el).querySelector('[part~="frame"]')?.getAttribute('lang');

    it("speaks the channel's language: the page's lang does not decide for the whole site", async () => {
      world('/nowhere', french);
      document.documentElement.setAttribute('lang', 'en');
      const el = await fixture(html`<div lang="en"><channel-app></channel-app></div>`);
      const app = el.querySelector('channel-app')!;
      await shows(app, 'On dirait que nous avons perdu cette page');
      expect(text(app)).to.include('Se connecter').and.include('Langue');
      expect(text(app)).to.not.include('Sign in');
      expect(frameLang(app)).to.equal('fr');
    });

    it("the element's own lang or data-lang wins over the channel's", async () => {
      world('/nowhere', french);
      document.documentElement.setAttribute('lang', 'en');
      const own = await fixture(html`<channel-app lang="en"></channel-app>`);
      await shows(own, 'Looks like we lose this page');
      expect(text(own)).to.include('Sign in').and.include('Language');
      own.remove();
      // data-lang on the element counts as lang does (a lang around it, here French, does not).
      world('/nowhere', french);
      const around = await fixture(html`<div lang="fr"><channel-app data-lang="en"></channel-app></div>`);
      const data = around.querySelector('channel-app')!;
      await shows(data, 'Looks like we lose this page');
      expect(frameLang(data)).to.equal('en');
    });

    it("the viewer's choice in the switch wins over the element's lang and the channel's", async () => {
      world('/nowhere', french);
      document.documentElement.setAttribute('lang', 'en');
      storage.set('language', 'fr');
      const el = await fixture(html`<channel-app lang="en"></channel-app>`);
      await shows(el, 'On dirait que nous avons perdu cette page');
      const select = shadow(el).querySelector<HTMLSelectElement>('[part~="language"] select')!;
      select.value = 'en';
      select.dispatchEvent(new Event('change', { bubbles: true }));
      await shows(el, 'Looks like we lose this page');
      expect(frameLang(el)).to.equal('en');
    });
  });

  it('a failed start-up shows WHOOPS with Reload, which fetches a new api key and then reloads the page', async () => {
    // The network fails (a server error would be an api-key error: Reload would wait 60 s).
    world('/', (s) => s.on('GET', `${API}/menu`, new TypeError('Failed to fetch')));
    const reloads: string[] = [];
    setEnv({ reloadPage: () => void reloads.push(server.calls.map((c) => c.path).join(' ')) });
    const el = await fixture(html`<channel-app></channel-app>`);
    await shows(el, 'WHOOPS!');
    const keysBefore = server.to('POST', `${API}/get_api_key`).length;
    shadow(el).querySelector<HTMLButtonElement>('[part~="error"] button')!.click();
    await waitUntil(() => reloads.length === 1, 'the page reloaded');
    expect(server.to('POST', `${API}/get_api_key`), 'a new api key first').to.have.length(keysBefore + 1);
    expect(reloads[0]!.endsWith(`${API}/get_api_key`), 'the key, then the reload').to.equal(true);
  });
});
