/**
 * The visitor's `port` parameter, read from the raw query string. Only the
 * exact form `port=<digits>` with an allowed number passes: no other or
 * repeated parameters, no signs, leading zeros, percent-encoding or spaces.
 * One strict pattern on the raw bytes leaves no decoder to be tricked.
 */
const EXACT = /^port=([1-9]\d{0,4})$/;

/** The allowed port the URL asks for, or null for anything else. */
export function requestedPort(originalUrl: string, allowed: readonly number[]): number | null {
  const q = originalUrl.indexOf('?');
  if (q === -1) return null;
  const match = EXACT.exec(originalUrl.slice(q + 1));
  if (!match) return null;
  const port = Number(match[1]);
  return allowed.includes(port) ? port : null;
}
