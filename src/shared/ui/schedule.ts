/** When deferred browser work runs: after the next paint, or at an idle moment. Browser-only. */

/**
 * Runs `run` in a task after the browser's next frame, so work that the reader does not see at
 * once (third-party scripts) never holds up the paint of a page it is on. Returns the cancel.
 */
export function afterNextPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Runs `run` when the main thread is idle, within 2 s at the latest (Safari has no requestIdleCallback). */
export function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 200);
}

let engaged: Promise<unknown> | undefined;

/**
 * Runs `run` once the reader has done something on the page (a pointer moved or pressed, a scroll, a
 * key), at once if they already have. A page load nobody touches (a crawler, a lab run, a tab opened
 * in the background) fetches nothing ahead.
 */
export function whenEngaged(run: () => void): void {
  engaged ??= new Promise((resolve) => {
    for (const type of ['pointermove', 'pointerdown', 'scroll', 'keydown'])
      addEventListener(type, resolve, { capture: true, passive: true, once: true });
  });
  void engaged.then(run);
}
