/**
 * zod types for values read from environment variables (always strings), shared by the parts of
 * the configuration schema. Messages complete "Invalid configuration: NAME …".
 */
import { z } from 'zod';

/** A whole number from min to max, written as plain digits. */
export const wholeNumber = (min: number, max: number, hint = '') =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}${hint}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}${hint}`).max(max, `must be at most ${max}${hint}`));

const PORT = /^[1-9]\d{0,4}$/;

/** TCP port text (1–65535, no sign, no leading zero) as a number, or null. */
export function tcpPort(text: string): number | null {
  const value = PORT.test(text) ? Number(text) : NaN;
  return value >= 1 && value <= 65_535 ? value : null;
}

/** An absolute http(s) URL (zod's URL check: parsed by WHATWG URL, scheme http or https). */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });
