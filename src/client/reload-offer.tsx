/**
 * Never a dead end after a deploy (issue 32): a deploy that keeps none of the previous build's files
 * leaves an open tab whose pages' code is gone for good, and while the radio plays a failed page is
 * shown in the page region (PageErrorBoundary) rather than by a full load, which would stop the
 * radio: "Try again" could then never succeed. When the page's code fails to load and this build's
 * own entry script answers 404 twice in a row (once is a deploy under way or a glitch; twice, the
 * files are gone), the page can only come back by a full load: it is done at once if nothing plays,
 * and offered first (the page reloads, the radio restarts) if the radio plays. In the router's chunk,
 * loaded before any navigation: after such a deploy, a chunk fetched now would be gone too. The
 * dialog (reload-dialog.tsx) only matters while the radio plays: its code comes with the first play,
 * not with every page load.
 */
import { lazy, Suspense, useEffect, useState } from 'react';

/** Answers 404 in a row for this build's entry script, at failed page loads. */
let notFound = 0;
let offer: ((to: string) => void) | undefined;

const radioPlays = () => document.querySelector('audio')?.paused === false;
const loadDialog = () => import('./reload-dialog.tsx');
const ReloadDialog = lazy(loadDialog);

// Media events do not bubble: the document hears them in the capture phase.
if (radioPlays()) void loadDialog().catch(() => {});
else document.addEventListener('play', () => void loadDialog().catch(() => {}), { capture: true, once: true });

/** A page's code failed to load while a full load would cost the reader (client-navigation.tsx). */
export async function pageCodeFailed(to: string): Promise<void> {
  const entry = document.querySelector<HTMLScriptElement>('script[src]')?.src;
  if (!entry || !navigator.onLine) return;
  const status = await fetch(entry, { method: 'HEAD', cache: 'no-store' }).then(
    (response) => response.status,
    () => 0,
  );
  notFound = status === 404 ? notFound + 1 : 0;
  if (notFound < 2) return;
  if (!radioPlays()) return window.location.assign(to);
  // Offered once its code is there (it came with the radio's first play); else the page stays as it is.
  await loadDialog().then(
    () => offer?.(to),
    () => {},
  );
}

/** Where the offer shows, once asked for. */
export function ReloadOffer() {
  const [to, setTo] = useState<string | null>(null);
  useEffect(() => {
    offer = setTo;
    return () => {
      offer = undefined;
    };
  }, []);
  return (
    to && (
      <Suspense>
        <ReloadDialog to={to} onClose={() => setTo(null)} />
      </Suspense>
    )
  );
}
