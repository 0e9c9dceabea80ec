import { useSyncExternalStore } from 'react';
import type { RadioController } from './radio-controller.ts';
import {
  backTarget,
  behindText,
  chicagoClock,
  forwardTarget,
  hourStartTarget,
  rewindBlocked,
  windowSpan,
} from './rewind-logic.ts';
import { type RewindSnapshot, rewindView } from './rewind-player.ts';

/** The rewind player's state for a view (the bar): the heard time, the window, a failure said. */
export function useRewind(controller: RadioController, port: number): RewindSnapshot {
  const player = rewindView(controller, port);
  return useSyncExternalStore(player.subscribe, player.getSnapshot, player.getSnapshot);
}

/** The status line while rewound: where the visitor is, playing or paused there. */
export const rewoundText = (heard: number, paused: boolean): string =>
  `${paused ? 'Paused at' : 'Listening to'} ${chicagoClock(heard)}`;

const NOTE_ID = 'rewind-note';

/**
 * Back 30 s, forward 30 s, the start of this hour when the window holds it, and Live; beside them
 * how far behind live the visitor is, or why rewind is off. Part of the player bar (so on every page
 * and on /radio, from the first play); rewind-player.ts performs them.
 */
export function RewindControls({ controller, port }: { controller: RadioController; port: number }) {
  const { heardAt: heard, window, message } = useRewind(controller, port);
  const player = rewindView(controller, port);
  const now = Date.now();
  const span = windowSpan(window);
  const blocked = rewindBlocked(window);
  const usable = blocked === null && span !== null;
  const hour = usable ? hourStartTarget(now, span) : null;
  const note = message ?? blocked ?? (heard === null ? '' : behindText(heard, now));
  const described = blocked ? NOTE_ID : undefined;

  return (
    <fieldset className="rewind" data-heard={heard ?? undefined}>
      <legend className="visually-hidden">Rewind</legend>
      <button
        type="button"
        className="rewind__button"
        aria-describedby={described}
        disabled={!usable}
        onClick={() => span && player.go(backTarget(heard, Date.now(), span))}
      >
        {/* The name is the words ("Back 30 seconds"); the sign is what is seen. */}
        <span aria-hidden="true">−30 s</span>
        <span className="visually-hidden">Back 30 seconds</span>
      </button>
      <button
        type="button"
        className="rewind__button"
        aria-describedby={described}
        disabled={!usable || heard === null}
        onClick={() => span && heard !== null && player.go(forwardTarget(heard, span))}
      >
        <span aria-hidden="true">+30 s</span>
        <span className="visually-hidden">Forward 30 seconds</span>
      </button>
      <button
        type="button"
        className="rewind__button"
        aria-label="Start of this hour"
        aria-describedby={described}
        disabled={hour === null}
        onClick={() => hour !== null && player.go(hour)}
      >
        <span className="rewind__more">Start of </span>this hour
      </button>
      <button
        type="button"
        className="rewind__button rewind__live"
        disabled={heard === null}
        onClick={() => player.go('live')}
      >
        Live
      </button>
      <p className="rewind__note" id={NOTE_ID} data-failed={message ? '' : undefined}>
        {note}
      </p>
      {/* Said once when it changes (the note's "behind live" changes every second: not read out). */}
      <p className="visually-hidden" role="status">
        {message ?? blocked}
      </p>
    </fieldset>
  );
}
