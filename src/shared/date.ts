/** The newsroom's clock: every date on the site is Chicago's, on the server and in the browser alike. */
export const NEWSROOM_TIME_ZONE = 'America/Chicago';

const longUsDate = new Intl.DateTimeFormat('en-US', {
  timeZone: NEWSROOM_TIME_ZONE,
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});

/** e.g. "Saturday, November 21, 2026". Explicit locale and zone so server and client agree. */
export function formatChicagoDate(date: Date): string {
  return longUsDate.format(date);
}
