/**
 * `useStore` (src/components/ui/use-store.ts): a component shows a store's value and renders again when it
 * changes, also when it changed between the render and the subscription, and stops listening when it goes; a
 * computed store shows its value without endless renders.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { atom, computed } from 'nanostores';
import { act, createElement as h, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { useStore } from '../../../../src/components/ui/use-store.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function mount(node: ReturnType<typeof h>): { host: HTMLElement; unmount(): void } {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  act(() => root.render(node));
  return {
    host,
    unmount: () => {
      act(() => root.unmount());
      host.remove();
    },
  };
}

describe('useStore', () => {
  it('shows the value and follows its changes; an unmounted view no longer listens', () => {
    const $count = atom(1);
    let renders = 0;
    const View = () => {
      renders++;
      return h('p', null, `count ${useStore($count)}`);
    };
    const view = mount(h(View));
    expect(view.host.textContent).to.equal('count 1');
    act(() => $count.set(2));
    expect(view.host.textContent).to.equal('count 2');
    const before = renders;
    act(() => $count.set(2));
    expect(renders, 'the same value renders nothing').to.equal(before);
    expect($count.lc, 'one listener while shown').to.equal(1);
    view.unmount();
    expect($count.lc, 'none once gone').to.equal(0);
  });

  it('renders again when the value changed after the render, before the subscription', async () => {
    const $value = atom('first');
    // A layout effect runs after the render and before React subscribes (in a passive effect).
    const Changer = () => {
      useLayoutEffect(() => $value.set('second'), []);
      return null;
    };
    const View = () => h('p', null, useStore($value));
    const view = mount(h('div', null, h(View), h(Changer)));
    await waitUntil(() => view.host.textContent === 'second', 'the later value shows');
    view.unmount();
  });

  it('a computed store shows its value, once, and its changes', () => {
    const $base = atom(2);
    const $double = computed($base, (n) => ({ n: n * 2 }));
    let renders = 0;
    const View = () => {
      renders++;
      return h('p', null, `double ${useStore($double).n}`);
    };
    const view = mount(h(View));
    expect(view.host.textContent).to.equal('double 4');
    expect(renders, 'no render loop over a fresh object').to.be.at.most(2);
    act(() => $base.set(5));
    expect(view.host.textContent).to.equal('double 10');
    view.unmount();
  });
});
