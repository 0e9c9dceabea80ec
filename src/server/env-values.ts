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

/** A fraction from 0 to 1 in decimal notation ("0", "0.25", "1"). */
export const fraction = z
  .string()
  .regex(/^(?:0|1|0?\.\d+|[01]\.\d+)$/, 'must be a number from 0 to 1, such as 0.25')
  .transform(Number)
  .pipe(z.number().max(1, 'must be at most 1'));

const PORT = /^[1-9]\d{0,4}$/;

/** TCP port text (1–65535, no sign, no leading zero) as a number, or null. */
export function tcpPort(text: string): number | null {
  const value = PORT.test(text) ? Number(text) : NaN;
  return value >= 1 && value <= 65_535 ? value : null;
}

/** An absolute http(s) URL (zod's URL check: parsed by WHATWG URL, scheme http or https). */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });
