// Error reporting of the elements: a view that throws shows a translated panel with Retry (never a blank element)
// and is reported once to the logging endpoint, without personal data; a chunk that fails, or does not arrive within
// 120 s, says so and loads again on Retry; our own uncaught errors are reported, the host page's never.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { Suspense, type ReactNode } from 'react';
import { lazyChunk } from '../../src/components/ui/lazy.js';
import { ElementShell, type ShellProps } from '../../src/components/ui/shell.js';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, loadChunk } from '../../src/lib/chunks.js';
import { resetEnv, setEnv } from '../../src/lib/env.js';
import { ExpiringStorage, MemoryStorage } from '../../src/lib/storage.js';
import { applyConfig } from '../../src/start.js';
import { redactMessage, reportElementError, resetErrorReports, watchUncaughtErrors } from '../../src/stores/errors.js';
import { resetSession } from '../../src/stores/session.js';
import { defineOnce, makeElement } from '../../elements/define.js';
import { createClock, FakeServer, ok } from '../unit/helpers.js';

declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function before(body: () => void | Promise<void>): void;
declare function beforeEach(body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
const BASE = 'http://api.test/channel-elements.js';

/** What the test view does: throw (with this message) or show its text. */
let failWith: string | undefined;
function Fragile(): ReactNode {
  if (failWith) throw new TypeError(failWith);
  return <p part="fine">All fine</p>;
}

/** A lazily loaded view whose import fails while `chunkDown` is true. */
let chunkDown = true;
let imports = 0;
const Lazy = lazyChunk<object>('the test view', (): Promise<{ default: () => ReactNode }> => {
  imports++;
  return chunkDown
    ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
    : Promise.resolve({ default: () => <p part="lazy">Lazy view</p> });
});

/** A lazily loaded view whose chunk the loader refused: it failed its integrity check (src/loader/integrity.ts). */
const Refused = lazyChunk<object>('the checked view', (): Promise<{ default: () => ReactNode }> => {
  // Told by its name, as the loader's own copy of the class (another bundle) is.
  const refusal = new Error('chunks/view-AbCdEf12.js does not match its integrity hash');
  refusal.name = 'ChunkIntegrityError';
  return Promise.reject(refusal);
});

function FragileHost(props: ShellProps & { view?: string }): ReactNode {
  return (
    <ElementShell container={props.container} lang={props.lang} css="">
      {() =>
        props.view === 'lazy' || props.view === 'refused' ? (
          <Suspense fallback={<p part="loading">Loading</p>}>{props.view === 'lazy' ? <Lazy /> : <Refused />}</Suspense>
        ) : (
          <Fragile />
        )
      }
    </ElementShell>
  );
}

let server: FakeServer;
function serve(): void {
  server = new FakeServer();
  server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-123' }))
    .on('GET', `${API}/settings`, ok({ name: 'Demo', language: 'en', currency: 'USD' }))
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country_code: 'US', is_geo_blocked: false }));
  setEnv({
    fetch: server.fetch,
    storage: new ExpiringStorage(
      () => new MemoryStorage(),
      () => Date.now(),
    ),
  });
}

const root = (el: Element) => el.shadowRoot!;
const part = (el: Element, name: string) => root(el).querySelector<HTMLElement>(`[part~="${name}"]`);
const reports = () =>
  server.logs.map((r) => r.body as { status: number; service: string; message: string; url: string; channel: string });

