/**
 * What the reader sees of a navigation still on its way (NavigationProgress): nothing for one that
 * shows its page within a moment (most do: the page's code was prefetched), a thin bar and a polite
 * "Loading…" once it takes longer, and a short notice when the page could not be opened without
 * costing the reader the radio (client-navigation.tsx). A store outside React's state, so a tap
 * re-renders nothing until there is something to show.
 */
export type ProgressState = 'idle' | 'slow' | 'failed';

/** How long a navigation may take before the bar shows: what a reader still perceives as at once. */
export const SLOW_NAVIGATION_MS = 250;

/** How long the notice of a navigation that failed stays. */
const NOTICE_MS = 8_000;

let state: ProgressState = 'idle';
let slowTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function set(next: ProgressState): void {
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

export const navigationProgress = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): ProgressState => state,
  getServerSnapshot: (): ProgressState => 'idle',
  /** A navigation has begun (a newer one replaces it): the bar shows if it is still going after a moment. */
  started(): void {
    clearTimeout(slowTimer);
    slowTimer = setTimeout(() => set('slow'), SLOW_NAVIGATION_MS);
    if (state === 'failed') set('idle');
  },
  /** The latest navigation has shown its page (or left the document). */
  finished(): void {
    clearTimeout(slowTimer);
    set('idle');
  },
  /** The latest navigation could not show its page and stays where it is: a notice for a few seconds. */
  failed(): void {
    clearTimeout(slowTimer);
    set('failed');
    slowTimer = setTimeout(() => set('idle'), NOTICE_MS);
  },
};
