// The site's home page in the site harness against a fake channel API: the slides by type (the plain home's main
// slides; a school's own and its teams' with ?group=), the carousel's controls, keys and timing (it waits on hover
// and focus, never moves with reduced motion), slide links by kind, the lists below it, a failed slides call, French
// and axe.
import { expect, waitUntil } from '@open-wc/testing';
import HomePage from '../../src/components/app/pages/Home.js';
import { SLIDE_MS, slideLink } from '../../src/components/app/pages/Carousel.js';
import { setEnv } from '../../src/lib/env.js';
import { slidesFor } from '../../src/stores/site/home.js';
import { Deferred, ok, type FakeServer } from '../unit/helpers.js';
import { API, renderSitePage, type RenderedPage } from './site-harness.js';

declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

const SLIDES = [
  { id: 1, title: 'Finals week', image: '/media/art/a.svg', link: '/live', slidable_type: 'main', slidable_id: null },
  { id: 2, title: 'On demand', image: '/media/art/b.svg', link: 'https://elsewhere.example/x', slidable_type: null },
  {
    id: 3,
    title: 'Hockey',
    image: '/media/art/c.svg',
    link: 'javascript:alert(1)',
    slidable_type: 'category',
    slidable_id: 4,
  },
  {
    id: 4,
    title: 'Huskies',
    image: '/media/art/d.svg',
    link: '/?group=northfield',
    slidable_type: 'group',
    slidable_id: 1,
  },
  {
    id: 5,
    title: 'Huskies hoops',
    image: '/media/art/e.svg',
    link: '/schedule',
    slidable_type: 'participant',
    slidable_id: 11,
  },
  { id: 6, title: 'Lakers', image: '/media/art/f.svg', link: null, slidable_type: 'participant', slidable_id: 12 },
];
const GROUPS = [
  { id: 1, name: 'Northfield University', alias: 'northfield', image: null },
  { id: 2, name: 'Lakeside State', alias: null, image: null },
];
const team = (id: number, group: number) => ({
  id,
  name: `Team ${id}`,
  short_name: `T${id}`,
  alias: `team-${id}`,
  images: { logo: null },
  color: '#123456',
  properties: { gender: 'male', sport: 'hockey' },
  participant_group_id: group,
});
const EVENT = {
  id: 101,
  name: 'Lakers at Huskies',
  type: 'free',
  event_utc_ts: Date.UTC(2030, 2, 2) / 1000,
  time_zone: 'EST',
  has_access: false,
  participants: [],
  stream_status: 'live',
  price: null,
};
const list = (events: unknown[]) => ({
  status: 200,
  body: { data: events, meta: { total: events.length, offset: 0, limit: 8 } },
});

function api(server: FakeServer, slides: unknown = ok(SLIDES)): void {
  server
    .on('GET', `${API}/slides/web`, slides as never)
    .on('GET', `${API}/events`, list([EVENT]))
    .on('GET', `${API}/events-for-homepage`, ok({ live: [EVENT], upcoming: [], finished: [] }))
    .on('GET', `${API}/participant-groups`, ok(GROUPS))
    .on('GET', `${API}/participants`, ok([team(11, 1), team(12, 2)]));
}

let page: RenderedPage | undefined;
afterEach(() => {
  page?.unmount();
  page = undefined;
});

const $ = <T extends Element = HTMLElement>(selector: string) => page!.root.querySelector<T>(selector);
const $$ = (selector: string) => [...page!.root.querySelectorAll<HTMLElement>(selector)];
const shownSlide = () => $$('[part~="slide"]').find((s) => !s.hidden)?.textContent ?? '';
async function shows(words: string): Promise<void> {
  await waitUntil(() => page!.text().includes(words), `expected "${words}" in "${page!.text().slice(0, 300)}"`, {
    timeout: 4000,
  });
}

