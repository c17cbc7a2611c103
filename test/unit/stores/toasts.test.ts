/** Toasts (src/stores/toasts.ts): one list per element, each shown 5 s by default. */
import { expect } from '@open-wc/testing';
import { TOAST_MS, createToasts } from '../../../src/stores/toasts.js';
import { installWorld, teardown, type World } from '../helpers.js';

describe('toasts', () => {
  let w: World;
  beforeEach(() => {
    w = installWorld();
  });
  afterEach(teardown);

  it('disappear after 5000 ms', () => {
    expect(TOAST_MS).to.equal(5_000);
    const toasts = createToasts();
    toasts.show('Saved', 'success');
    expect(toasts.$toasts.get()).to.deep.equal([{ id: 1, text: 'Saved', type: 'success' }]);
    w.clock.tick(4_999);
    expect(toasts.$toasts.get()).to.have.length(1);
    w.clock.tick(1);
    expect(toasts.$toasts.get()).to.deep.equal([]);
  });

  it('honours a custom duration and defaults to info', () => {
    const toasts = createToasts();
    toasts.show('Copied', undefined, 1_000);
    expect(toasts.$toasts.get()[0]!.type).to.equal('info');
    w.clock.tick(1_000);
    expect(toasts.$toasts.get()).to.deep.equal([]);
  });

  it('replaces the same text instead of stacking it, restarting its 5 s', () => {
    const toasts = createToasts();
    toasts.show('Oops', 'error');
    toasts.show('Other');
    w.clock.tick(3_000);
    toasts.show('Oops', 'error');
    expect(toasts.$toasts.get().map((t) => t.text)).to.deep.equal(['Other', 'Oops']);
    w.clock.tick(2_000);
    expect(toasts.$toasts.get().map((t) => t.text)).to.deep.equal(['Oops']);
    w.clock.tick(3_000);
    expect(toasts.$toasts.get()).to.deep.equal([]);
  });

  it('dismiss() and destroy() clear their timers', () => {
    const toasts = createToasts();
    toasts.show('A');
    toasts.show('B');
    toasts.dismiss(1);
    expect(toasts.$toasts.get().map((t) => t.text)).to.deep.equal(['B']);
    expect(w.clock.countTimers()).to.equal(1);
    toasts.destroy();
    expect(toasts.$toasts.get()).to.deep.equal([]);
    expect(w.clock.countTimers()).to.equal(0);
  });
});