describe('error reports', () => {
  before(() => {
    resetEnv();
    applyConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, BASE);
    defineOnce('test-fragile', () => makeElement(FragileHost, ['lang', 'view']));
  });
  /**
   * React's development build rethrows what a boundary caught as a page error (production does not), which mocha
   * (through window.onerror) would take for the test's own failure: the views' own errors are swallowed here.
   */
  let mochaOnError: OnErrorEventHandler = null;
  before(() => {
    mochaOnError = window.onerror;
    window.onerror = (message, ...rest) =>
      /Cannot read properties|boom|could not be loaded|was refused/.test(String(message))
        ? true
        : (mochaOnError?.(message, ...rest) ?? false);
  });
  beforeEach(() => {
    resetSession();
    resetErrorReports();
    serve();
    failWith = undefined;
  });
  afterEach(() => {
    resetSession();
    resetEnv();
  });

  it('a view that throws shows a translated panel with Retry, reported once without personal data', async () => {
    failWith =
      'Cannot read properties of undefined (reading "name") for fan@example.com at https://x.test/a?token=tok-123456';
    const first = await fixture(html`<test-fragile></test-fragile>`);
    await waitUntil(() => part(first, 'error'), 'the panel', { timeout: 4000 });
    expect(part(first, 'error')!.getAttribute('role')).to.equal('alert');
    expect(part(first, 'error')!.textContent).to.contain('Something went wrong here.');
    // Another element with the same error: still one report.
    const second = await fixture(html`<test-fragile></test-fragile>`);
    await waitUntil(() => part(second, 'error'), 'the second panel', { timeout: 4000 });
    await waitUntil(() => reports().length >= 1, 'the report', { timeout: 4000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reports()).to.have.length(1);
    const [report] = reports();
    expect(report).to.include({ status: 0, service: 'element', channel: 'demo' });
    expect(report!.message).to.match(/^<test-fragile> TypeError: Cannot read properties/);
    expect(report!.message).to.contain('Fragile');
    for (const secret of ['fan@example.com', 'tok-123456', 'token='])
      expect(report!.message, secret).not.to.contain(secret);
    expect(report!.url).to.equal(`${location.origin}${location.pathname}`);

    // Retry renders the view again.
    failWith = undefined;
    (part(first, 'retry') as HTMLButtonElement).click();
    await waitUntil(() => part(first, 'fine'), 'the view again', { timeout: 4000 });
    expect(part(first, 'error')).to.equal(null);
  });

  it('the panel speaks French in a French element', async () => {
    failWith = 'boom';
    const el = await fixture(html`<test-fragile lang="fr"></test-fragile>`);
    await waitUntil(() => part(el, 'error'), 'the panel', { timeout: 4000 });
    expect(part(el, 'error')!.textContent).to.contain('Un problème est survenu ici.');
    expect(part(el, 'retry')!.textContent).to.equal('Réessayer');
  });

  it('a chunk that fails says so; Retry loads it again', async () => {
    chunkDown = true;
    imports = 0;
    const el = await fixture(html`<test-fragile view="lazy"></test-fragile>`);
    await waitUntil(() => part(el, 'error'), 'the panel', { timeout: 4000 });
    expect(part(el, 'error')!.textContent).to.contain(
      'This part could not be loaded. Check your connection and try again.',
    );
    await waitUntil(() => reports().some((r) => r.service === 'chunk'), 'the chunk report', { timeout: 4000 });
    expect(reports().find((r) => r.service === 'chunk')!.message).to.contain(
      'the code of the test view could not be loaded',
    );
    chunkDown = false;
    (part(el, 'retry') as HTMLButtonElement).click();
    await waitUntil(() => part(el, 'lazy'), 'the lazy view', { timeout: 4000 });
    expect(imports).to.equal(2);
  });

  it('a chunk refused by its integrity check says so, in English and in French', async () => {
    const el = await fixture(html`<test-fragile view="refused"></test-fragile>`);
    await waitUntil(() => part(el, 'error'), 'the panel', { timeout: 4000 });
    expect(part(el, 'error')!.textContent).to.contain(
      'This part was blocked: its code did not pass a security check. Please try again later.',
    );
    await waitUntil(() => reports().some((r) => r.service === 'chunk'), 'the chunk report', { timeout: 4000 });
    expect(reports().find((r) => r.service === 'chunk')!.message).to.contain(
      'the code of the checked view was refused (chunks/view-AbCdEf12.js does not match its integrity hash)',
    );
    const fr = await fixture(html`<test-fragile view="refused" lang="fr"></test-fragile>`);
    await waitUntil(() => part(fr, 'error'), 'the French panel', { timeout: 4000 });
    expect(part(fr, 'error')!.textContent).to.contain(
      'Cette partie a été bloquée : son code n’a pas passé un contrôle de sécurité. Réessayez plus tard.',
    );
  });

  it('a chunk that never arrives fails after 120 s, not before', async () => {
    const clock = createClock();
    const timers = {
      setTimeout: (fn: () => void, ms: number) => clock.setTimeout(fn, ms),
      clearTimeout: (id: unknown) => clock.clearTimeout(id as number),
    };
    let outcome: unknown;
    loadChunk('hls.js', () => new Promise<never>(() => undefined), timers).then(
      () => (outcome = 'loaded'),
      (error: unknown) => (outcome = error),
    );
    await clock.tickAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(outcome).to.equal(undefined);
    await clock.tickAsync(1);
    expect(outcome).to.be.instanceOf(ChunkLoadError);
    expect((outcome as ChunkLoadError).timedOut).to.equal(true);
    expect((outcome as ChunkLoadError).message).to.equal('the code of hls.js did not arrive within 120 s');
    // One that arrives in time is just loaded.
    let value: unknown;
    void loadChunk('fast', () => Promise.resolve(42), timers).then((v) => (value = v));
    await clock.tickAsync(1);
    expect(value).to.equal(42);
  });

  it('reports our own uncaught errors, never the host page’s', async () => {
    const page = new EventTarget();
    setEnv({ eventTarget: page });
    watchUncaughtErrors(BASE);
    const ours = new Error('x is not a function');
    ours.stack = 'Error: x is not a function\n    at run (http://api.test/chunks/channel-player.js:1:200)';
    page.dispatchEvent(new ErrorEvent('error', { error: ours, filename: 'http://api.test/chunks/session-abc.js' }));
    page.dispatchEvent(new ErrorEvent('error', { error: new Error('host bug'), filename: 'https://host.test/app.js' }));
    const rejection = new Error('lost promise');
    rejection.stack = 'Error: lost promise\n    at go (http://api.test/chunks/channel-schedule.js:2:10)';
    const unhandled = new Event('unhandledrejection') as Event & { reason: unknown };
    unhandled.reason = rejection;
    page.dispatchEvent(unhandled);
    const hostRejection = new Event('unhandledrejection') as Event & { reason: unknown };
    hostRejection.reason = new Error('host promise');
    page.dispatchEvent(hostRejection);
    await waitUntil(() => reports().length === 2, 'two reports', { timeout: 4000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reports().map((r) => r.message)).to.deep.equal([
      '<channel-player> Error: x is not a function',
      '<channel-schedule> Error: lost promise',
    ]);
  });

  it('redacts emails, long tokens and URL queries, and cuts long messages', () => {
    expect(redactMessage('for a.b+c@example.co.uk now')).to.equal('for [email] now');
    expect(redactMessage('GET https://api.test/x?api_key=abc#frag failed')).to.equal('GET https://api.test/x failed');
    expect(redactMessage('token 1735689600.v42.Zk3xQ9mB2pL7vR4tY8wN1cH6sD0aF5gJ3k bad')).to.equal(
      'token [redacted] bad',
    );
    expect(redactMessage('x'.repeat(500))).to.have.length(300);
    // A report after too many distinct ones is dropped; a repeat never goes twice.
    reportElementError('channel-player', new Error('once'));
    reportElementError('channel-player', new Error('once'));
  });
});
