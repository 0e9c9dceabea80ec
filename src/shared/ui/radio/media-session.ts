/**
 * The lock screen, a headset button and the keyboard's media keys control our
 * radio through the Media Session API. Loaded on the first play (it matters
 * only from then on) and bound for the rest of the page's life.
 * https://w3c.github.io/mediasession/
 */
import { installHeardTitle } from './heard-title-store.ts';
import { onAirTitle } from './heard-title.ts';
import type { RadioController } from './radio-controller.ts';
import { playerStatus } from './radio-player-logic.ts';
import { backTarget, clampToWindow, forwardTarget, NEAR_LIVE_MS, rewindBlocked, windowSpan } from './rewind-logic.ts';
import { rewindView } from './rewind-player.ts';

/** The site's icons in the sizes the web app manifest lists (public/manifest.webmanifest). */
const ARTWORK: MediaImage[] = [
  { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
  { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
  { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
];

export function bindMediaSession(controller: RadioController): void {
  // From here on the card, the bar and the lock screen show the title of what is heard.
  installHeardTitle(controller, rewindView(controller));
  if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return;
  const session = navigator.mediaSession;
  const handlers: [MediaSessionAction, (details: MediaSessionActionDetails) => void][] = [
    // While nothing is heard (buffering, reconnecting) the lock screen shows Play: it connects again at once.
    ['play', () => controller.send({ type: 'play' })],
    ['pause', () => controller.send({ type: 'pause' })],
    // A live stream has nothing to return to: stop is pause (which also lets go of the connection).
    ['stop', () => controller.send({ type: 'pause' })],
  ];
  // Seeking over the rewind window (rewind-player.ts): its start is position 0, the live edge its duration.
  const rewind = rewindView(controller);
  const span = () => (rewindBlocked(rewind.window()) ? null : windowSpan(rewind.window()));
  const seekHandlers: [MediaSessionAction, (details: MediaSessionActionDetails) => void][] = [
    [
      'seekbackward',
      () => {
        const s = span();
        if (s) rewind.go(backTarget(rewind.heardAt(), Date.now(), s));
      },
    ],
    [
      'seekforward',
      () => {
        const s = span();
        const heard = rewind.heardAt();
        if (s && heard !== null) rewind.go(forwardTarget(heard, s));
      },
    ],
    [
      'seekto',
      (details) => {
        const s = span();
        if (!s || details.seekTime === undefined) return;
        const at = s.start + details.seekTime * 1_000;
        rewind.go(at >= s.end - NEAR_LIVE_MS ? 'live' : clampToWindow(at, s));
      },
    ],
  ];
  for (const [action, handler] of [...handlers, ...seekHandlers]) {
    try {
      session.setActionHandler(action, handler);
    } catch {
      /* an action this browser does not support */
    }
  }

  let title = '';
  const update = () => {
    const nextTitle = onAirTitle(controller.nowPlaying.getSnapshot());
    if (nextTitle !== title || !session.metadata) {
      title = nextTitle;
      session.metadata = new MediaMetadata({ title, artist: controller.station, artwork: ARTWORK });
    }
    // "playing" only while audio plays: never over the silence of connecting, buffering or reconnecting.
    session.playbackState = playerStatus(controller.getSnapshot()) === 'playing' ? 'playing' : 'paused';
    // Where the visitor is in the window: its length so far, the position heard (live: the end).
    const s = span();
    if (!s || !session.setPositionState) return;
    const duration = Math.max(0, (s.end - s.start) / 1_000);
    const heard = rewind.heardAt();
    const position = heard === null ? duration : Math.min(duration, Math.max(0, (heard - s.start) / 1_000));
    try {
      session.setPositionState({ duration, position, playbackRate: 1 });
    } catch {
      /* a position the browser refuses: the lock screen keeps the last one */
    }
  };
  controller.subscribe(update);
  controller.nowPlaying.subscribe(update);
  rewind.subscribe(update);
  update();
}
