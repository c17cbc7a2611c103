/**
 * `--starts 2026-12-05T19:00 --tz America/Chicago`: a wall-clock time in an IANA time zone, to the UTC instant the
 * operator API takes. A time with its own offset (`2026-12-06T01:00Z`, `…-06:00`) is taken as it is.
 */
import { CliError, UsageError } from './output.js';

/** Whether `zone` is an IANA time zone this Node knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone === 'UTC' || zone.includes('/');
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at the instant `ms`, in ms (America/Chicago in December: -6 h). */
function offsetAt(ms: number, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The UTC instant (ISO 8601, `…Z`) of `starts` read in `zone`. Throws a UsageError naming the option for a time
 * that is not one, or that the zone skips (a spring-forward gap).
 */
export function startsAtUtc(starts: string, zone: string): string {
  if (!isTimeZone(zone)) throw new UsageError(`--tz: '${zone}' is not an IANA time zone (such as America/Chicago)`);
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(starts)) {
    const ms = Date.parse(starts);
    if (Number.isNaN(ms)) throw new UsageError(`--starts: '${starts}' is not a date and time`);
    return new Date(ms).toISOString().replace('.000Z', 'Z');
  }
  const m = LOCAL.exec(starts);
  if (!m)
    throw new UsageError(
      `--starts: expected a local date and time such as 2026-12-05T19:00 (read in --tz), not '${starts}'`,
    );
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as number[];
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  if (new Date(asUtc).getUTCDate() !== d || new Date(asUtc).getUTCMonth() !== mo! - 1 || h! > 23 || mi! > 59)
    throw new UsageError(`--starts: '${starts}' is not a date and time`);
  // The offset at the guess, then at the corrected instant (they differ only around a change of offset).
  let ms = asUtc - offsetAt(asUtc, zone);
  ms = asUtc - offsetAt(ms, zone);
  if (ms + offsetAt(ms, zone) !== asUtc)
    throw new CliError(`--starts: ${starts} does not exist in ${zone} (the clocks skip it)`, {}, 2);
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
