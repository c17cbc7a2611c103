/**
 * Pure helpers: time zones and event times (src/lib/time.ts), prices (src/lib/money.ts), link templates and
 * redaction (src/lib/url.ts), channel colours (src/lib/colors.ts), the elements' and the site's language rules
 * (src/lib/lang.ts). The browser runs in America/New_York, en-US.
 */
import { expect } from '@open-wc/testing';
import { COLOR_VARIANTS, colorDeclarations, parseHex } from '../../src/lib/colors.js';
import { elementLang, siteLang } from '../../src/lib/lang.js';
import { formatPrice } from '../../src/lib/money.js';
import {
  CALENDAR_DAY_SECONDS,
  TIME_ZONE_ALIASES,
  addDays,
  dayFilter,
  dayOf,
  dayStart,
  formatEventTime,
  isDay,
  resolveTimeZone,
} from '../../src/lib/time.js';
import { fillTemplate, redactData, redactMediaUrl, redactUrl } from '../../src/lib/url.js';

/** Intl uses narrow and plain no-break spaces and a real minus sign; compare text as a reader sees it. */
const plain = (s: string | undefined) => s?.replace(/[\u202f\u00a0]/g, ' ').replace(/\u2212/g, '-');
const plainTime = (t: ReturnType<typeof formatEventTime>) =>
  Object.fromEntries(Object.entries(t).map(([k, v]) => [k, plain(v)]));

/** 2024-01-20T00:00:00Z: Friday 7 PM in New York (EST), 4 PM in Los Angeles, 1 AM Saturday in Paris. */
const JAN = Date.UTC(2024, 0, 20, 0, 0, 0) / 1000;
/** 2024-07-04T23:00:00Z: 7 PM EDT in New York. */
const JUL = Date.UTC(2024, 6, 4, 23, 0, 0) / 1000;

describe('time zones', () => {
  it('maps abbreviations to region zones, case-insensitively', () => {
    expect(resolveTimeZone('EST')).to.equal('America/New_York');
    expect(resolveTimeZone('EDT')).to.equal('America/New_York');
    expect(resolveTimeZone('PT')).to.equal('America/Los_Angeles');
    expect(resolveTimeZone(' pt ')).to.equal('America/Los_Angeles');
    expect(resolveTimeZone('CST')).to.equal('America/Chicago');
    expect(resolveTimeZone('HST')).to.equal('Pacific/Honolulu');
  });

  it('maps every alias to a zone this browser knows', () => {
    for (const [alias, zone] of Object.entries(TIME_ZONE_ALIASES)) {
      expect(() => new Intl.DateTimeFormat('en', { timeZone: zone }), alias).not.to.throw();
    }
  });

  it('passes IANA names through and gives undefined for unknown or empty labels', () => {
    expect(resolveTimeZone('Europe/Berlin')).to.equal('Europe/Berlin');
    expect(resolveTimeZone('Mars/Olympus_Mons')).to.equal(undefined);
    expect(resolveTimeZone('XYZT')).to.equal(undefined);
    expect(resolveTimeZone('')).to.equal(undefined);
    expect(resolveTimeZone(null)).to.equal(undefined);
  });
});

describe('formatEventTime', () => {
  it('shows no venue time when the event is in the viewer zone', () => {
    const text = formatEventTime(JAN, 'EST', 'en-US', 'America/New_York');
    expect(plainTime(text)).to.deep.equal({
      date: 'Fri, Jan 19',
      time: '7:00 PM EST',
      iso: '2024-01-20T00:00:00.000Z',
    });
    expect(text).not.to.have.property('venueTime');
  });

  it("uses the browser's zone by default (pinned to America/New_York)", () => {
    expect(plain(formatEventTime(JAN, null, 'en-US').time)).to.equal('7:00 PM EST');
  });

  it('compares zones by offset at that instant: an EST label on a July date is still the viewer zone', () => {
    const text = formatEventTime(JUL, 'EST', 'en-US', 'America/New_York');
    expect(plain(text.time)).to.equal('7:00 PM EDT');
    expect(text.venueTime).to.equal(undefined);
  });

  it('shows no venue time for another zone name with the same offset', () => {
    expect(formatEventTime(JAN, 'America/Toronto', 'en-US', 'America/New_York').venueTime).to.equal(undefined);
    expect(formatEventTime(JAN, 'GMT', 'en-US', 'UTC').venueTime).to.equal(undefined);
  });

  it('adds the venue time when the zones differ', () => {
    expect(plain(formatEventTime(JAN, 'PT', 'en-US', 'America/New_York').venueTime)).to.equal('4:00 PM PST');
    expect(plain(formatEventTime(JAN, 'CST', 'en-US', 'America/New_York').venueTime)).to.equal('6:00 PM CST');
    expect(plain(formatEventTime(JUL, 'PT', 'en-US', 'America/New_York').venueTime)).to.equal('4:00 PM PDT');
  });

  it("keeps the channel's label when Intl only has a GMT offset for the zone", () => {
    expect(plain(formatEventTime(JAN, 'CET', 'en-US', 'America/New_York').venueTime)).to.equal('1:00 AM CET');
  });

  it('formats for a viewer abroad', () => {
    expect(plainTime(formatEventTime(JAN, 'ET', 'en-US', 'Europe/Paris'))).to.deep.equal({
      date: 'Sat, Jan 20',
      time: '1:00 AM GMT+1',
      iso: '2024-01-20T00:00:00.000Z',
      venueTime: '7:00 PM EST',
    });
  });

  it('ignores an unknown zone label', () => {
    expect(formatEventTime(JAN, 'Mars Time', 'en-US', 'America/New_York').venueTime).to.equal(undefined);
  });

  it('formats in French (24-hour clock, French day and month)', () => {
    expect(plainTime(formatEventTime(JAN, 'PT', 'fr', 'America/New_York'))).to.deep.equal({
      date: 'ven. 19 janv.',
      time: '19:00 UTC-5',
      iso: '2024-01-20T00:00:00.000Z',
      venueTime: '16:00 PST',
    });
  });
});

