/**
 * The choice offered when a page can only open again by a full load while the radio plays
 * (reload-offer.tsx): reload the page (the radio stops and restarts) or keep listening here. A
 * native modal dialog: it takes the focus, keeps it inside, closes on Escape, and gives the focus
 * back to the link that was tapped.
 */
import { useEffect, useRef } from 'react';

export default function ReloadDialog({ to, onClose }: { to: string; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="reload-offer" aria-labelledby="reload-offer-title" onClose={onClose}>
      <h2 id="reload-offer-title">Reload the page?</h2>
      <p>The site has been updated: this page can only open again by reloading it. The radio will stop and restart.</p>
      <form method="dialog" className="reload-offer__actions">
        <button type="button" className="button button--primary" onClick={() => window.location.assign(to)}>
          Reload the page
        </button>
        <button type="submit" className="button button--ghost">
          Keep listening
        </button>
      </form>
    </dialog>
  );
}
