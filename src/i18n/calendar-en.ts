/**
 * English texts of the schedule's calendar (`schedule.calendar.*`), whose code comes apart from the schedule's: DayPicker.tsx adds
 * them to the texts as it is evaluated, before it renders, rather than the shared chunk every page loads first
 * carrying them. French keeps them in fr.ts, fetched whole.
 */
export const calendarEn = {
  label: 'Calendar',
  day: 'Day',
  all: 'All days',
  today: 'Today, {{date}}',
  previous: 'Previous week',
  next: 'Next week',
} as const;
