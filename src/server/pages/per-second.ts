/**
 * A value of the clock worked out at most once a second: the fast lane asks for the day and the
 * page's Cache-Control on every request, and Intl formatting is too slow for that. The clock is
 * read as a number (Date.now, or a test's clock), so a request allocates no Date; `compute` gets
 * one when the second changes.
 */
export function perSecond<T>(nowMs: () => number, compute: (second: number, date: Date) => T): () => T {
  let second = Number.NaN;
  let value: T;
  return () => {
    const ms = nowMs();
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      value = compute(s, new Date(ms));
      second = s;
    }
    return value;
  };
}
