import { useEffect, useState } from 'react';
import { popupStorage, rememberPopupDismissed, schedulePopup } from './donation-popup-logic.ts';

type Dialog = typeof import('./DonationDialog.tsx').DonationDialog;

/**
 * The donation popup on the home page (spec §4): nothing at first (server
 * HTML and first client render agree), then, 30,000 ms after the page loads
 * and unless dismissed this session, the modal appeal. The dialog's code is
 * fetched only when it is due, so it costs the home page's first load nothing.
 */
export function DonationPopup() {
  const [DialogView, setDialogView] = useState<Dialog | null>(null);

  useEffect(() => {
    let active = true;
    const cancel = schedulePopup(popupStorage(), () => {
      import('./DonationDialog.tsx').then(
        (m) => active && setDialogView(() => m.DonationDialog),
        () => {
          /* chunk unreachable (offline): skip the appeal rather than fail the page */
        },
      );
    });
    return () => {
      active = false;
      cancel();
    };
  }, []);

  // Every way out of the dialog ends here: remembered for the session. The flag's code stays in
  // this (the home page's) chunk rather than in one more chunk shared with the dialog.
  const onClosed = () => {
    rememberPopupDismissed(popupStorage());
    setDialogView(null);
  };
  return DialogView ? <DialogView onClosed={onClosed} /> : null;
}
