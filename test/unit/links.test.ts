/** Which link clicks `<channel-app>` handles itself (src/components/app/links.ts). */
import { expect } from '@open-wc/testing';
import { inAppPath, type LinkClick } from '../../src/components/app/links.js';

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
