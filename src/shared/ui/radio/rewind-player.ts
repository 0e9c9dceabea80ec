/**
 * The rewind window seen from the player (issue 29 item 3): what is being heard while the visitor
 * listens back, and the window it can be heard from. One per radio player, created on first ask from
 * the chunks loaded at the first play (the bar, the Media Session): never import it from a module of
 * the first load (Radio.tsx, radio-controller.ts, useRadioPlayer.ts ...), use `import()` there.
 */
import type { RewindWindow } from '../../rewind.ts';
import type { RadioController } from './radio-controller.ts';

/** The interface other parts read (the heard title: titleAt(window(), new Date(heardAt()))). */
export interface RewindView {
  /** Epoch ms of the audio heard now while rewound; null while live (or stopped at the live edge). */
  heardAt(): number | null;
  /** The port's last parsed window.json; null until the first one arrived (or while unreadable). */
  window(): RewindWindow | null;
  /** Called when heardAt() or window() may have changed (several times a second while rewound). */
  subscribe(listener: () => void): () => void;
}

const views = new WeakMap<RadioController, RewindView>();

/** The player's rewind view: the same object for the life of the page. */
export function rewindView(controller: RadioController): RewindView {
  let view = views.get(controller);
  if (!view) {
    view = { heardAt: () => null, window: () => null, subscribe: () => () => {} };
    views.set(controller, view);
  }
  return view;
}
