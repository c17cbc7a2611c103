// Element tests of the clips section of <channel-profile>: each clip's state and actions (progress, Play, Download,
// Copy link and Share, Delete with its inline confirmation, Retry), following a clip being made, a clip made in a
// player on the same page showing here at once (one shared list), French and an a11y audit. The elements run against
// the unit tests' fake world (test/unit/helpers.ts).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { setEnv } from '../../src/lib/env.js';
import { resetSession } from '../../src/stores/session.js';
import { start as startProfile } from '../../elements/channel-profile.js';
import { start as startPlayer } from '../../elements/channel-player.js';
import { flush, installWorld, ok, T0, teardown, until, type World } from '../unit/helpers.js';
import { wireEvent, wireUser, wireClip } from '../fixtures/contract.js';

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
const NOW_S = T0 / 1000;
const UUID = '0b6f3c1e-2d4a-4f5b-8c9d-1e2f3a4b5c6d';

const USER = (capabilities = ['watch', 'clipping', 'download_clip']) =>
  wireUser({ id: 7, email: 'fan@example.com', first_name: 'Ann', last_name: 'Fan', capabilities });

const clip = (id: number, name: string, status: string, fields: Record<string, unknown> = {}) =>
  wireClip({
    id,
    uuid: UUID,
    event_id: 501,
    name,
    start_time: 60,
    duration: 75,
    tags: ['goal'],
    status,
    event: { id: 501, name: 'Spring Final' },
    ...fields,
  });

const CLIPS = [
  clip(21, 'Winning goal', 'done', { media: [{ type: 'image', url: 'https://media.test/21/poster.jpg' }] }),
  clip(22, 'Save', 'processing', { progress: 40, duration: 20 }),
  clip(23, 'Assist', 'queued', { progress: 0 }),
  clip(24, 'Broken', 'failed', { duration: 15 }),
];

let world: World;
const copied: string[] = [];

