/**
 * A value of the clock worked out at most once a second: the fast lane asks for the day and the
 * page's Cache-Control on every request, and Intl formatting is too slow for that.
 */
export function perSecond<T>(now: () => Date, compute: (second: number, date: Date) => T): () => T {
  let second = Number.NaN;
  let value: T;
  return () => {
    const date = now();
    const s = Math.floor(date.getTime() / 1000);
    if (s !== second) {
      value = compute(s, date);
      second = s;
    }
    return value;
  };
}
