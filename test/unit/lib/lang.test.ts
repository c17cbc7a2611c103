/** The elements' and the site's language rules (src/lib/lang.ts). */
import { expect } from '@open-wc/testing';
import { elementLang, siteLang } from '../../../src/lib/lang.js';

describe('the language rules', () => {
  /** An element inside an English page (a CMS's default `<html lang="en">`). */
  function onEnglishPage(): Element {
    const page = document.createElement('div');
    page.lang = 'en';
    return page.appendChild(document.createElement('span'));
  }

  it("a single element: its lang, the script's data-lang, the lang around it, then the channel's", () => {
    const el = onEnglishPage();
    expect(elementLang(el, 'fr', 'en', 'en')).to.equal('fr');
    expect(elementLang(el, undefined, 'fr', 'en')).to.equal('fr');
    expect(elementLang(el, undefined, undefined, 'fr'), 'the page wins').to.equal('en');
    expect(elementLang(document.createElement('span'), undefined, undefined, 'fr')).to.equal('fr');
  });

  it("the site: the viewer's choice, its lang or data-lang, the script's data-lang, the channel's, then around", () => {
    const el = onEnglishPage();
    expect(siteLang(el, 'en', 'fr', 'fr', 'fr', 'fr')).to.equal('en');
    expect(siteLang(el, undefined, 'en', 'fr', 'fr', 'fr')).to.equal('en');
    expect(siteLang(el, undefined, undefined, 'en', 'fr', 'fr')).to.equal('en');
    expect(siteLang(el, undefined, 'de', undefined, 'en', 'fr'), 'an unknown lang is none').to.equal('en');
    expect(siteLang(el, undefined, undefined, undefined, undefined, 'fr'), 'the channel wins').to.equal('fr');
    expect(siteLang(el, undefined, undefined, undefined, undefined, undefined), 'channel unknown').to.equal('en');
    const french = document.createElement('div');
    french.lang = 'fr';
    const inFrench = french.appendChild(document.createElement('span'));
    expect(siteLang(inFrench, undefined, undefined, undefined, undefined, undefined)).to.equal('fr');
    expect(siteLang(undefined, undefined, undefined, undefined, undefined, undefined)).to.equal('en');
  });
});