describe('formatPrice', () => {
  it("writes the spec's form: the code, the currency's sign and the amount, in each language's digits", () => {
    expect(plain(formatPrice(9.99, 'USD', 'en'))).to.equal('USD $9.99');
    expect(plain(formatPrice(1234.5, 'USD', 'en'))).to.equal('USD $1,234.50');
    expect(plain(formatPrice(9.99, 'CAD', 'en'))).to.equal('CAD $9.99');
    expect(plain(formatPrice(9.99, 'CAD', 'fr'))).to.equal('CAD $9,99');
    expect(plain(formatPrice(1234.5, 'USD', 'fr'))).to.equal('USD $1 234,50');
    expect(plain(formatPrice(12.5, 'EUR', 'fr'))).to.equal('EUR €12,50');
    expect(plain(formatPrice(12.5, 'GBP', 'en'))).to.equal('GBP £12.50');
  });

  it('writes a plain space after the code (a narrow cell may wrap there) and signs a negative amount', () => {
    expect(formatPrice(5, 'USD', 'en')).to.equal('USD $5.00');
    expect(plain(formatPrice(-1.25, 'USD', 'en'))).to.equal('-USD $1.25');
  });

  it("uses the currency's own number of decimals, and no sign where the code is all Intl knows", () => {
    expect(plain(formatPrice(1500, 'JPY', 'en'))).to.equal('JPY ¥1,500');
    expect(plain(formatPrice(12.5, 'CHF', 'en'))).to.equal('CHF 12.50');
    expect(plain(formatPrice(12.5, 'XQQ', 'en'))).to.equal('XQQ 12.50');
  });

  it('defaults to USD and accepts a lower-case code', () => {
    expect(plain(formatPrice(5, null, 'en-US'))).to.equal('USD $5.00');
    expect(plain(formatPrice(5, '', 'en-US'))).to.equal('USD $5.00');
    expect(plain(formatPrice(5, 'eur', 'en-US'))).to.equal('EUR €5.00');
  });

  it('falls back to USD for a malformed currency code instead of throwing', () => {
    expect(plain(formatPrice(12.5, 'dollars', 'en-US'))).to.equal('USD $12.50');
    expect(plain(formatPrice(12.5, '$', 'en-US'))).to.equal('USD $12.50');
  });
});

