import { useEffect, useId, useRef } from 'react';
import { useSite } from '../app-context.tsx';

/**
 * The donation appeal itself: a native modal <dialog>. showModal() makes the
 * page behind inert, moves focus in and closes on Escape. Every way out
 * (close icon, Maybe later, Escape, Donate) ends in the dialog's close event,
 * which reports to `onClosed` (the popup sets the session flag). Closing a modal dialog hands focus back to the
 * element that had it before showModal() (HTML's dialog focus restoration).
 */
export function DonationDialog({ onClosed }: { onClosed(): void }) {
  const { donationUrl } = useSite();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    dialog.showModal();
  }, []);

  const close = () => dialogRef.current?.close();
  return (
    <dialog
      ref={dialogRef}
      className="donation-popup"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClose={onClosed}
    >
      <button type="button" className="icon-button donation-popup__close" onClick={close}>
        <span aria-hidden="true">✕</span>
        <span className="visually-hidden">Close</span>
      </button>
      <h2 id={titleId} className="donation-popup__title">
        Keep Chicago’s news independent
      </h2>
      <p id={textId}>
        Our reporting is free to read and answers only to readers. If you value independent journalism, please consider
        a donation of any size.
      </p>
      <div className="donation-popup__actions">
        <a
          className="button button--primary"
          href={donationUrl}
          target="_blank"
          rel="noopener noreferrer"
          onClick={close}
        >
          Donate<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        <button type="button" className="button button--ghost" onClick={close}>
          Maybe later
        </button>
      </div>
    </dialog>
  );
}
