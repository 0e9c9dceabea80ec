import { useEffect, useId, useRef } from 'react';
import { useSite } from '../app-context.tsx';

/**
 * The donation appeal itself: a native modal <dialog>. showModal() makes the
 * page behind inert, moves focus in and closes on Escape. Every way out
 * (close icon, Maybe later, Escape, Donate) ends in the dialog's close event,
 * which reports to `onClosed` (the popup sets the session flag). Closing a modal dialog hands focus back to the
 * element that had it before showModal() (HTML's dialog focus restoration).
 * A modal dialog makes everything else inert under its backdrop, the radio's player bar too: while
 * the radio plays, the appeal waits until it stops, and gives way if the radio starts.
 */
export function DonationDialog({ onClosed }: { onClosed(): void }) {
  const { donationUrl } = useSite();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    return whileTheRadioRests(
      () => dialog.showModal(),
      () => dialog.close(),
    );
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

/**
 * Calls `show` now, or once the site's audio (PlayerProvider's one element) pauses if it is playing;
 * `giveWay` if it starts playing after that (a media key, the lock screen). Returns the unsubscribe.
 */
function whileTheRadioRests(show: () => void, giveWay: () => void): () => void {
  const audio = document.querySelector('audio');
  if (!audio) {
    show();
    return () => {};
  }
  // The player stops by emptying the element (no src, load()), which pauses it without a 'pause' event.
  const stopped = ['pause', 'emptied'];
  const start = () => {
    if (!audio.paused) return;
    for (const type of stopped) audio.removeEventListener(type, start);
    audio.addEventListener('play', giveWay, { once: true });
    show();
  };
  if (audio.paused) start();
  else for (const type of stopped) audio.addEventListener(type, start);
  return () => {
    for (const type of stopped) audio.removeEventListener(type, start);
    audio.removeEventListener('play', giveWay);
  };
}
