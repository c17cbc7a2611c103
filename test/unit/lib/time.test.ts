/**
 * Time zones, event times and calendar days (src/lib/time.ts). The browser runs in America/New_York, en-US.
 */
import { expect } from '@open-wc/testing';
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
} from '../../../src/lib/time.js';
import { plain } from '../helpers.js';

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
