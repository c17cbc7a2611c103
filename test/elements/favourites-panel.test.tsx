// Element tests of the favourites panel (src/components/profile/FavouritesPanel.tsx), the `favourites` section
// of <channel-profile>. It is mounted here in a bare test element with the same shell every element uses, over
// a scripted fake server that records every request.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { ReactNode } from 'react';
import { Favourites } from '../../src/api/contract.js';
import { FavouritesPanel, favouritesCss } from '../../src/components/profile/FavouritesPanel.js';
import { ElementShell, type ShellProps } from '../../src/components/ui/shell.js';
import { env, resetEnv, setEnv } from '../../src/lib/env.js';
import { ExpiringStorage, MemoryStorage } from '../../src/lib/storage.js';
import { applyConfig } from '../../src/start.js';
import { resetSession } from '../../src/stores/session.js';
import { defineOnce, makeElement } from '../../elements/define.js';
import { FakeServer, ok, type Recorded } from '../unit/helpers.js';

declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function before(body: () => void | Promise<void>): void;
declare function beforeEach(body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';

function PanelHost(props: ShellProps): ReactNode {
  return (
    <ElementShell container={props.container} lang={props.lang} css={favouritesCss}>
      {() => <FavouritesPanel />}
    </ElementShell>
  );
}

// ------------------------------------------------------------------ the fake channel

/** 2030-03-02T00:00:00Z: Friday 7 PM in New York, the pinned time zone. */
const T0 = Date.UTC(2030, 2, 2) / 1000;
/** The Sharks have teams of their own (children), each also a participant. */
const SHARKS_U21 = { id: 14, name: 'Harbor City Sharks U21' };
const SHARKS_RESERVES = { id: 15, name: 'Harbor City Sharks Reserves' };
const PARTICIPANTS = [
  { id: 11, name: 'Northfield Huskies' },
  { id: 12, name: 'Lakeside State Lakers' },
  { id: 13, name: 'Harbor City Sharks', children: [SHARKS_RESERVES, SHARKS_U21] },
  SHARKS_U21,
  SHARKS_RESERVES,
];
const GROUPS = [
  { id: 1, name: 'Northfield University' },
  { id: 2, name: 'Lakeside State' },
];
const CATEGORIES = [{ id: 6, name: 'Hockey', children: [{ id: 7, name: "Men's Hockey" }] }];

type Kind = 'participant' | 'participant_group' | 'event_category';
const KIND_OF: Record<string, Kind> = {
  participant: 'participant',
  group: 'participant_group',
  category: 'event_category',
};
let favs: Favourites;
let next = 500;
let server: FakeServer;

const favourite = (id: number, type: string, target: number, name: string | null) => ({
  id,
  favoritable_id: target,
  favoritable_type: type,
  name,
});

function serve(): void {
  server = new FakeServer();
  favs = {
    participant: [favourite(31, 'participant', 11, 'Northfield Huskies'), favourite(34, 'participant', 12, null)],
    participant_group: [favourite(32, 'group', 1, 'Northfield University')],
    event_category: [favourite(33, 'category', 7, "Men's Hockey")],
    favorite_event: [{ id: 101, name: 'Lakeside State Lakers at Northfield Huskies', event_utc_ts: T0 }],
    event_location: [{ id: 1, name: 'Harbor Arena', city: 'Boston', state: 'MA' }],
  };
  // Fixtures must satisfy the contract, or a test could pass against data no server sends.
  if (!Favourites.safeParse(favs).success) throw new Error('test favourites break the contract');
  server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-123' }))
    .on('GET', `${API}/settings`, ok({ name: 'Demo', language: 'en', currency: 'USD' }))
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country_code: 'US', is_geo_blocked: false }))
    .on('GET', `${API}/profile`, (req) =>
      req.headers.authorization ? ok({ id: 7, email: 'fan@example.com' }) : { status: 401 },
    )
    .on('GET', `${API}/favorites`, () => ok(favs))
    .on('POST', `${API}/favorite`, (req: Recorded) => {
      const body = req.body as { favoritable_id: number; favoritable_type: string };
      const added = favourite(next++, body.favoritable_type, body.favoritable_id, null);
      favs[KIND_OF[body.favoritable_type]!].push(added);
      return ok(added);
    })
    .on('GET', `${API}/participants`, ok(PARTICIPANTS))
    .on('GET', `${API}/participant-groups`, ok(GROUPS))
    .on('GET', `${API}/events-categories`, ok(CATEGORIES));
  for (const id of [31, 32, 33, 34, 500]) {
    server.on('DELETE', `${API}/favorite/${id}`, () => {
      for (const kind of Object.values(KIND_OF)) favs[kind] = favs[kind].filter((f) => f.id !== id);
      return ok({ message: 'Removed' });
    });
  }
  setEnv({
    fetch: server.fetch,
    storage: new ExpiringStorage(
      () => new MemoryStorage(),
      () => Date.now(),
    ),
  });
  env().storage.set('token.demo', 'tok-fan');
}