function useFakePlatform(options: { user?: ReturnType<typeof USER>; clips?: unknown[] } = {}): void {
  resetSession();
  world = installWorld();
  copied.length = 0;
  setEnv({
    eventTarget: window,
    copyText: async (text) => void copied.push(text),
    webShare: () => undefined,
  });
  world.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }))
    .on('GET', `${API}/settings`, ok({ name: 'Demo', language: 'en', currency: 'EUR', auth: { remote_auth: 1 } }))
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/profile`, ok(options.user ?? USER()))
    .on('GET', `${API}/clips/user`, ok(options.clips ?? CLIPS))
    .on('GET', `${API}/orders`, ok([]));
  world.storage.set('token.demo', 'tok-profile');
}

const root = (el: Element) => el.shadowRoot!;
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [
  ...root(el).querySelectorAll<T>(selector),
];
const part = <T extends Element = HTMLElement>(scope: Element | ShadowRoot, name: string) =>
  (scope instanceof Element && scope.shadowRoot ? scope.shadowRoot : scope).querySelector<T>(`[part~="${name}"]`);
const rows = (el: Element) => $$(el, '[part~="clip"]');
const row = (el: Element, name: string) => rows(el).find((r) => r.querySelector('.row-name')?.textContent === name)!;
const buttons = (scope: Element) => [...scope.querySelectorAll('button')].map((b) => b.textContent);
const active = (el: Element) => root(el).activeElement;
const text = (el: Element) => root(el).textContent ?? '';

async function clipsShown(el: Element, count: number): Promise<void> {
  await waitUntil(() => rows(el).length === count, `expected ${count} clips; the element shows "${text(el)}"`, {
    timeout: 4000,
  });
}

describe('<channel-profile> clips', () => {
  before(() => {
    teardown();
    const config = { channelKey: 'demo', apiUrl: API, keysUrl: KEYS };
    startProfile(config, 'http://api.test/channel-elements.js');
    startPlayer(config, 'http://api.test/channel-elements.js');
  });
  afterEach(() => teardown());

  it('each clip with its state and actions: progress, Play, Download, Copy link, Delete, Retry', async () => {
    useFakePlatform();
    const el = await fixture(html`<channel-profile section="clips"></channel-profile>`);
    await clipsShown(el, 4);
    expect(rows(el).map((r) => part(r, 'clip-state')!.textContent)).to.deep.equal([
      'Ready',
      'Processing',
      'Processing',
      'Failed',
    ]);
    const done = row(el, 'Winning goal');
    expect(done.textContent).to.contain('Spring Final').and.contain('Duration 1:15');
    const play = part<HTMLAnchorElement>(done, 'clip-play')!;
    expect(play.getAttribute('href')).to.equal(`${location.origin}/share/21/${UUID}`);
    expect(play.getAttribute('aria-label')).to.equal('Play Winning goal');
    expect(buttons(done)).to.deep.equal(['Download', 'Copy link', 'Delete']);
    expect(done.textContent, 'a list row does not announce "ready"').not.to.contain('is ready');

    const making = row(el, 'Save');
    expect(making.querySelector('progress')!.value).to.equal(40);
    expect(making.querySelector('progress')!.labels![0]!.textContent).to.equal('Making “Save”');
    expect(making.textContent).to.contain('40% done').and.contain('Your clip is being made.');
    expect(buttons(making), 'while it is made, it can only be stopped').to.deep.equal(['Stop']);
    const waiting = row(el, 'Assist');
    expect(waiting.querySelector('progress')!.hasAttribute('value'), 'indeterminate while queued').to.equal(false);
    expect(waiting.textContent).to.contain('Waiting its turn…');

    const broken = row(el, 'Broken');
    expect(broken.textContent).to.contain('Your clip creation failed');
    expect(buttons(broken)).to.deep.equal(['Try again', 'Delete']);
    expect(part(broken, 'clip-play')).to.equal(null);

    part<HTMLButtonElement>(done, 'clip-copy')!.click();
    await waitUntil(() => part(done, 'clip-copied') !== null, 'the confirmation');
    expect(part(done, 'clip-copied')!.textContent).to.equal('Link copied.');
    expect(copied).to.deep.equal([`${location.origin}/share/21/${UUID}`]);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('copying refused by the browser: the link is shown to copy by hand; no Download without download_clip', async () => {
    useFakePlatform({ user: USER(['watch', 'clipping']) });
    setEnv({ copyText: () => Promise.reject(new Error('denied')) });
    const el = await fixture(html`<channel-profile section="clips"></channel-profile>`);
    await clipsShown(el, 4);
    const done = row(el, 'Winning goal');
    expect(buttons(done)).to.deep.equal(['Copy link', 'Delete']);
    part<HTMLButtonElement>(done, 'clip-copy')!.click();
    await waitUntil(() => part(done, 'clip-link') !== null, 'the link to copy');
    expect(part(done, 'clip-link')!.querySelector('[role="alert"]')!.textContent).to.equal(
      'The link could not be copied: select it below.',
    );
    const input = part(done, 'clip-link')!.querySelector('input')!;
    expect(input.value).to.equal(`${location.origin}/share/21/${UUID}`);
    expect(input.labels![0]!.textContent).to.equal('Share link of Winning goal');
  });

  it("where the browser has a share sheet, Share… hands it the clip's name and link", async () => {
    useFakePlatform();
    const shared: unknown[] = [];
    setEnv({ webShare: () => async (data) => void shared.push(data) });
    const el = await fixture(html`<channel-profile section="clips"></channel-profile>`);
    await clipsShown(el, 4);
    const done = row(el, 'Winning goal');
    expect(buttons(done)).to.include('Share…');
    part<HTMLButtonElement>(done, 'clip-share')!.click();
    await waitUntil(() => shared.length === 1, 'the share sheet');
    expect(shared).to.deep.equal([{ title: 'Winning goal', url: `${location.origin}/share/21/${UUID}` }]);
  });

  it('Delete asks first: Cancel goes back; confirmed, the row goes, it says so and focus goes to the title', async () => {
    useFakePlatform();
    world.server.on('DELETE', `${API}/clip/21`, ok({ message: 'Clip deleted.' }));
    const el = await fixture(html`<channel-profile section="clips"></channel-profile>`);
    await clipsShown(el, 4);
    const done = row(el, 'Winning goal');
    part<HTMLButtonElement>(done, 'clip-delete')!.click();
    await waitUntil(() => part(done, 'clip-confirm') !== null, 'the question');
    const question = part(done, 'clip-confirm')!;
    expect(question.getAttribute('role')).to.equal('group');
    expect(root(el).getElementById(question.getAttribute('aria-labelledby')!)!.textContent).to.equal(
      'Delete “Winning goal”? This cannot be undone.',
    );
    await waitUntil(() => active(el)?.textContent === 'Cancel', 'focus on Cancel');
    (active(el) as HTMLButtonElement).click();
    await waitUntil(() => part(done, 'clip-confirm') === null, 'the question gone');
    await waitUntil(() => active(el) === part(done, 'clip-delete'), 'focus back on Delete');
    expect(world.server.to('DELETE', `${API}/clip/21`)).to.have.length(0);

    part<HTMLButtonElement>(done, 'clip-delete')!.click();
    await waitUntil(() => part(done, 'clip-confirm-delete') !== null, 'the question again');
    part<HTMLButtonElement>(done, 'clip-confirm-delete')!.click();
    await clipsShown(el, 3);
    const [call] = world.server.to('DELETE', `${API}/clip/21`);
    expect(call!.headers.authorization).to.equal('Bearer tok-profile');
    expect(part(el, 'clip-deleted')!.textContent).to.equal('“Winning goal” was deleted.');
    expect(active(el)?.textContent).to.equal('Your clips');
  });

  it('a clip being made can be stopped (asked first): the server ends its cut and the row goes', async () => {
    useFakePlatform();
    world.server.on('DELETE', `${API}/clip/22`, ok({ message: 'Clip deleted.' }));
    const el = await fixture(html`<channel-profile section="clips"></channel-profile>`);
    await clipsShown(el, 4);
    const making = row(el, 'Save');
    expect(part(making, 'clip-stop')!.getAttribute('aria-label')).to.equal('Stop making Save');
    part<HTMLButtonElement>(making, 'clip-stop')!.click();
    await waitUntil(() => part(making, 'clip-confirm') !== null, 'the question');
    expect(part(making, 'clip-confirm')!.textContent).to.contain('Stop making “Save”? Nothing of it will be kept.');
    await waitUntil(() => active(el)?.textContent === 'Keep making it', 'focus on the safe choice');
    expect(world.server.to('DELETE', `${API}/clip/22`)).to.have.length(0);
    part<HTMLButtonElement>(making, 'clip-confirm-delete')!.click();
    await clipsShown(el, 3);
    expect(world.server.to('DELETE', `${API}/clip/22`)).to.have.length(1);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('a failed delete says why and keeps the row', async () => {
    useFakePlatform();
    world.server.on('DELETE', `${API}/clip/24`, { status: 500, body: { message: 'Server Error' } });
    const el = await fixture(html`<channel-profile section="clips"></channel-profile>`);
    await clipsShown(el, 4);
    const broken = row(el, 'Broken');
    part<HTMLButtonElement>(broken, 'clip-delete')!.click();
    await waitUntil(() => part(broken, 'clip-confirm-delete') !== null, 'the question');
    part<HTMLButtonElement>(broken, 'clip-confirm-delete')!.click();
    await world.advance(1_000); // the client's single retry
    await waitUntil(() => part(broken, 'clip-error') !== null, 'the error');
    expect(part(broken, 'clip-error')!.textContent).to.equal(
      'Oops! We are currently experiencing technical difficulties',
    );
    expect(rows(el)).to.have.length(4);
  });

  it('follows clips being made: they turn ready without a reload of the page', async () => {
    useFakePlatform();
    const el = await fixture(html`<channel-profile section="clips"></channel-profile>`);
    await clipsShown(el, 4);
    world.server.on('GET', `${API}/clips/user`, ok([CLIPS[0], clip(22, 'Save', 'done', { duration: 20 }), CLIPS[3]]));
    await world.advance(1_000);
    await clipsShown(el, 3);
    expect(part(row(el, 'Save'), 'clip-state')!.textContent).to.equal('Ready');
    expect(buttons(row(el, 'Save'))).to.deep.equal(['Download', 'Copy link', 'Delete']);
    await world.advance(60_000);
    expect(world.server.to('GET', `${API}/clips/user`), 'nothing more to follow').to.have.length(2);
  });

  it('a clip made in a player on the page shows here at once (one list for both)', async () => {
    useFakePlatform({ clips: [CLIPS[0]] });
    world.server
      .on('GET', `${API}/geo`, ok({ country_code: 'CA' }))
      .on(
        'GET',
        `${API}/events/501`,
        ok(
          wireEvent({
            id: 501,
            name: 'Spring Final',
            event_utc_ts: NOW_S - 3600,
            stream_status: 'finished',
            has_recording: true,
            media: [{ type: 'vod', url: 'https://media.test/vod/501.m3u8' }],
          }),
        ),
      )
      .on('GET', 'https://media.test/vod/501.m3u8', { raw: '#EXTM3U' })
      .on('POST', `${API}/clip`, ok(clip(30, 'New one', 'queued')));
    const page = await fixture(html`
      <div>
        <channel-player event-id="501" autoplay muted></channel-player>
        <channel-profile section="clips"></channel-profile>
      </div>
    `);
    const player = page.querySelector('channel-player')!;
    const profile = page.querySelector('channel-profile')!;
    await clipsShown(profile, 1);
    const v = player.shadowRoot!.querySelector('video')!;
    await waitUntil(() => v.getAttribute('src'), 'the recording');
    Object.defineProperty(v, 'duration', { configurable: true, get: () => 120 });
    v.dispatchEvent(new Event('durationchange'));
    await waitUntil(() => part(player, 'clip-button') !== null, 'the Clip control');
    part<HTMLButtonElement>(player, 'clip-button')!.click();
    await waitUntil(() => part(player, 'clip-form') !== null, 'the form');
    const input = player.shadowRoot!.querySelector<HTMLInputElement>('[part~="clip-name"] input')!;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'New one');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const goal = [...player.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part~="clip-tag"]')].find(
      (b) => b.textContent === 'Goal',
    )!;
    goal.click();
    await until(() => goal.getAttribute('aria-pressed') === 'true', 'the tag');
    const looks = world.server.to('GET', `${API}/clips/user`).length;
    part<HTMLButtonElement>(player, 'clip-submit')!.click();
    await clipsShown(profile, 2);
    expect(rows(profile).map((r) => r.querySelector('.row-name')!.textContent)).to.deep.equal([
      'New one',
      'Winning goal',
    ]);
    expect(world.server.to('GET', `${API}/clips/user`), 'no reload needed').to.have.length(looks);
    await flush();
  });

  it('French', async () => {
    useFakePlatform();
    const el = await fixture(html`<channel-profile section="clips" lang="fr"></channel-profile>`);
    await clipsShown(el, 4);
    const done = row(el, 'Winning goal');
    expect(buttons(done)).to.deep.equal(['Télécharger', 'Copier le lien', 'Supprimer']);
    expect(part(done, 'clip-play')!.textContent).to.equal('Lire');
    expect(row(el, 'Save').textContent).to.contain('40 % effectués');
    expect(row(el, 'Broken').textContent).to.contain('La création de votre extrait a échoué');
  });
});
