/**
 * The loader's message in place of an element whose code never came (src/loader/fallback.ts): in the element's own
 * language first (its `lang`), else the script's `data-lang`, else the nearest ancestor's, else English (the order the
 * elements themselves follow: src/lib/lang.ts); never over content of the element's own.
 */
import { expect } from '@open-wc/testing';
import { showUnloaded } from '../../../src/loader/fallback.js';

describe('showUnloaded', () => {
  let box: HTMLElement;
  beforeEach(() => {
    box = document.createElement('div');
    document.body.append(box);
  });
  afterEach(() => box.remove());

  const note = (id: string) => box.querySelector(`#${id} [data-channel-unloaded]`)?.textContent ?? null;

  it('speaks the element’s own language, then the script’s, then the page’s; keeps content of the element’s own', () => {
    box.innerHTML = `
      <channel-schedule id="own" lang="fr"></channel-schedule>
      <section lang="fr"><channel-schedule id="inherited"></channel-schedule></section>
      <channel-schedule id="filled"><a href="/schedule">Schedule</a></channel-schedule>`;
    showUnloaded('channel-schedule', 'en');
    expect(note('own')).to.match(/^Cette partie de la page n’a pas pu être chargée/);
    expect(box.querySelector('#own [data-channel-unloaded]')!.getAttribute('role')).to.equal('alert');
    // The script's data-lang before the page's (a WordPress page is lang="en-US" whatever the channel speaks).
    expect(note('inherited')).to.match(/^This part of the page could not be loaded/);
    box.innerHTML = `<section lang="fr"><channel-schedule id="page"></channel-schedule></section>`;
    showUnloaded('channel-schedule', undefined);
    expect(note('page')).to.match(/^Cette partie de la page n’a pas pu être chargée/);
    expect(note('filled')).to.equal(null);
  });

  it('falls back to the script’s data-lang, then English; a refused chunk says it was blocked', () => {
    document.documentElement.removeAttribute('lang');
    box.innerHTML = `<channel-player id="a"></channel-player>`;
    showUnloaded('channel-player', 'fr-CA', true);
    expect(note('a')).to.match(/^Cette partie de la page a été bloquée/);
    box.innerHTML = `<channel-player id="b"></channel-player>`;
    showUnloaded('channel-player', undefined);
    expect(note('b')).to.match(/^This part of the page could not be loaded/);
  });
});
