/** The newsroom's clock: every date on the site is Chicago's, on the server and in the browser alike. */
export const NEWSROOM_TIME_ZONE = 'America/Chicago';

let longUsDate: Intl.DateTimeFormat | undefined;

/** e.g. "Saturday, November 21, 2026". Explicit locale and zone so server and client agree. */
export function formatChicagoDate(date: Date): string {
  // Made on first use, not at import: a browser's first Intl.DateTimeFormat costs tens of ms
  // (ICU start-up), a long task on the page's load path.
  longUsDate ??= new Intl.DateTimeFormat('en-US', {
    timeZone: NEWSROOM_TIME_ZONE,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  return longUsDate.format(date);
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const HOUR = 3_600_000;

function longUsDateAtOffset(date: Date, offsetHours: number): string {
  const d = new Date(date.getTime() + offsetHours * HOUR);
  return `${WEEKDAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/**
 * Chicago's date by arithmetic alone, when the instant allows it: Chicago is always UTC−6 or
 * UTC−5, so when both offsets give the same day, that day is Chicago's (23 hours in 24).
 * Undefined in the remaining hour: ask formatChicagoDate. Lets the browser skip Intl on load.
 */
export function chicagoDateWithoutIntl(date: Date): string | undefined {
  const standard = longUsDateAtOffset(date, -6);
  return standard === longUsDateAtOffset(date, -5) ? standard : undefined;
}

/**
 * The machine-readable form of a date in the long US format above ("Saturday, November 21, 2026" →
 * "2026-11-21"), for <time datetime>. Read from the words themselves, so the server and the
 * browser's first render derive the same value from the same string (no clock, no Intl).
 */
export function isoDateOfLongUsDate(long: string): string | undefined {
  const match = /^\w+, (\w+) (\d{1,2}), (\d{4})$/.exec(long);
  const month = match ? MONTHS.indexOf(match[1]!) + 1 : 0;
  if (!match || month === 0) return undefined;
  return `${match[3]}-${String(month).padStart(2, '0')}-${match[2]!.padStart(2, '0')}`;
}
