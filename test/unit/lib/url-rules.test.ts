/** The rules a URL from an API answer passes before a script, a navigation or a download (src/lib/url-rules.ts). */
import { expect } from '@open-wc/testing';
import {
  downloadUrl,
  mediaOrigins,
  navigationUrl,
  scriptOrigins,
  scriptUrl,
  siteBase,
  TAG_MANAGER_ORIGIN,
} from '../../../src/lib/url-rules.js';

/** What no rule lets through: scripts, documents, other schemes, spellings browsers still run, and no URL at all. */
const HOSTILE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  '\u0001javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'blob:https://tv.example/1',
  'file:///etc/passwd',
  'ftp://files.example/x',
  '',
  '   ',
  'http://[bad',
];

describe('URLs from API answers', () => {
  it('a navigation goes to absolute http(s) URLs only', () => {
    expect(navigationUrl('https://billing.stripe.com/p/session/x')).to.equal('https://billing.stripe.com/p/session/x');
    expect(navigationUrl('http://tv.example/a?b=1')).to.equal('http://tv.example/a?b=1');
    for (const url of [
      ...HOSTILE,
      '/portal',
      '//elsewhere.example/x',
      'javascript\u0000:alert(1)',
      null,
      undefined,
      42,
    ])
      expect(navigationUrl(url), String(url)).to.equal(undefined);
  });

  it('the channel’s site (settings site_url) is an http(s) URL without its trailing slashes, or none', () => {
    expect(siteBase(' https://watch.example/tv/ ')).to.equal('https://watch.example/tv');
    expect(siteBase('https://watch.example')).to.equal('https://watch.example');
    for (const url of [...HOSTILE, '/tv', '//watch.example', null, undefined])
      expect(siteBase(url), String(url)).to.equal(undefined);
  });

  it('a download is https on any host the API names (a storage host), plain http on the channel’s origins only', () => {
    const origins = mediaOrigins('https://api.example/api', [
      { url: 'https://cdn.example/vod/1/master.m3u8?sig=1' },
      { url: 'javascript:alert(1)' },
      { url: '/relative/poster.jpg' },
    ]);
    // A relative media URL is the API's (as the player resolves it); a script URL names no origin.
    expect(origins).to.deep.equal(['https://api.example', 'https://cdn.example', 'https://api.example']);
    expect(downloadUrl('https://cdn.example/dl/1.mp4?sig=2', origins)).to.equal('https://cdn.example/dl/1.mp4?sig=2');
    expect(downloadUrl('https://api.example/media/1.mp4', origins)).to.equal('https://api.example/media/1.mp4');
    // A download is a navigation: the storage host the API names for it is taken as it is.
    expect(downloadUrl('https://storage.example/bucket/1.mp4?X-Amz-Signature=1', origins)).to.equal(
      'https://storage.example/bucket/1.mp4?X-Amz-Signature=1',
    );
    expect(downloadUrl('http://localhost:8080/media/1.mp4', ['http://localhost:8080'])).to.equal(
      'http://localhost:8080/media/1.mp4',
    );
    for (const url of [
      ...HOSTILE,
      'http://storage.example/1.mp4',
      'http://cdn.example/1.mp4',
      '//cdn.example/1.mp4',
      '/media/1.mp4',
    ])
      expect(downloadUrl(url, origins), url).to.equal(undefined);
  });

  it('a script comes from the tag manager or an origin the page allows', () => {
    expect(scriptUrl(`${TAG_MANAGER_ORIGIN}/gtag/js?id=G-1`, [])?.href).to.equal(
      'https://www.googletagmanager.com/gtag/js?id=G-1',
    );
    expect(scriptUrl('https://tags.example/gtag.js', ['https://tags.example'])?.href).to.equal(
      'https://tags.example/gtag.js',
    );
    for (const url of [
      ...HOSTILE,
      'https://tags.example/gtag.js',
      'http://www.googletagmanager.com/gtag/js',
      'https://www.googletagmanager.com.evil.example/gtag/js',
      'https://www.googletagmanager.com@evil.example/gtag/js',
      'https://evil.example\\@www.googletagmanager.com/gtag/js',
      'https://evil.example/?https://www.googletagmanager.com',
      '/gtag.js',
    ])
      expect(scriptUrl(url, []), url).to.equal(undefined);
  });

  it('the page’s script origins: https ones, http on localhost; anything else is named as refused', () => {
    expect(
      scriptOrigins(
        'https://tags.example, http://localhost:8090 https://x.example/ http://tags.example javascript:x https://a.example/path',
      ),
    ).to.deep.equal({
      origins: ['https://tags.example', 'http://localhost:8090', 'https://x.example'],
      refused: ['http://tags.example', 'javascript:x', 'https://a.example/path'],
    });
    expect(scriptOrigins(undefined)).to.deep.equal({ origins: [], refused: [] });
  });
});
