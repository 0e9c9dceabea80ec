// Placeholder: the donation popup (spec §4) lands with the books/popup work.
export function DonationPopup() {
  return null;
}
