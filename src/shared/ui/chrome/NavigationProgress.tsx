import { useSyncExternalStore } from 'react';
import { navigationProgress } from '../navigation-progress.ts';

/**
 * A navigation that takes longer than a moment (navigation-progress.ts): a thin bar along the top of
 * the viewport (fixed, so nothing moves) and a polite "Loading…"; one that could not open its page, a
 * short notice in the same place. The reader can tap again or elsewhere meanwhile: the newest tap wins.
 */
export function NavigationProgress() {
  const state = useSyncExternalStore(
    navigationProgress.subscribe,
    navigationProgress.getSnapshot,
    navigationProgress.getServerSnapshot,
  );
  return (
    <>
      {state === 'slow' && <div className="nav-progress" role="progressbar" aria-label="Loading the page" />}
      <p className={state === 'failed' ? 'nav-notice' : 'visually-hidden'} role="status">
        {state === 'slow' && 'Loading…'}
        {state === 'failed' && 'The page could not be opened. Try again.'}
      </p>
    </>
  );
}
