/**
 * Binds the heard title's rules (heard-title.ts) to the player, at the first play (this module is
 * in the Media Session's chunk, never in a first load): `installHeardTitle` puts a store of what
 * is heard in place of `controller.nowPlaying`, so the /radio card, the bar and the lock screen,
 * which all read `controller.nowPlaying`, show the title of what is heard with no change of their
 * own. The pushed store stays underneath: it keeps the push connection (retain) and feeds this one.
 */
import {
  type Connection,
  connectionAt,
  heardAtLive,
  isDuration,
  liveView,
  newestOf,
  pushed,
  rewoundView,
  type TitleMark,
  withPush,
} from './heard-title.ts';
import type { NowPlayingInfo, NowPlayingStore } from './now-playing.ts';
import type { RadioController } from './radio-controller.ts';
import { isListening } from './radio-player-logic.ts';
import type { RewindView } from './rewind-player.ts';

const installed = new WeakSet<RadioController>();

export function installHeardTitle(controller: RadioController, rewind?: RewindView): void {
  if (installed.has(controller)) return;
  installed.add(controller);
  const { audio } = controller;
  const pushedStore: NowPlayingStore = controller.nowPlaying;
  const listeners = new Set<() => void>();
  let marks: TitleMark[] = [];
  const known = newestOf(pushedStore.getSnapshot());
  let latestLag = known?.lagS ?? null;
  // The first connection began before this chunk arrived: the push already read tells it roughly
  // (as if it had just arrived); the next push once there is data tells it exactly.
  let connection: Connection | null = audio.hasAttribute('src')
    ? { startedAt: Number.NEGATIVE_INFINITY, fromMs: known ? performance.now() - known.behindMs : null, settled: false }
    : null;
  let shown: NowPlayingInfo | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let rewound = false;

  const onPush = () => {
    const info = pushedStore.getSnapshot();
    const now = performance.now();
    // Dated by the relay's estimate of the change (`changed` ms before the push), else by its arrival.
    if (info) marks = pushed(marks, info, now - (isDuration(info.changed) ? info.changed : 0));
    const newest = newestOf(info);
    latestLag = newest?.lagS ?? latestLag;
    if (connection) connection = withPush(connection, now, newest, audio.readyState >= 1 /* HAVE_METADATA */);
    update();
  };
  const initial = pushedStore.getSnapshot();
  if (initial) marks = pushed(marks, initial, Number.NEGATIVE_INFINITY);

  function heardAt(): number | null {
    // Not listening (stopped, paused): what is on air now.
    if (!isListening(controller.getSnapshot())) return Number.POSITIVE_INFINITY;
    return heardAtLive(connection, audio.currentTime);
  }

  /** What to show now; schedules the next check when a pushed title is due. */
  function view(): NowPlayingInfo | null {
    const rewoundAt = rewind?.heardAt() ?? null;
    const window = rewind?.window() ?? null;
    if (rewoundAt !== null && window) {
      rewound = true;
      return rewoundView(window, rewoundAt, marks.at(-1)?.info ?? null);
    }
    // Back from the window, until the live connection's time is known: what is on air, not the window's title.
    const live = liveView(marks, heardAt(), rewound ? (marks.at(-1)?.info ?? null) : shown);
    rewound = false;
    // Checked again when the next title is due (and at every timeupdate: a wait for data delays it).
    if (live.nextInMs !== null) timer = setTimeout(update, Math.max(0, live.nextInMs));
    return live.info;
  }

  function update(): void {
    clearTimeout(timer);
    const next = view();
    if (next?.title === shown?.title && next?.listeners === shown?.listeners) return;
    shown = next;
    for (const listener of listeners) listener();
  }

  // A new source (src assigned: a new connection, currentTime from 0) starts behind the live edge again.
  audio.addEventListener('loadstart', () => {
    connection = connectionAt(performance.now(), latestLag);
    update();
  });
  audio.addEventListener('timeupdate', update);
  pushedStore.subscribe(onPush);
  controller.subscribe(update);
  rewind?.subscribe(update);
  shown = liveView(marks, heardAt(), pushedStore.getSnapshot()).info;

  controller.nowPlaying = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => shown,
    retain: () => pushedStore.retain(),
  };
}
