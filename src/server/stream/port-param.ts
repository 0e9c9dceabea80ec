/**
 * The visitor's `port` parameter, read from the raw query string. Only the
 * exact form `port=<digits>` with an allowed number passes: no other or
 * repeated parameters, no signs, leading zeros, percent-encoding or spaces.
 * One strict pattern on the raw bytes leaves no decoder to be tricked.
 */
import { queryOf } from '../request-target.ts';

const EXACT = /^port=([1-9]\d{0,4})$/;

/** The allowed port the request target asks for, or null for anything else. */
export function requestedPort(target: string, allowed: readonly number[]): number | null {
  const query = queryOf(target);
  if (query === null) return null;
  const match = EXACT.exec(query);
  if (!match) return null;
  const port = Number(match[1]);
  return allowed.includes(port) ? port : null;
}