// ------------------------------------------------------------------ DOM helpers

const root = (el: Element) => el.shadowRoot!;
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [
  ...root(el).querySelectorAll<T>(selector),
];
const text = (el: Element) => root(el).textContent ?? '';
const group = (el: Element, kind: string) =>
  root(el).querySelector<HTMLElement>(`[part~="favourite-group"][data-kind="${kind}"]`)!;
const names = (section: Element) =>
  [...section.querySelectorAll('[part~="favourite"] > span:first-child')].map((n) => n.textContent);
const trail = () =>
  server.trail.map((t) => t.replace(API, '')).filter((t) => !/keys|get_api_key|settings|color|geo|profile/.test(t));

async function ready(el: Element): Promise<void> {
  await waitUntil(() => root(el).querySelectorAll('[part~="favourite-group"]').length === 5, 'the five kinds', {
    timeout: 4000,
  });
}

async function choose(select: HTMLSelectElement, value: string): Promise<void> {
  // React tracks the value through its own setter; set it natively, then announce the change.
  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(select, value);
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

// ------------------------------------------------------------------ tests

describe('favourites panel', () => {
  before(() => {
    resetEnv();
    applyConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
    defineOnce('test-favourites-panel', () => makeElement(PanelHost, ['lang']));
  });
  beforeEach(() => {
    resetSession();
    serve();
  });
  afterEach(() => {
    resetSession();
    resetEnv();
  });

  it('lists the favourites by kind: teams, schools, sports, favourite events (with date) and event locations', async () => {
    const el = await fixture(html`<test-favourites-panel></test-favourites-panel>`);
    await ready(el);
    expect($$(el, '[part~="favourites"]')).to.have.length(1);
    expect($$(el, '[part~="favourite-group"] h3').map((h) => h.textContent)).to.deep.equal([
      'Teams',
      'Schools',
      'Sports',
      'Favourite events',
      'Event locations',
    ]);
    // A favourite without a name is named from the catalogue.
    await waitUntil(() => names(group(el, 'participant')).includes('Lakeside State Lakers'), 'the catalogue name');
    expect(names(group(el, 'participant'))).to.deep.equal(['Northfield Huskies', 'Lakeside State Lakers']);
    expect(names(group(el, 'participant_group'))).to.deep.equal(['Northfield University']);
    expect(names(group(el, 'event_category'))).to.deep.equal(["Men's Hockey"]);

    const event = group(el, 'favorite_event');
    expect(names(event)).to.deep.equal(['Lakeside State Lakers at Northfield Huskies']);
    const time = event.querySelector('time')!;
    expect(time.getAttribute('datetime')).to.equal('2030-03-02T00:00:00.000Z');
    expect(time.textContent).to.equal('Mar 1, 2030, 7:00 PM');
    expect(event.querySelector('[part~="favourite-remove"]'), 'derived kinds are read-only').to.equal(null);
    const location = group(el, 'event_location');
    expect(location.querySelector('[part~="favourite"]')!.textContent).to.equal('Harbor ArenaBoston, MA');

    expect($$(el, '[part~="favourite-remove"]').map((b) => b.getAttribute('aria-label'))).to.deep.equal([
      'Remove Northfield Huskies from favourites',
      'Remove Lakeside State Lakers from favourites',
      'Remove Northfield University from favourites',
      "Remove Men's Hockey from favourites",
    ]);
    expect($$(el, '[part~="favourite-add"]')).to.have.length(3);
    expect(trail().filter((t) => t === 'GET /favorites')).to.have.length(1);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('Remove sends DELETE favorite/{id}, reloads, and puts the focus on the next Remove button', async () => {
    const el = await fixture(html`<test-favourites-panel></test-favourites-panel>`);
    await ready(el);
    const teams = group(el, 'participant');
    const first = teams.querySelector<HTMLButtonElement>('[part~="favourite-remove"]')!;
    first.focus();
    first.click();
    await waitUntil(() => names(group(el, 'participant')).length === 1, 'the team removed');
    const del = server.to('DELETE', `${API}/favorite/31`);
    expect(del).to.have.length(1);
    expect(del[0]!.query.api_key).to.equal('ak-123');
    expect(del[0]!.headers.authorization).to.equal('Bearer tok-fan');
    await waitUntil(() => trail().filter((t) => t === 'GET /favorites').length === 2, 'reloaded after the delete');
    expect(trail().indexOf('DELETE /favorite/31')).to.be.below(trail().lastIndexOf('GET /favorites'));
    await waitUntil(
      () => root(el).activeElement?.getAttribute('aria-label') === 'Remove Lakeside State Lakers from favourites',
      'focus on the next row',
    );
    await waitUntil(() => text(el).includes('Northfield Huskies was removed from your favourites.'), 'announced');

    // The last one: the focus goes to the Add control of that kind.
    group(el, 'participant').querySelector<HTMLButtonElement>('[part~="favourite-remove"]')!.click();
    await waitUntil(() => text(el).includes('You follow no team yet.'), 'no team left');
    await waitUntil(
      () => root(el).activeElement === group(el, 'participant').querySelector('select'),
      'focus on the select',
    );
  });

  it('Add offers the catalogue minus what is chosen, and sends POST favorite', async () => {
    const el = await fixture(html`<test-favourites-panel></test-favourites-panel>`);
    await ready(el);
    const optionsOf = (kind: string) =>
      [...group(el, kind).querySelectorAll('select option')].map((o) => [o.getAttribute('value'), o.textContent]);
    await waitUntil(() => optionsOf('participant').length === 4, 'teams listed');
    // A team with teams of its own is a group of the picker: the team, then its teams.
    expect(optionsOf('participant')).to.deep.equal([
      ['', 'Choose…'],
      ['13', 'Harbor City Sharks'],
      ['15', 'Harbor City Sharks Reserves'],
      ['14', 'Harbor City Sharks U21'],
    ]);
    const sharks = group(el, 'participant').querySelector('optgroup')!;
    expect(sharks.label).to.equal('Harbor City Sharks');
    expect([...sharks.querySelectorAll('option')].map((o) => o.value)).to.deep.equal(['13', '15', '14']);
    await expect(el).shadowDom.to.be.accessible();
    await waitUntil(() => optionsOf('event_category').length === 2, 'sports listed');
    expect(optionsOf('event_category')).to.deep.equal([
      ['', 'Choose…'],
      ['6', 'Hockey'],
    ]);
    await waitUntil(() => optionsOf('participant_group').length === 2, 'schools listed');
    const schools = group(el, 'participant_group');
    expect(schools.querySelector('label')!.textContent).to.equal('Add a school');
    await choose(schools.querySelector('select')!, '2');
    schools.querySelector<HTMLButtonElement>('[part~="favourite-add"] button')!.click();
    await waitUntil(() => names(group(el, 'participant_group')).includes('Lakeside State'), 'the school added');
    const [post, ...more] = server.to('POST', `${API}/favorite`);
    expect(more).to.have.length(0);
    expect(post!.body).to.deep.equal({ favoritable_id: 2, favoritable_type: 'group', api_key: 'ak-123' });
    await waitUntil(() => trail().filter((t) => t === 'GET /favorites').length === 2, 'reloaded after the add');
    expect(optionsOf('participant_group')).to.deep.equal([['', 'Choose…']]);
    expect(schools.querySelector('select')!.value).to.equal('');
    await waitUntil(() => text(el).includes('Lakeside State was added to your favourites.'), 'announced');
  });

  it('a failed load shows an alert with Try again, which loads again', async () => {
    let fail = true;
    server.on('GET', `${API}/favorites`, () => (fail ? { status: 500, body: { message: 'Server Error' } } : ok(favs)));
    const el = await fixture(html`<test-favourites-panel></test-favourites-panel>`);
    // The client retries a 5xx once after 1 s.
    await waitUntil(() => text(el).includes('Your favourites could not be loaded.'), 'the error', { timeout: 4000 });
    const alert = root(el).querySelector('[role="alert"]')!;
    expect(alert.textContent).to.contain('Oops! We are currently experiencing technical difficulties');
    await expect(el).shadowDom.to.be.accessible();
    fail = false;
    alert.querySelector('button')!.click();
    await ready(el);
    expect(root(el).querySelector('[role="alert"]')).to.equal(null);
  });

  it('a load refused by the temporary-password lock (403) says why, translated', async () => {
    server.on('GET', `${API}/favorites`, {
      status: 403,
      body: { message: 'Choose a new password first: you signed in with a temporary password.' },
    });
    const el = await fixture(html`<test-favourites-panel lang="fr"></test-favourites-panel>`);
    await waitUntil(() => root(el).querySelector('[role="alert"]'), 'the alert', { timeout: 4000 });
    expect(root(el).querySelector('[role="alert"]')!.textContent).to.contain(
      "Vous vous êtes connecté avec un mot de passe temporaire. Choisissez d'abord un nouveau mot de passe dans votre profil.",
    );
  });

  it('a failed remove says so in an alert and keeps the favourite', async () => {
    server.on('DELETE', `${API}/favorite/33`, { status: 422, body: { message: 'Nope' } });
    const el = await fixture(html`<test-favourites-panel></test-favourites-panel>`);
    await ready(el);
    group(el, 'event_category').querySelector<HTMLButtonElement>('[part~="favourite-remove"]')!.click();
    await waitUntil(() => group(el, 'event_category').querySelector('[role="alert"]'), 'the alert');
    expect(group(el, 'event_category').querySelector('[role="alert"]')!.textContent).to.equal(
      "Men's Hockey could not be removed. Please try again.",
    );
    expect(names(group(el, 'event_category'))).to.deep.equal(["Men's Hockey"]);
  });

  it('speaks French', async () => {
    const el = await fixture(html`<test-favourites-panel lang="fr"></test-favourites-panel>`);
    await ready(el);
    expect($$(el, '[part~="favourite-group"] h3').map((h) => h.textContent)).to.deep.equal([
      'Équipes',
      'Écoles',
      'Sports',
      'Événements favoris',
      "Lieux d'événements",
    ]);
    const expected = new Intl.DateTimeFormat('fr', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(T0 * 1000),
    );
    expect(group(el, 'favorite_event').querySelector('time')!.textContent).to.equal(expected);
    expect($$(el, '[part~="favourite-remove"]')[0]!.textContent).to.equal('Retirer');
  });

  it('a guest sees no favourites and nothing is fetched', async () => {
    env().storage.remove('token.demo');
    const el = await fixture(html`<test-favourites-panel></test-favourites-panel>`);
    await waitUntil(() => text(el).includes('Sign in to see your favourites.'), 'the guest text', { timeout: 4000 });
    expect(trail()).to.deep.equal([]);
  });
});