describe('calendar days', () => {
  it('reads and moves YYYY-MM-DD days', () => {
    expect(['2030-03-02', '2028-02-29'].map(isDay)).to.deep.equal([true, true]);
    expect(['2030-02-29', '2030-13-01', '2030-3-2', 'today', ''].map(isDay)).to.deep.equal([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(addDays('2030-02-27', 2)).to.equal('2030-03-01');
    expect(addDays('2030-01-01', -1)).to.equal('2029-12-31');
  });

  it("finds a day's midnight in a zone, across its clock changes", () => {
    const ny = 'America/New_York';
    expect(dayStart('2030-03-02', ny)).to.equal(Date.UTC(2030, 2, 2, 5) / 1000);
    // 10 March 2030: clocks go forward at 2:00, so that day is 23 hours long; the next midnight is EDT.
    expect(dayStart('2030-03-10', ny)).to.equal(Date.UTC(2030, 2, 10, 5) / 1000);
    expect(dayStart('2030-03-11', ny)).to.equal(Date.UTC(2030, 2, 11, 4) / 1000);
    expect(dayStart('2030-07-01', 'Europe/Paris')).to.equal(Date.UTC(2030, 5, 30, 22) / 1000);
    expect(dayStart('2030-07-01', 'Asia/Tokyo')).to.equal(Date.UTC(2030, 5, 30, 15) / 1000);
    expect(dayStart('2030-07-01', 'UTC')).to.equal(Date.UTC(2030, 6, 1) / 1000);
    // Where a clock change skips midnight itself (Santiago, 8 September 2024: 00:00 became 01:00), the day starts at 01:00.
    expect(dayStart('2024-09-08', 'America/Santiago')).to.equal(Date.UTC(2024, 8, 8, 4) / 1000);
  });

  it('names the day of an instant in a zone', () => {
    const evening = Date.UTC(2030, 2, 2, 0) / 1000; // 19:00 on 1 March in New York
    expect(dayOf(evening, 'America/New_York')).to.equal('2030-03-01');
    expect(dayOf(evening, 'Europe/Paris')).to.equal('2030-03-02');
    expect(dayOf(Date.UTC(2030, 2, 2, 4, 59, 59) / 1000, 'America/New_York')).to.equal('2030-03-01');
    expect(dayOf(Date.UTC(2030, 2, 2, 5) / 1000, 'America/New_York')).to.equal('2030-03-02');
  });

  it("the API's filter of a day: its start, then the spec's 86,400 s, end_date being the last of them", () => {
    const start = Date.UTC(2030, 2, 1, 5) / 1000;
    expect(dayFilter('2030-03-01', 'America/New_York')).to.deep.equal({
      start_date: String(start),
      end_date: String(start + CALENDAR_DAY_SECONDS - 1),
    });
    expect(CALENDAR_DAY_SECONDS).to.equal(86_400);
  });

  it('a day the clock changes lasts its 23 or 25 hours, so every moment is on exactly one day', () => {
    const span = (day: string) => {
      const { start_date, end_date } = dayFilter(day, 'America/New_York');
      return Number(end_date) - Number(start_date) + 1;
    };
    expect(span('2030-03-10')).to.equal(23 * 3600);
    expect(span('2030-11-03')).to.equal(25 * 3600);
    // The 25-hour day's last hour (23:30 local, after the clocks went back) is on it, and not on the next day.
    const lateEvening = Date.UTC(2030, 10, 4, 4, 30) / 1000;
    expect(Number(dayFilter('2030-11-03', 'America/New_York').end_date)).to.be.at.least(lateEvening);
    expect(Number(dayFilter('2030-11-04', 'America/New_York').start_date)).to.be.greaterThan(lateEvening);
  });
});

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

describe('colorDeclarations', () => {
  it('declares the colour and its body-text-color variants 5 to 95', () => {
    expect(COLOR_VARIANTS['body-text-color']).to.deep.equal([5, 10, 20, 50, 70, 95]);
    expect(colorDeclarations({ 'body-text-color': '#336699' }).split('\n')).to.deep.equal([
      '--channel-body-text-color: #336699;',
      '--channel-body-text-color-5: rgba(51, 102, 153, 0.05);',
      '--channel-body-text-color-10: rgba(51, 102, 153, 0.1);',
      '--channel-body-text-color-20: rgba(51, 102, 153, 0.2);',
      '--channel-body-text-color-50: rgba(51, 102, 153, 0.5);',
      '--channel-body-text-color-70: rgba(51, 102, 153, 0.7);',
      '--channel-body-text-color-95: rgba(51, 102, 153, 0.95);',
    ]);
  });

  it('declares the variants of the other named colours', () => {
    const lines = colorDeclarations({
      'footer-background': '#000',
      'body-background': '#ffffff',
      'header-text-color': '#FF000080',
      accent: '#123456',
    }).split('\n');
    expect(lines).to.deep.equal([
      '--channel-footer-background: #000;',
      '--channel-footer-background-20: rgba(0, 0, 0, 0.2);',
      '--channel-footer-background-50: rgba(0, 0, 0, 0.5);',
      '--channel-footer-background-70: rgba(0, 0, 0, 0.7);',
      '--channel-body-background: #ffffff;',
      '--channel-body-background-10: rgba(255, 255, 255, 0.1);',
      '--channel-body-background-20: rgba(255, 255, 255, 0.2);',
      '--channel-body-background-50: rgba(255, 255, 255, 0.5);',
      '--channel-body-background-70: rgba(255, 255, 255, 0.7);',
      '--channel-header-text-color: #FF000080;',
      '--channel-header-text-color-50: rgba(255, 0, 0, 0.5);',
      '--channel-accent: #123456;',
    ]);
  });

  it('rejects non-hex values, which could inject CSS', () => {
    expect(
      colorDeclarations({
        a: 'red',
        b: 'rgb(1,2,3)',
        c: '#12345',
        d: '#336699; background: url(https://evil.test/x)',
        e: '#33669g',
        f: 'url(javascript:alert(1))',
        g: '',
      }),
    ).to.equal('');
    expect(parseHex('#abc')).to.deep.equal([170, 187, 204]);
    expect(parseHex('abc')).to.equal(undefined);
  });

  it('rejects odd colour names', () => {
    expect(
      colorDeclarations({
        'Body-Background': '#fff',
        'x;color:red': '#fff',
        '--x': '#fff',
        '1st': '#fff',
        'a b': '#fff',
        ['a'.repeat(42)]: '#fff',
      }),
    ).to.equal('');
    expect(colorDeclarations({ ['a'.repeat(41)]: '#fff' })).to.equal(`--channel-${'a'.repeat(41)}: #fff;`);
  });
});

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
