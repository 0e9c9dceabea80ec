/**
 * React's view of the one radio player: thin hooks over the controller's
 * external stores. Before the player exists (the server render and the first
 * client render) they answer the initial state, so hydration matches.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useApp, useSite } from '../app-context.tsx';
import { streamUrls } from './constants.ts';
import type { NowPlayingInfo } from './now-playing.ts';
import { createRadioController, type RadioController } from './radio-controller.ts';
import { initialRadioState, type RadioState } from './radio-player-logic.ts';
import { usePlayerContext } from './PlayerProvider.tsx';

const noSubscribe = () => () => {};
const initial = () => initialRadioState;
const none = () => null;

/** The player, created by the first view that needs it (the /radio card); null until then. */
export function useRadioController(): RadioController | null {
  const { controller, ensureController } = usePlayerContext();
  const { masthead } = useSite();
  // The port comes from configuration (STREAM_ALLOWED_PORTS, 8076 by default) through the boot data.
  const { streamPort } = useApp();
  useEffect(() => {
    ensureController((audio) => createRadioController(audio, { urls: streamUrls(streamPort), station: masthead }));
  }, [ensureController, masthead, streamPort]);
  return controller;
}

export function useRadioState(controller: RadioController | null): RadioState {
  return useSyncExternalStore(controller?.subscribe ?? noSubscribe, controller?.getSnapshot ?? initial, initial);
}

/** What is on air; `follow` keeps the push open while the calling view is shown (the /radio card). */
export function useNowPlaying(controller: RadioController | null, follow = false): NowPlayingInfo | null {
  const store = controller?.nowPlaying;
  useEffect(() => (follow ? store?.retain() : undefined), [store, follow]);
  return useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.getSnapshot ?? none, none);
}
