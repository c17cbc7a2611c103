// Clips in the site, in the site harness against a fake channel API: the /share/{id}/{uuid} page plays a shared clip
// for a guest (its name, event and tags; a deleted one says so; French), and the watch page shows a signed-in
// viewer's clips of the event as a strip (only for events `events/with_clip` lists; none for a guest).
import { expect, waitUntil } from '@open-wc/testing';
import SharePage from '../../src/components/app/pages/Share.js';
import WatchPage from '../../src/components/app/pages/Watch.js';
import { pageKind } from '../../src/components/app/pages/registry.js';
import { env } from '../../src/lib/env.js';
import { ok, type FakeServer } from '../unit/helpers.js';
import { API, renderSitePage, type RenderedPage } from './site-harness.js';

declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

const UUID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const NOW_S = Math.floor(Date.now() / 1000);
const EVENT = {
  id: 501,
  name: 'Spring Final',
  type: 'free',
  event_utc_ts: NOW_S - 7200,
  stream_status: 'finished',
  has_recording: true,
  media: [{ type: 'vod', url: 'https://media.test/vod/501.m3u8' }],
};
const clip = (id: number, status: string, fields: Record<string, unknown> = {}) => ({
  id,
  uuid: UUID,
  event_id: 501,
  name: `Clip ${id}`,
  start_time: 30,
  duration: 10,
  tags: ['goal', 'save'],
  status,
  event: { id: 501, name: 'Spring Final' },
  media:
    status === 'done'
      ? [
          { type: 'vod', url: `https://media.test/clip-${id}/master.m3u8` },
          { type: 'image', url: `https://media.test/clip-${id}/poster.jpg` },
        ]
      : [],
  ...fields,
});
const USER = { id: 7, email: 'fan@example.com', capabilities: ['watch'] };

let page: RenderedPage | undefined;
afterEach(() => {
  page?.unmount();
  page = undefined;
});

const $ = (selector: string) => page!.root.querySelector<HTMLElement>(selector);
const $$ = (selector: string) => [...page!.root.querySelectorAll<HTMLElement>(selector)];
async function shows(words: string): Promise<void> {
  await waitUntil(() => page!.text().includes(words), `expected "${words}"; the page shows "${page?.text()}"`, {
    timeout: 4000,
  });
}

describe('site: the share page', () => {
  it('is the page of /share/{id}/{uuid}', () => {
    expect(pageKind('share')).to.equal('share');
  });

  it('plays a shared clip for a guest: its name, its event (a link) and its tags', async () => {
    page = renderSitePage(SharePage, {
      path: `/share/9/${UUID}`,
      setup: (server) => server.on('GET', `${API}/shared-clip/9`, ok(clip(9, 'done', { name: 'Winning goal' }))),
    });
    await shows('Winning goal');
    const [call] = page.server.to('GET', `${API}/shared-clip/9`);
    expect(call!.query.uuid).to.equal(UUID);
    expect(call!.headers.authorization, 'a guest: no token').to.equal(undefined);
    expect(page.headings).to.include('Shared clip');
    expect($('[part~="title"]')!.textContent).to.equal('Winning goal');
    expect($('[part~="clip-event"]')!.textContent).to.equal('From Spring Final');
    expect($$('[part~="clip-tag"]').map((t) => t.textContent)).to.deep.equal(['Goal', 'Save']);
    expect($('[part~="play"]')!.getAttribute('aria-label')).to.equal('Play Winning goal');
  });

  it('a deleted clip: "This clip is no longer available"', async () => {
    page = renderSitePage(SharePage, {
      path: `/share/9/${UUID}`,
      setup: (server) =>
        server.on('GET', `${API}/shared-clip/9`, { status: 404, body: { message: 'Clip not found.' } }),
    });
    await shows('This clip is no longer available');
  });

  it('French', async () => {
    page = renderSitePage(SharePage, {
      path: `/share/9/${UUID}`,
      lang: 'fr',
      setup: (server) => server.on('GET', `${API}/shared-clip/9`, ok(clip(9, 'processing', { progress: 50 }))),
    });
    await shows('Cet extrait est en cours de création…');
    expect(page.headings).to.include('Extrait partagé');
  });
});

describe('site: the clips strip of the watch page', () => {
  const signedIn = (setup: (server: FakeServer) => void) => {
    page = renderSitePage(WatchPage, {
      path: '/watch/501',
      setup: (server) => {
        server.on('GET', `${API}/events/501`, ok(EVENT)).on('GET', `${API}/profile`, ok(USER));
        setup(server);
      },
    });
    // Signed in: the session reads the stored token when it starts (after this first render).
    env().storage.set('token.demo', 'tok-site');
  };

  it('lists the viewer’s clips of the event: ready ones link to their share page, ones being made say so', async () => {
    signedIn((server) =>
      server
        .on('GET', `${API}/events/with_clip`, ok([EVENT], { meta: { total: 1, offset: 0, limit: 1 } }))
        .on(
          'GET',
          `${API}/clips/event/501`,
          ok([clip(9, 'done', { name: 'Winning goal' }), clip(10, 'processing'), clip(11, 'failed')]),
        ),
    );
    await waitUntil(() => $('[part~="clips-strip"]') !== null, 'the strip', { timeout: 4000 });
    expect($('[part~="clips-strip"] h2')!.textContent).to.equal('Your clips of this event');
    const cards = $$('[part~="clip-card"]');
    expect(cards.map((c) => c.textContent)).to.deep.equal(['Winning goalDuration 0:10', 'Clip 10Being made…']);
    expect(cards[0]!.tagName).to.equal('A');
    expect(cards[0]!.getAttribute('href')).to.equal(`${location.origin}/share/9/${UUID}`);
    expect(cards[0]!.querySelector('img')!.getAttribute('src')).to.equal('https://media.test/clip-9/poster.jpg');
    expect(cards[1]!.tagName, 'nothing to watch yet: no link').to.equal('DIV');
    expect(page!.server.to('GET', `${API}/clips/event/501`)[0]!.headers.authorization).to.equal('Bearer tok-site');
  });

  it('an event without clips of the viewer: no strip, and its clips are not asked for', async () => {
    signedIn((server) =>
      server.on('GET', `${API}/events/with_clip`, ok([], { meta: { total: 0, offset: 0, limit: 1 } })),
    );
    await waitUntil(() => page!.server.to('GET', `${API}/events/with_clip`).length === 1, 'the events with clips');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect($('[part~="clips-strip"]')).to.equal(null);
    expect(page!.server.to('GET', `${API}/clips/event/501`)).to.have.length(0);
  });

  it('a guest: no strip and no clip requests', async () => {
    page = renderSitePage(WatchPage, {
      path: '/watch/501',
      setup: (server) => server.on('GET', `${API}/events/501`, ok(EVENT)),
    });
    // The watch page plays at once: the video, not a Play button.
    await waitUntil(() => $('video[part~="video"]') !== null, 'the player', { timeout: 4000 });
    expect($('[part~="clips-strip"]')).to.equal(null);
    expect(page.server.to('GET', `${API}/events/with_clip`)).to.have.length(0);
  });
});
