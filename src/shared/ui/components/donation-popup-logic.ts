/**
 * When the donation popup shows (spec §4, §9): 30,000 ms after the home page
 * loads, unless it was dismissed earlier in this browser session. The flag
 * lives in sessionStorage, which can throw (privacy modes, blocked storage);
 * then an in-memory flag remembers the dismissal for this page's lifetime.
 */
export const DONATION_POPUP_DELAY_MS = 30_000;
export const DONATION_DISMISSED_KEY = 'donation-popup-dismissed';

export type FlagStorage = Pick<Storage, 'getItem' | 'setItem'>;

const memoryFlags = new Map<string, string>();
const memoryStorage: FlagStorage = {
  getItem: (key) => memoryFlags.get(key) ?? null,
  setItem: (key, value) => void memoryFlags.set(key, String(value)),
};

/** sessionStorage when the browser lets us use it, else the in-memory stand-in. */
export function popupStorage(): FlagStorage {
  try {
    const storage = globalThis.window?.sessionStorage;
    if (storage) return storage;
  } catch {
    /* reading window.sessionStorage throws where storage is blocked */
  }
  return memoryStorage;
}

export function isPopupDismissed(storage: FlagStorage): boolean {
  if (memoryStorage.getItem(DONATION_DISMISSED_KEY) === 'true') return true;
  try {
    return storage.getItem(DONATION_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function rememberPopupDismissed(storage: FlagStorage): void {
  memoryStorage.setItem(DONATION_DISMISSED_KEY, 'true');
  try {
    storage.setItem(DONATION_DISMISSED_KEY, 'true');
  } catch {
    /* quota or privacy mode: the in-memory flag above still holds for this page */
  }
}

/** Calls `show` once, DONATION_POPUP_DELAY_MS from now, unless dismissed this session; returns the cancel for unmount. */
export function schedulePopup(storage: FlagStorage, show: () => void): () => void {
  if (isPopupDismissed(storage)) return () => {};
  const timer = setTimeout(show, DONATION_POPUP_DELAY_MS);
  return () => clearTimeout(timer);
}
