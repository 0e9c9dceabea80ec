import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import type { RadioController } from './radio-controller.ts';

interface PlayerContextValue {
  /** Null until the /radio page creates the player; then the same one for the rest of the page's life. */
  controller: RadioController | null;
  /** Creates the player around the provider's audio element once; later calls return the same one. */
  ensureController(create: (audio: HTMLAudioElement) => RadioController): RadioController | null;
}

const PlayerContext = createContext<PlayerContextValue | null>(null);

/**
 * Owns the site's one audio element, above the routes, so navigating never
 * unmounts it: the radio keeps playing while the visitor reads. This file and
 * PlayerBarSlot are all of the player on a first load; the rules, the bar and
 * the Media Session arrive with the /radio page or the first play.
 */
export function PlayerProvider({ children }: { children: ReactNode }) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const created = useRef<RadioController | null>(null);
  const [controller, setController] = useState<RadioController | null>(null);
  const value = useMemo<PlayerContextValue>(
    () => ({
      controller,
      ensureController(create) {
        if (!created.current && audioRef.current) {
          created.current = create(audioRef.current);
          setController(created.current);
        }
        return created.current;
      },
    }),
    [controller],
  );
  return (
    <PlayerContext value={value}>
      {children}
      {/* No src until the first play: nothing is fetched before the visitor asks (the player sets it). */}
      <audio ref={audioRef} preload="none" crossOrigin="anonymous" />
    </PlayerContext>
  );
}

export function usePlayerContext(): PlayerContextValue {
  const value = useContext(PlayerContext);
  if (!value) throw new Error('usePlayerContext outside PlayerProvider');
  return value;
}
