/**
 * The harness's waits: a condition polled until it holds, so a slow machine only makes a test slower.
 * The limit only stops a hung test; it is never a speed requirement.
 *
 * Two kinds, one name each:
 * - `until(what, check)`: a step that must happen before the test goes on; it throws naming `what`
 *   when the limit passes.
 * - a check whose value the failure should show: `expect.poll(() => value).toBe(…)` (vitest; its limit
 *   is the same 30 s, vitest.config.ts).
 */

/** Waits return as soon as their condition holds; this limit only stops a hung test on a busy machine. */
export const WAIT_LIMIT_MS = 30_000;
/** How often a condition is looked at. */
const POLL_MS = 20;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves with the first value `probe` gives that is not undefined; throws after `limitMs` naming
 * `what` (and `detail()`, e.g. a process's log, when given).
 */
export async function untilValue<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  limitMs = WAIT_LIMIT_MS,
  detail?: () => string,
): Promise<T> {
  const deadline = performance.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) {
      throw new Error(`gave up waiting for ${what} after ${limitMs} ms${detail ? `:\n${detail()}` : ''}`);
    }
    await sleep(POLL_MS);
  }
}

/** Resolves once `check` holds; throws after `limitMs` naming `what`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  limitMs = WAIT_LIMIT_MS,
): Promise<void> {
  await untilValue(what, async () => ((await check()) ? true : undefined), limitMs);
}
