/**
 * One loader for every namespace of texts (src/i18n/index.ts) and the one way a view waits for them
 * (src/components/ui/namespace.tsx). Each test file runs in its own page, so nothing here is loaded at start.
 */
import { expect } from '@open-wc/testing';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { NamespaceReady } from '../../../src/components/ui/namespace.js';
import { ElementContext } from '../../../src/components/ui/context.js';
import { $languages, $namespaces, hasNamespace, loadNamespace, translator } from '../../../src/i18n/index.js';
import { until } from '../helpers.js';

describe('translation namespaces', () => {
  it('has English translation texts bundled: loading them sends for nothing', async () => {
    expect(hasNamespace('en', 'translation')).to.equal(true);
    await loadNamespace('en', 'translation');
    expect($namespaces.get()).to.deep.equal(['en:translation']);
    expect(translator('en')('common.loading')).to.equal('Loading…');
  });

  it('loads a namespace once, however many ask at the same time, then translates with it', async () => {
    expect(hasNamespace('fr', 'forms')).to.equal(false);
    const first = loadNamespace('fr', 'forms');
    expect(loadNamespace('fr', 'forms'), 'a second caller joins the first load').to.equal(first);
    await first;
    expect(hasNamespace('fr', 'forms')).to.equal(true);
    expect($namespaces.get()).to.include('fr:forms');
    expect(translator('fr')('forms:validation.email')).to.equal('Une adresse e-mail valide est requise');
    expect(hasNamespace('en', 'forms'), 'one language at a time').to.equal(false);
  });

  it("adds a language's translation texts to $languages (the shell waits for them there)", async () => {
    expect($languages.get()).to.deep.equal(['en']);
    await loadNamespace('fr', 'translation');
    expect($languages.get()).to.deep.equal(['en', 'fr']);
    expect(translator('fr')('common.loading')).to.equal('Chargement…');
  });

  it('loads the checkout texts with the same loader', async () => {
    expect(hasNamespace('en', 'checkout')).to.equal(false);
    await loadNamespace('en', 'checkout');
    expect(hasNamespace('en', 'checkout')).to.equal(true);
    expect(translator('en')('checkout:summary.total')).to.equal('Total');
  });

  it('loads the clips texts with the same loader, French with the same keys', async () => {
    await loadNamespace('fr', 'clips');
    expect(translator('fr')('clips:player.gone')).to.equal("Cet extrait n'est plus disponible");
    expect(hasNamespace('en', 'clips')).to.equal(false);
  });

  it('<NamespaceReady> shows the loading panel until the texts are in, then its children', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    const panels: string[] = [];
    const observer = new MutationObserver(() => {
      const panel = container.querySelector('[part="loading"]');
      if (panel && panels.length === 0) panels.push(panel.textContent ?? '');
    });
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    try {
      const info = { lang: 'fr' as const, t: translator('fr'), currency: 'EUR' };
      const child = createElement('p', { id: 'child' }, translator('fr')('checkout:summary.total'));
      root.render(
        createElement(
          ElementContext.Provider,
          { value: info },
          createElement(NamespaceReady, { ns: 'checkout', children: child }),
        ),
      );
      await until(() => container.querySelector('#child') !== null, 'the children');
      // The panel may come and go between two polls (the texts load fast here): the observer saw it.
      expect(panels).to.deep.equal(['Chargement…']);
      expect(hasNamespace('fr', 'checkout')).to.equal(true);
      expect(container.querySelector('[role="status"]')).to.equal(null);
    } finally {
      observer.disconnect();
      root.unmount();
      container.remove();
    }
  });
});
