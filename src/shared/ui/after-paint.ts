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
