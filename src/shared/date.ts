/**
 * The newsroom's day as a value: an ISO calendar date ("2026-11-25") in Chicago, worked out from
 * the clock in one place (`chicagoIsoDate`) and turned into words in one pure function
 * (`formatLongDate`). The server keys its page cache and the boot data by the ISO date; the
 * header prints the words, and its <time datetime> is the value itself.
 */

/** The newsroom's clock: every date on the site is Chicago's, on the server and in the browser alike. */
export const NEWSROOM_TIME_ZONE = 'America/Chicago';

/** "YYYY-MM-DD". */
export type IsoDate = string;

let chicagoParts: Intl.DateTimeFormat | undefined;

/** Chicago's calendar date at an instant, by Intl (the time zone's own rules, DST included). */
export function chicagoIsoDate(date: Date): IsoDate {
  // Made on first use, not at import: a browser's first Intl.DateTimeFormat costs tens of ms
  // (ICU start-up), a long task on the page's load path.
  chicagoParts ??= new Intl.DateTimeFormat('en-US', {
    timeZone: NEWSROOM_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const parts = chicagoParts.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
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

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * "2026-11-25" → "Wednesday, November 25, 2026". Pure (no clock, no Intl, no time zone: a
 * calendar date's weekday is the same everywhere), so the server's render and the browser's
 * first render agree by construction. Throws on anything but a real ISO date.
 */
export function formatLongDate(iso: IsoDate): string {
  const match = ISO_DATE.exec(iso);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!match || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    throw new RangeError(`not an ISO date: "${iso}"`);
  return `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[month - 1]} ${day}, ${year}`;
}

const HOUR_MS = 3_600_000;

/**
 * Whether `instant` certainly falls within Chicago's day `iso`, worked out without Intl: Chicago is
 * UTC−6 or UTC−5, so that day starts at its 00:00 UTC plus 5 or 6 hours and ends 24 hours later
 * plus 5 or 6 (a day there has 23, 24 or 25 hours). The browser asks this first: its first Intl
 * formatter with a time zone is one long task (ICU start-up: 230–340 ms at 4× CPU in a traced page
 * load), which only the hour around midnight, or a page read on another day, needs.
 */
export function certainlyChicagoDay(iso: IsoDate, instant: Date): boolean {
  const match = ISO_DATE.exec(iso);
  if (!match) return false;
  const dayStartUtc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const t = instant.getTime();
  return t >= dayStartUtc + 6 * HOUR_MS && t < dayStartUtc + 24 * HOUR_MS + 5 * HOUR_MS;
}
