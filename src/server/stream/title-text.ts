/**
 * A station's title as safe, short text: a station can send anything (markup is only text to
 * React; control characters; Unicode format characters such as U+202E RIGHT-TO-LEFT OVERRIDE or
 * zero-width spaces, which would let it disguise what the bar and the lock screen show; invisible
 * letters that would pad or blank it; any length).
 */
export const MAX_TITLE_LENGTH = 160;

/**
 * Treated as format characters: Unicode's default-ignorable code points that are not Cf (U+034F
 * COMBINING GRAPHEME JOINER, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, ...) and U+2800
 * BRAILLE PATTERN BLANK: letters or marks that show as nothing or as a blank. Variation selectors
 * stay: they only choose how the character before them is drawn (an emoji's colour form).
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2800]/gu;
const VARIATION_SELECTOR = /^[\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]$/u;

export function titleText(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value)
    .replace(/\p{Cc}/gu, ' ') // control characters (C0, DEL, C1)
    .replace(/\p{Cf}/gu, '') // format characters (bidi overrides and isolates, zero-width, BOM)
    .replace(INVISIBLE, (c) => (VARIATION_SELECTOR.test(c) ? c : ''))
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  // Cut by code point, never inside a surrogate pair.
  const points = Array.from(text);
  return points.length > MAX_TITLE_LENGTH ? `${points.slice(0, MAX_TITLE_LENGTH - 1).join('')}…` : text;
}
