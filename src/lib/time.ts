/**
 * Time zones and date formatting through `Intl` only.
 *
 * Channels label events with zone abbreviations ("EST", "PT"); the alias table maps them to IANA region zones.
 */

/** Zone abbreviations channels use, mapped to the region zone they stand for. */
export const TIME_ZONE_ALIASES: Readonly<Record<string, string>> = {
  EST: 'America/New_York',
  EDT: 'America/New_York',
  ET: 'America/New_York',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  CT: 'America/Chicago',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  MT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  PT: 'America/Los_Angeles',
  AKST: 'America/Anchorage',
  AKDT: 'America/Anchorage',
  HST: 'Pacific/Honolulu',
  AST: 'America/Halifax',
  NST: 'America/St_Johns',
  GMT: 'Europe/London',
  BST: 'Europe/London',
  UTC: 'UTC',
  CET: 'Europe/Paris',
  CEST: 'Europe/Paris',
  EET: 'Europe/Athens',
  AEST: 'Australia/Sydney',
};

const validZones = new Map<string, boolean>();

/** True when the runtime's Intl knows this IANA zone name. */
function isZone(name: string): boolean {
  let ok = validZones.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      ok = true;
    } catch {
      ok = false;
    }
    validZones.set(name, ok);
  }
  return ok;
}

/** Resolves an abbreviation or IANA name to an IANA zone; unknown or empty input gives undefined. */
export function resolveTimeZone(label: string | null | undefined): string | undefined {
  if (!label) return undefined;
  const trimmed = label.trim();
  const alias = TIME_ZONE_ALIASES[trimmed.toUpperCase()];
  if (alias) return alias;
  return isZone(trimmed) ? trimmed : undefined;
}

/** The viewer's own time zone as the browser reports it. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A cached DateTimeFormat: building one is far slower than using it, and lists format thousands of dates. */
export function dateFormat(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = lang + JSON.stringify(options);
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, options);
    formatters.set(key, f);
  }
  return f;
}

/** How an event's start reads in a list: the viewer's date and time, and the venue's time when it differs. */
export interface EventTimeText {
  /** e.g. "Sat, Nov 21" */
  date: string;
  /** e.g. "7:00 PM EST" in the viewer's zone */
  time: string;
  /** e.g. "6:00 PM CST", the time at the venue, when the venue's zone differs from the viewer's */
  venueTime?: string;
  /** ISO 8601 for a <time datetime> attribute */
  iso: string;
}

/** Formats an event start (UNIX seconds) for the viewer, labelled with the event's own zone when different. */
export function formatEventTime(
  utcSeconds: number,
  eventZoneLabel: string | null | undefined,
  lang: string,
  viewerZone: string = viewerTimeZone(),
): EventTimeText {
  const at = new Date(utcSeconds * 1000);
  const date = dateFormat(lang, { weekday: 'short', month: 'short', day: 'numeric', timeZone: viewerZone }).format(at);
  const time = dateFormat(lang, {
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: viewerZone,
  }).format(at);
  const eventZone = resolveTimeZone(eventZoneLabel);
  const text: EventTimeText = { date, time, iso: at.toISOString() };
  if (eventZone && offsetAt(eventZone, at) !== offsetAt(viewerZone, at)) {
    const venue = dateFormat(lang, { hour: 'numeric', minute: '2-digit', timeZone: eventZone }).format(at);
    text.venueTime = `${venue} ${zoneLabel(eventZoneLabel ?? '', eventZone, at, lang)}`;
  }
  return text;
}

/** The zone's short name at that instant (EST vs EDT), keeping the channel's own label when Intl has none. */
function zoneLabel(label: string, zone: string, at: Date, lang: string): string {
  const part = dateFormat(lang === 'fr' ? 'en-US' : lang, { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return part && !part.startsWith('GMT') ? part : label.toUpperCase();
}

/** The zone's UTC offset name at that instant, used only to compare two zones. */
function offsetAt(zone: string, at: Date): string {
  return (
    dateFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? zone
  );
}

/** A length or position in seconds as m:ss (h:mm:ss from an hour), as players show it. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/**
 * A calendar date as the API writes it (`2026-03-14`, or a date and time) in the viewer's language, with its ISO
 * form for `<time datetime>`; a date-only value is that day wherever the viewer is. Undefined when unreadable.
 */
export function formatDay(value: string | null | undefined, lang: string): { text: string; iso: string } | undefined {
  if (!value) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = new Date(dateOnly ? `${value}T00:00:00Z` : value.replace(' ', 'T'));
  if (Number.isNaN(at.getTime())) return undefined;
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
  if (dateOnly) options.timeZone = 'UTC';
  return { text: dateFormat(lang, options).format(at), iso: dateOnly ? value : at.toISOString() };
}

// ---------------------------------------------------------------- calendar days (the schedule's day picker)

/** Seconds in the calendar's day: spec section 9, "Calendar start date is the selected day plus 86400 s". */
export const CALENDAR_DAY_SECONDS = 86_400;

/** Whether a text is a real calendar day written `YYYY-MM-DD` (2030-02-31 is not). */
export function isDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return at.toISOString().slice(0, 10) === text;
}

/** The `YYYY-MM-DD` day that `n` calendar days after `day` is (before it for a negative `n`). */
export function addDays(day: string, n: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + n);
  return at.toISOString().slice(0, 10);
}

/** The wall clock of `zone` at an instant, as the UTC milliseconds that read the same. */
function wallClock(ms: number, zone: string): number {
  const parts = dateFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
}

/** The `YYYY-MM-DD` day an instant (UNIX seconds) falls on in a zone (the viewer's by default). */
export function dayOf(seconds: number, zone: string = viewerTimeZone()): string {
  return new Date(wallClock(Math.floor(seconds) * 1000, zone)).toISOString().slice(0, 10);
}

/**
 * When a day starts in a zone (the viewer's by default), as UNIX seconds: its midnight there (the first moment of
 * the day where a clock change skips midnight).
 */
export function dayStart(day: string, zone: string = viewerTimeZone()): number {
  const midnight = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
  // The zone's offset near that midnight, then again at the first guess (the offset may change in between).
  let at = midnight - (wallClock(midnight, zone) - midnight);
  at = midnight - (wallClock(at, zone) - at);
  if (dayOf(at / 1000, zone) !== day) at += 3600_000;
  return Math.floor(at / 1000);
}

/**
 * The API's date filter for one day of the calendar (spec section 9): `start_date` the day's start in the viewer's
 * zone, then the day's length, as UNIX seconds: the spec's 86,400 s, except on the two days a year the zone's clock
 * changes, which last 23 or 25 hours (a fixed 86,400 s would list an hour of events on two days, or lose the last
 * hour of a 25-hour day). The API's `end_date` counts its own second, so it is the last second before the next
 * day's start: an event at the next midnight belongs to the next day only.
 */
export function dayFilter(day: string, zone?: string): { start_date: string; end_date: string } {
  const start = dayStart(day, zone);
  const next = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)) + 1))
    .toISOString()
    .slice(0, 10);
  return { start_date: String(start), end_date: String(dayStart(next, zone) - 1) };
}
