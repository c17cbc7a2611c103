/** Link templates and redaction (src/lib/url.ts). */
import { expect } from '@open-wc/testing';
import { fillTemplate, redactData, redactMediaUrl, redactUrl } from '../../../src/lib/url.js';

describe('fillTemplate', () => {
  const base = 'https://host.test/schedule/';

  it('fills placeholders with URI-encoded values', () => {
    expect(fillTemplate('/watch/{id}', { id: 42 }, base)).to.equal('/watch/42');
    expect(fillTemplate('/watch/{id}?t={name}', { id: 'a b/c', name: 'x&y' }, base)).to.equal(
      '/watch/a%20b%2Fc?t=x%26y',
    );
    expect(fillTemplate('https://tv.test/e/{id}', { id: 7 }, base)).to.equal('https://tv.test/e/7');
    expect(fillTemplate('watch?e={id}&missing={nope}', { id: 7 }, base)).to.equal('watch?e=7&missing=');
  });

  it('rejects javascript:, data: and other schemes', () => {
    expect(fillTemplate('javascript:alert({id})', { id: 1 }, base)).to.equal(undefined);
    expect(fillTemplate('  JavaScript:alert(1)', {}, base)).to.equal(undefined);
    expect(fillTemplate('java\tscript:alert(1)', {}, base)).to.equal(undefined);
    expect(fillTemplate('data:text/html,<script>alert(1)</script>', {}, base)).to.equal(undefined);
    expect(fillTemplate('{id}:alert(1)', { id: 'javascript' }, base)).to.equal(undefined);
    expect(fillTemplate('mailto:a@b.test', {}, base)).to.equal(undefined);
  });
});

describe('redaction', () => {
  it('redacts secrets in a URL and keeps the rest', () => {
    expect(redactUrl('https://api.test/api/events?team=hawks&api_key=ak-1&token=t&password=p')).to.equal(
      'https://api.test/api/events?team=hawks&api_key=REDACTED&token=REDACTED&password=REDACTED',
    );
    expect(redactUrl('https://api.test/api/settings?channel_key=ck')).to.equal(
      'https://api.test/api/settings?channel_key=ck',
    );
    // A shared clip's uuid is its access: logs never carry it.
    expect(redactUrl('https://api.test/api/shared-clip/9?uuid=3f2a1b4c-5d6e&api_key=k')).to.equal(
      'https://api.test/api/shared-clip/9?uuid=REDACTED&api_key=REDACTED',
    );
  });

  it('redacts a relative URL too', () => {
    expect(redactUrl('/api/events?api_key=ak-1&team=x')).to.equal('/api/events?api_key=REDACTED&team=x');
  });

  it('a media URL loses its query, hash, user info and credential-like path segments, and keeps the rest', () => {
    const token = '1735689600.v42.a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ0';
    expect(redactMediaUrl(`http://localhost:8090/media/s/${token}/7/master.m3u8`)).to.equal(
      'http://localhost:8090/media/s/-/7/master.m3u8',
    );
    expect(redactMediaUrl(`/media/s/${token}/7/720p/seg-00042.ts`)).to.equal('/media/s/-/7/720p/seg-00042.ts');
    expect(
      redactMediaUrl(
        'https://cdn.test/live/7/index.m3u8?token=t1&sig=s2&Policy=p3&Key-Pair-Id=K4&Signature=s5&exp=9#t=30',
      ),
    ).to.equal('https://cdn.test/live/7/index.m3u8');
    expect(redactMediaUrl('https://viewer:secret@cdn.test/a/b.m3u8')).to.equal('https://cdn.test/a/b.m3u8');
    // A JWT, a hex HMAC and a percent-escaped base64 token in the path.
    expect(redactMediaUrl('https://cdn.test/eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3MzV9.c2lnbmF0dXJl/v.m3u8')).to.equal(
      'https://cdn.test/-/v.m3u8',
    );
    expect(redactMediaUrl('https://cdn.test/hls/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b/v.m3u8')).to.equal(
      'https://cdn.test/hls/-/v.m3u8',
    );
    expect(redactMediaUrl('https://cdn.test/k/AbC123dEf456GhI789%2BjKl%3D%3D/v.m3u8')).to.equal(
      'https://cdn.test/k/-/v.m3u8',
    );
    // Names stay: short, letters only, or digits only.
    expect(redactMediaUrl('https://cdn.test/vod/final/1080p/index.m3u8')).to.equal(
      'https://cdn.test/vod/final/1080p/index.m3u8',
    );
    expect(
      redactMediaUrl('https://cdn.test/vod/1735689600123456789012345/highlights-of-the-spring-final/a.m3u8'),
    ).to.equal('https://cdn.test/vod/1735689600123456789012345/highlights-of-the-spring-final/a.m3u8');
    // A long name mixing letters and digits goes too: the rule errs on the side of the secret (the video's id and
    // title reach analytics on their own).
    expect(redactMediaUrl('https://cdn.test/vod/spring-final-2024-highlights/a.m3u8')).to.equal(
      'https://cdn.test/vod/-/a.m3u8',
    );
    // MSE sources keep only their scheme; an empty source stays empty.
    expect(redactMediaUrl('blob:http://localhost:8000/3f2a1b9c-1234-4abc-9def-0123456789ab')).to.equal('blob:');
    expect(redactMediaUrl('data:application/vnd.apple.mpegurl;base64,I0VYVE0zVQ==')).to.equal('data:');
    expect(redactMediaUrl('')).to.equal('');
  });

  it('redacts secret fields at any depth of a payload', () => {
    expect(
      redactData({ email: 'a@b.test', password: 'p', card: { number: '4242' }, list: [{ cvc: '123', ok: 1 }] }),
    ).to.deep.equal({ email: 'a@b.test', password: 'REDACTED', card: 'REDACTED', list: [{ cvc: 'REDACTED', ok: 1 }] });
    expect(redactData(null)).to.equal(null);
    expect(redactData('x')).to.equal('x');
  });
});
