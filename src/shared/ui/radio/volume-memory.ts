/**
 * The volume the reader chose, remembered between visits (localStorage). Read
 * when the player is created, after hydration, so the server's HTML and the
 * first client render both show the default; written when the volume changes.
 * Storage may be missing or refuse (private modes, a full quota, a policy):
 * then the player simply starts at the default.
 */
const KEY = 'radio:volume';

/** The stored text as a volume (0 to 1), or null for anything else. */
export function parseStoredVolume(text: string | null): number | null {
  if (text === null) return null;
  const volume = Number(text);
  // Only what writeVolume writes (String of a number): not '', '0x1' or ' 1'.
  return String(volume) === text && volume >= 0 && volume <= 1 ? volume : null;
}

export function readVolume(): number | null {
  try {
    return parseStoredVolume(window.localStorage.getItem(KEY));
  } catch {
    return null;
  }
}

export function writeVolume(volume: number): void {
  try {
    window.localStorage.setItem(KEY, String(volume));
  } catch {
    /* storage refused: the volume is not remembered, nothing else changes */
  }
}
