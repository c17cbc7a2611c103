/**
 * The schedule's calendar (option `showCalendar`): a week strip of days in the viewer's time zone, with "All days"
 * first and the previous and next weeks either side. The days are one radio group: Tab reaches the chosen day, the
 * arrow keys choose the next or previous day (past either end of the strip the strip moves by a week), Home all
 * days and End the strip's last day; each day's name for screen readers is its whole date, and today is marked as
 * the current date.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { env } from '../../lib/env.js';
import { addDays, dayOf } from '../../lib/time.js';
import type { ScheduleKind } from '../../stores/schedule.js';
import { useElement, useStyles } from '../ui/context.js';
import { useDayText } from './shared.js';
import { addBundledTexts } from '../../i18n/index.js';
import { calendarEn } from '../../i18n/calendar-en.js';

// The calendar's English texts travel with it, not in the shared chunk: added as this module is evaluated.
addBundledTexts('en', { schedule: { calendar: calendarEn } });

/** Days in the strip. */
const WEEK = 7;

/**
 * The strip's first day when it must show `day`: it starts there, or ends there for on-demand events (they lie in
 * the past, so the days before are the useful ones).
 */
function stripStart(day: string, kind: ScheduleKind): string {
  return kind === 'vod' ? addDays(day, -(WEEK - 1)) : day;
}

/** The day picker. `value` is the chosen day, '' or undefined for all days. */
export function DayPicker(props: {
  value: string | undefined;
  kind: ScheduleKind;
  onChange(day: string): void;
}): ReactNode {
  useStyles(calendarCss);
  const { t } = useElement();
  const text = useDayText();
  const today = dayOf(env().now() / 1000);
  const value = props.value || '';
  const [start, setStart] = useState(() => stripStart(value || today, props.kind));
  const days = Array.from({ length: WEEK }, (_, i) => addDays(start, i));
  const group = useRef<HTMLDivElement>(null);
  /** Moves focus to the chosen radio after the viewer moved through the days by keyboard. */
  const [refocus, setRefocus] = useState(false);

  // A day chosen from outside the strip (an attribute, the site's `?day=`) brings the strip to it.
  useEffect(() => {
    if (value && (value < start || value > addDays(start, WEEK - 1))) setStart(stripStart(value, props.kind));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new value moves the strip: the viewer's own paging (`start`) is not undone
  }, [value]);
  useEffect(() => {
    if (!refocus) return;
    setRefocus(false);
    group.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
  }, [refocus, value, start]);

  const choose = (day: string, viaKeyboard = false) => {
    if (day && (day < start || day > addDays(start, WEEK - 1)))
      setStart(day < start ? addDays(start, -WEEK) : addDays(start, WEEK));
    props.onChange(day);
    if (viaKeyboard) setRefocus(true);
  };
  // The radios in order: all days ('') first, then the strip.
  const order = ['', ...days];
  const onKeyDown = (e: KeyboardEvent) => {
    const at = order.indexOf(value);
    const current = at === -1 ? 0 : at;
    let next: string | undefined;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown')
      next = current === order.length - 1 ? addDays(days[WEEK - 1]!, 1) : order[current + 1];
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp')
      next = current === 0 ? undefined : current === 1 ? addDays(days[0]!, -1) : order[current - 1];
    else if (e.key === 'Home') next = '';
    else if (e.key === 'End') next = days[WEEK - 1];
    if (next === undefined) return;
    e.preventDefault();
    choose(next, true);
  };
  // The chosen radio takes Tab; with a day outside the strip, "All days" does.
  const tabStop = order.includes(value) ? value : '';

  return (
    <div className="calendar" role="group" aria-label={t('schedule.calendar.label')} part="calendar">
      <button
        type="button"
        className="calendar-step"
        aria-label={t('schedule.calendar.previous')}
        part="calendar-previous"
        onClick={() => setStart(addDays(start, -WEEK))}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <div
        className="calendar-days"
        role="radiogroup"
        aria-label={t('schedule.calendar.day')}
        ref={group}
        onKeyDown={onKeyDown}
      >
        <button
          type="button"
          role="radio"
          className="calendar-day all"
          aria-checked={value === ''}
          tabIndex={tabStop === '' ? 0 : -1}
          part="calendar-all"
          onClick={() => choose('')}
        >
          {t('schedule.calendar.all')}
        </button>
        {days.map((day) => {
          const { full, weekday, number } = text(day);
          return (
            <button
              key={day}
              type="button"
              role="radio"
              className="calendar-day"
              aria-checked={value === day}
              aria-label={day === today ? t('schedule.calendar.today', { date: full }) : full}
              aria-current={day === today ? 'date' : undefined}
              tabIndex={tabStop === day ? 0 : -1}
              data-day={day}
              part="calendar-day"
              onClick={() => choose(day)}
            >
              <span className="weekday" aria-hidden="true">
                {weekday}
              </span>
              <span className="number" aria-hidden="true">
                {number}
              </span>
            </button>
          );
        })}
      </div>
      <button
        type="button"
        className="calendar-step"
        aria-label={t('schedule.calendar.next')}
        part="calendar-next"
        onClick={() => setStart(addDays(start, WEEK))}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}

/** The calendar's styles, adopted while it is shown: they travel in this chunk, not in the schedule's first one. */
const calendarCss = /* css */ `
.calendar { display: flex; align-items: center; gap: 6px; margin-bottom: 14px; }
.calendar-days { display: flex; flex-wrap: wrap; gap: 6px; flex: 1; min-width: 0; }
.calendar-day, .calendar-step {
  display: grid; place-items: center; min-width: 40px; min-height: 44px; padding: 4px 6px; border-radius: 10px;
  border: 1px solid var(--_line); background: transparent; cursor: pointer; line-height: 1.15;
}
.calendar-day { flex: 1 0 40px; }
.calendar-day.all { flex: 0 0 auto; padding: 4px 10px; }
.calendar-day .weekday { font-size: .75em; text-transform: uppercase; }
.calendar-day .number { font-size: 1.1em; font-weight: 700; }
.calendar-day[aria-current="date"] { border-color: var(--_accent); }
.calendar-day[aria-checked="true"] { background: var(--_accent); color: var(--_accent-text); border-color: transparent; }
.calendar-day:hover, .calendar-step:hover { border-color: var(--_accent); }
.calendar-step { font-size: 1.3em; }
`;
