import { useEffect, useState, useSyncExternalStore } from 'react';
import { usePlayerContext } from './PlayerProvider.tsx';

type Bar = typeof import('./PlayerBar.tsx').PlayerBar;

const noSubscribe = () => () => {};

/**
 * Where the player bar appears: nothing until the first play (so server HTML
 * and hydration agree, and the bar's code costs a first load nothing), then
 * the bar, loaded on demand, on every page until the page is closed.
 */
export function PlayerBarSlot() {
  const { controller } = usePlayerContext();
  const started = useSyncExternalStore(
    controller?.subscribe ?? noSubscribe,
    () => controller?.getSnapshot().started ?? false,
    () => false,
  );
  const [BarView, setBarView] = useState<Bar | null>(null);

  useEffect(() => {
    if (!started || BarView) return;
    let active = true;
    import('./PlayerBar.tsx').then(
      (m) => active && setBarView(() => m.PlayerBar),
      () => {
        /* chunk unreachable (offline): the /radio card still controls the radio */
      },
    );
    return () => {
      active = false;
    };
  }, [started, BarView]);

  return BarView && controller ? <BarView controller={controller} /> : null;
}
