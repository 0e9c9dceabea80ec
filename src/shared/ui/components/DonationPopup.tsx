import { useEffect, useId, useRef, useState } from 'react';
import { useSite } from '../app-context.tsx';
import { popupStorage, rememberPopupDismissed, schedulePopup } from './donation-popup-logic.ts';

/**
 * The donation appeal on the home page (spec §4): a native modal <dialog>
 * (showModal makes the page behind inert, moves focus in and closes on
 * Escape). It renders nothing until its timer fires, so server HTML and the
 * first client render agree. Every way out (close icon, Maybe later, Escape,
 * Donate) ends in the dialog's close event, which sets the session flag.
 */
export function DonationPopup() {
  const { donationUrl } = useSite();
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<Element | null>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => schedulePopup(popupStorage(), () => setOpen(true)), []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog || dialog.open) return;
    returnFocusTo.current = document.activeElement;
    dialog.showModal();
  }, [open]);

  if (!open) return null;

  const close = () => dialogRef.current?.close();
  const onClose = () => {
    rememberPopupDismissed(popupStorage());
    setOpen(false);
    const target = returnFocusTo.current;
    if (target instanceof HTMLElement && target.isConnected && target !== document.body) target.focus();
  };

  return (
    <dialog
      ref={dialogRef}
      className="donation-popup"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClose={onClose}
    >
      <button type="button" className="icon-button donation-popup__close" onClick={close}>
        <span aria-hidden="true">✕</span>
        <span className="visually-hidden">Close</span>
      </button>
      <h2 id={titleId} className="donation-popup__title">
        Keep Chicago’s news independent
      </h2>
      <p id={textId}>
        Our reporting is free to read and answers only to readers. If you value independent journalism, please
        consider a donation of any size.
      </p>
      <div className="donation-popup__actions">
        <a className="button button--primary" href={donationUrl} target="_blank" rel="noopener noreferrer" onClick={close}>
          Donate<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        <button type="button" className="button button--ghost" onClick={close}>
          Maybe later
        </button>
      </div>
    </dialog>
  );
}
