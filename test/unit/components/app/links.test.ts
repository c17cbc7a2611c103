/** Which link clicks `<channel-app>` handles itself (src/components/app/links.ts). */
import { expect } from '@open-wc/testing';
import { VodItem } from '../../../../src/api/contract.js';
import { inAppPath, safeUrl, type LinkClick } from '../../../../src/components/app/links.js';
import { fromClip, fromEvent, fromVod } from '../../../../src/stores/commerce/access.js';
import { assetOf } from '../../../../src/stores/library.js';
import { clip, event } from '../../../fixtures/contract.js';

const ORIGIN = 'https://tv.example';
const plain: LinkClick = {
  button: 0,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
};

describe('in-app links', () => {
  it('a plain click on a path of the site opens it in the app, with its query', () => {
    expect(inAppPath(plain, { href: '/watch/12?trk=x' }, ORIGIN, '/')).to.equal('/watch/12?trk=x');
    expect(inAppPath(plain, { href: `${ORIGIN}/tv/faq` }, ORIGIN, '/tv')).to.equal('/faq');
    expect(inAppPath(plain, { href: 'https://tv.example/tv' }, ORIGIN, '/tv')).to.equal('/');
    expect(inAppPath(plain, { href: '/watch/12', target: '_self' }, ORIGIN, '/')).to.equal('/watch/12');
  });

  it('leaves modified clicks, other buttons and handled clicks to the browser', () => {
    for (const change of [
      { metaKey: true },
      { ctrlKey: true },
      { shiftKey: true },
      { altKey: true },
      { button: 1 },
      { defaultPrevented: true },
    ]) {
      expect(inAppPath({ ...plain, ...change }, { href: '/faq' }, ORIGIN, '/'), JSON.stringify(change)).to.equal(
        undefined,
      );
    }
  });

  it('leaves other origins, other schemes, paths outside the base, new windows and downloads to the browser', () => {
    const cases = [
      { href: 'https://other.example/faq' },
      { href: 'mailto:help@tv.example' },
      { href: 'javascript:alert(1)' },
      { href: '/news/1' },
      { href: '/tvguide' },
      { href: '/tv/faq', target: '_blank' },
      { href: '/tv/faq', download: true },
    ];
    for (const link of cases) expect(inAppPath(plain, link, ORIGIN, '/tv'), link.href).to.equal(undefined);
  });
});

describe('picture URLs from the channel (posters, library pictures, icons)', () => {
  const item = (path: string) => VodItem.parse({ id: 3, title: 'Reel', assets: [{ type: 'image', path }] });
  const clipWith = (url: string) => clip({ duration: 30, media: [{ type: 'image', url }] });

  it('keep web addresses and site paths', () => {
    for (const url of ['https://cdn.example/art/7.jpg', 'http://cdn.example/a.png', '/media/art/hockey.svg']) {
      expect(safeUrl(url), url).to.equal(url);
      expect(fromEvent(event({ image: url }), 'Final').poster, url).to.equal(url);
      expect(fromVod(item(url)).poster, url).to.equal(url);
      expect(assetOf(item(url), 'image'), url).to.equal(url);
      expect(fromClip(clipWith(url)).poster, url).to.equal(url);
    }
  });

  it('drop script and data URLs, other hosts by a protocol-relative path, and anything with spaces', () => {
    for (const url of [
      'javascript:__xssHit(1)',
      ' javascript:__xssHit(1)',
      'java\tscript:__xssHit(1)',
      'data:text/html,<script>__xssHit(1)</script>',
      '//evil.example/x.png',
      '/x" onerror="__xssHit(1)',
      'vbscript:x',
    ]) {
      expect(safeUrl(url), url).to.equal(undefined);
      expect(fromEvent(event({ image: url }), 'Final').poster, url).to.equal(undefined);
      expect(fromVod(item(url)).poster, url).to.equal(undefined);
      expect(assetOf(item(url), 'image'), url).to.equal(undefined);
      expect(fromClip(clipWith(url)).poster, url).to.equal(undefined);
    }
  });
});
