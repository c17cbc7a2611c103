/**
 * The loader's tag watcher (src/loader/autoload.ts): a tag's chunk loads when the tag is on the page, once,
 * and again after a failed load when the tag is inserted again.
 */
import { expect } from '@open-wc/testing';
import { TAGS, autoload, type Tag } from '../../../src/loader/autoload.js';
import { flush } from '../helpers.js';

describe('autoload', () => {
  let doc: Document;
  let loads: Tag[];
  let stop: (() => void) | undefined;
  let consoleErrors: unknown[][];
  const realError = console.error;

  const add = (html: string) => {
    const host = doc.createElement('div');
    host.innerHTML = html;
    doc.body.append(...host.childNodes);
  };
  /** Lets the MutationObserver callback (a microtask) run. */
  const tick = () => Promise.resolve();

  beforeEach(() => {
    doc = document.implementation.createHTMLDocument('host page');
    loads = [];
    consoleErrors = [];
    console.error = (...args: unknown[]) => void consoleErrors.push(args);
  });
  afterEach(() => {
    stop?.();
    stop = undefined;
    console.error = realError;
  });

  const start = (load: (tag: Tag) => Promise<unknown> = async () => undefined) => {
    stop = autoload((tag) => {
      loads.push(tag);
      return load(tag);
    }, doc);
  };

  it('loads a tag present at start, at once', () => {
    add('<main><channel-schedule kind="live"></channel-schedule></main>');
    start();
    expect(loads).to.deep.equal(['channel-schedule']);
  });

  it('loads every tag present at start', () => {
    add(TAGS.map((t) => `<${t}></${t}>`).join(''));
    start();
    expect([...loads].sort()).to.deep.equal([...TAGS].sort());
  });

  it('loads nothing for a page without our tags', async () => {
    add('<div><channel-foo></channel-foo><video></video></div>');
    start();
    add('<channel-schedules></channel-schedules>');
    await tick();
    expect(loads).to.deep.equal([]);
  });

  it('loads a tag added later, after the observer tick', async () => {
    start();
    expect(loads).to.deep.equal([]);
    doc.body.append(doc.createElement('channel-player'));
    expect(loads, 'not synchronously').to.deep.equal([]);
    await tick();
    expect(loads).to.deep.equal(['channel-player']);
  });

  it('finds a tag inside an added subtree', async () => {
    start();
    add('<section><div><channel-checkout></channel-checkout></div></section>');
    await tick();
    expect(loads).to.deep.equal(['channel-checkout']);
  });

  it('loads each tag once', async () => {
    add('<channel-schedule></channel-schedule><channel-schedule></channel-schedule>');
    start();
    doc.body.append(doc.createElement('channel-schedule'));
    await tick();
    add('<div><channel-schedule></channel-schedule></div>');
    await tick();
    expect(loads).to.deep.equal(['channel-schedule']);
  });

  it('tries again after a failed load when the tag is inserted again', async () => {
    let attempt = 0;
    start(async () => {
      attempt++;
      if (attempt === 1) throw new TypeError('Failed to fetch dynamically imported module');
    });
    doc.body.append(doc.createElement('channel-profile'));
    await tick();
    expect(loads).to.deep.equal(['channel-profile']);
    await flush(1);
    expect(consoleErrors).to.have.length(1);
    expect(consoleErrors[0]![0]).to.equal('channel-elements: could not load <channel-profile>:');

    doc.body.append(doc.createElement('channel-profile'));
    await tick();
    expect(loads).to.deep.equal(['channel-profile', 'channel-profile']);

    await flush(1);
    doc.body.append(doc.createElement('channel-profile'));
    await tick();
    expect(loads, 'loaded now: not again').to.have.length(2);
    expect(consoleErrors).to.have.length(1);
  });

  it("finds tags in a host component's open shadow root: there at start, added with it, and filled in later", async () => {
    const withShadow = (inner?: string) => {
      const host = doc.createElement('div');
      const root = host.attachShadow({ mode: 'open' });
      if (inner) root.innerHTML = inner;
      return { host, root };
    };
    const early = withShadow('<section><channel-schedule></channel-schedule></section>');
    doc.body.append(early.host);
    start();
    expect(loads).to.deep.equal(['channel-schedule']);
    // A component added later with its tag already inside, inside another component's root.
    const outer = withShadow();
    outer.root.append(withShadow('<channel-checkout></channel-checkout>').host);
    doc.body.append(outer.host);
    await tick();
    expect(loads).to.deep.equal(['channel-schedule', 'channel-checkout']);
    // A component that renders after it is connected: its root is watched.
    const late = withShadow();
    doc.body.append(late.host);
    await tick();
    late.root.append(doc.createElement('channel-player'));
    await tick();
    expect(loads).to.deep.equal(['channel-schedule', 'channel-checkout', 'channel-player']);
  });

  it('finds a tag in the root of a host component defined after its element is in the page', async () => {
    const name = `late-card-${Math.random().toString(36).slice(2)}`;
    const host = document.createElement(name);
    document.body.append(host);
    try {
      stop = autoload(async (tag) => void loads.push(tag));
      await tick();
      expect(loads).to.deep.equal([]);
      customElements.define(
        name,
        class extends HTMLElement {
          constructor() {
            super();
            this.attachShadow({ mode: 'open' }).innerHTML = '<div><channel-profile></channel-profile></div>';
          }
        },
      );
      await tick();
      await tick();
      expect(loads).to.deep.equal(['channel-profile']);
    } finally {
      host.remove();
    }
  });

  it('stops watching when the returned function is called', async () => {
    start();
    stop!();
    doc.body.append(doc.createElement('channel-app'));
    await tick();
    expect(loads).to.deep.equal([]);
  });

  it('watches the real document by default', async () => {
    stop = autoload(async (tag) => void loads.push(tag));
    const el = document.createElement('channel-app');
    document.body.append(el);
    try {
      await tick();
      expect(loads).to.deep.equal(['channel-app']);
    } finally {
      el.remove();
    }
  });
});