describe('site home', () => {
  it('the plain home shows the main slides (untyped ones too), then the sports’, live now, featured and upcoming', async () => {
    page = renderSitePage(HomePage, { setup: (s) => api(s) });
    await shows('Finals week');
    expect($$('[part~="slide"]').map((s) => s.textContent)).to.deep.equal(['Finals week', 'On demand', 'Hockey']);
    expect($('[part~="carousel"]')!.getAttribute('aria-roledescription')).to.equal('carousel');
    expect($$('[part~="slide"]')[1]!.getAttribute('aria-label')).to.equal('2 of 3: On demand');
    await shows('Featured');
    await waitUntil(() => $$('[part~="event"]').length >= 2, 'event cards');
    expect(page.server.to('GET', `${API}/events-for-homepage`)).to.have.length(1);
    expect($<HTMLAnchorElement>('a.see-all')!.getAttribute('href')).to.equal('/site/upcoming');
    await expect(page.root.host).shadowDom.to.be.accessible();
  });

  it('a school’s home: its slides and its teams’, its name as the heading, its events only', async () => {
    page = renderSitePage(HomePage, { path: '/?group=northfield', setup: (s) => api(s) });
    await shows('Huskies hoops');
    expect($$('[part~="slide"]').map((s) => s.textContent)).to.deep.equal(['Huskies', 'Huskies hoops']);
    expect($('h1')!.textContent).to.equal('Northfield University');
    await waitUntil(() => page!.server.to('GET', `${API}/events`).length > 0, 'events asked for');
    for (const req of page.server.to('GET', `${API}/events`)) expect(req.query.school).to.equal('northfield');
    // A school without an alias is found by its name.
    expect(slidesFor(SLIDES as never, GROUPS[1] as never, [team(12, 2)] as never).map((s) => s.id)).to.deep.equal([6]);
  });

  it('`school`, the contract’s other name for a school, opens the same home', async () => {
    page = renderSitePage(HomePage, { path: '/?school=northfield', setup: (s) => api(s) });
    await shows('Huskies hoops');
    expect($('h1')!.textContent).to.equal('Northfield University');
  });

  it('an unknown school says so and shows the whole home', async () => {
    page = renderSitePage(HomePage, { path: '/?group=nowhere', setup: (s) => api(s) });
    await shows('We could not find “nowhere”');
    await shows('Finals week');
  });

  it('previous, next, arrow keys and pause; slide links by kind', async () => {
    page = renderSitePage(HomePage, { setup: (s) => api(s) });
    await shows('Finals week');
    $<HTMLButtonElement>('[part~="carousel-next"]')!.click();
    await waitUntil(() => shownSlide() === 'On demand');
    $<HTMLButtonElement>('[part~="carousel-previous"]')!.click();
    await waitUntil(() => shownSlide() === 'Finals week');
    $('[part~="carousel"]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    await waitUntil(() => shownSlide() === 'Hockey', 'wraps around');
    const pause = $<HTMLButtonElement>('[part~="carousel-pause"]')!;
    expect(pause.getAttribute('aria-label')).to.equal('Stop the slides');
    pause.click();
    await waitUntil(() => pause.getAttribute('aria-label') === 'Play the slides');
    const links = $$('[part~="slide"] a') as HTMLAnchorElement[];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['/site/live', 'https://elsewhere.example/x']);
    expect(links[1]!.rel).to.equal('noopener noreferrer');
    expect(slideLink('javascript:alert(1)')).to.equal(undefined);
    expect(slideLink('//evil.example/')).to.equal(undefined);
  });

  it('advances every 5 s, but not while focus is inside', async () => {
    const timers: { fn: () => void; ms: number }[] = [];
    page = renderSitePage(HomePage, {
      setup: (s) => {
        api(s);
        setEnv({
          setTimeout: (fn, ms) => timers.push({ fn, ms }) - 1,
          clearTimeout: (id) => {
            const t = timers[id as number];
            if (t) t.fn = () => undefined;
          },
        });
      },
    });
    await shows('Finals week');
    await waitUntil(() => timers.some((t) => t.ms === SLIDE_MS), 'a slide timer');
    timers
      .filter((t) => t.ms === SLIDE_MS)
      .at(-1)!
      .fn();
    await waitUntil(() => shownSlide() === 'On demand', 'advanced');
    const before = timers.length;
    $<HTMLButtonElement>('[part~="carousel-next"]')!.focus();
    await new Promise((r) => setTimeout(r, 50));
    const armed = timers.slice(before).filter((t) => t.ms === SLIDE_MS);
    for (const t of armed) t.fn();
    expect(shownSlide(), 'no timer runs while focus is inside').to.equal('On demand');
  });

  it('a failed slides call leaves the rest of the home; French texts', async () => {
    page = renderSitePage(HomePage, {
      lang: 'fr',
      setup: (s) => api(s, { status: 500, body: { message: 'down' } }),
    });
    await shows('Les nouvelles à la une n’ont pas pu être chargées.');
    await shows('À la une');
    expect($('[part~="carousel"]')).to.equal(null);
  });

  it('the lists’ code comes after the first slide is painted, or after 1 s when the slides are late', async () => {
    const slidesAnswer = new Deferred();
    page = renderSitePage(HomePage, { setup: (s) => api(s, slidesAnswer) });
    await waitUntil(() => slidesAnswer.request, 'slides asked for');
    // The featured events' answer is asked for at once; the lists' own (and their code) wait for the slides.
    await waitUntil(() => page!.server.to('GET', `${API}/events-for-homepage`).length === 1, 'featured asked for');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(page.server.to('GET', `${API}/events`)).to.have.length(0);
    expect(page.text()).not.to.include('Live now');
    slidesAnswer.resolve(ok(SLIDES));
    await shows('Finals week');
    await shows('Live now');
    await shows('Featured');
    expect(page.server.to('GET', `${API}/events`).length).to.be.greaterThan(0);
    page.unmount();

    // Slides that never come hold the lists back 1 s at most.
    page = renderSitePage(HomePage, { setup: (s) => api(s, new Deferred()) });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(page.server.to('GET', `${API}/events`)).to.have.length(0);
    await shows('Live now');
    expect($('[part~="carousel"]')).to.equal(null);
  });
});
