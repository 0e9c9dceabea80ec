/**
 * A station's title as safe, short text: a station can send anything (markup is only text to
 * React; control characters; Unicode format characters such as U+202E RIGHT-TO-LEFT OVERRIDE or
 * zero-width spaces, which would let it disguise what the bar and the lock screen show; any length).
 */
export const MAX_TITLE_LENGTH = 160;

export function titleText(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value)
    .replace(/\p{Cc}/gu, ' ') // control characters (C0, DEL, C1)
    .replace(/\p{Cf}/gu, '') // format characters (bidi overrides and isolates, zero-width, BOM)
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  // Cut by code point, never inside a surrogate pair.
  const points = Array.from(text);
  return points.length > MAX_TITLE_LENGTH ? `${points.slice(0, MAX_TITLE_LENGTH - 1).join('')}…` : text;
}
