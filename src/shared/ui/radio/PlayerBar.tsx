import { useEffect, useState } from 'react';
import { useApp } from '../app-context.tsx';
import { useNavigation } from '../navigation.tsx';
import { PrefetchLink } from '../PrefetchLink.tsx';
import { BUFFERING, RECONNECTING, STATUS_TEXT } from './constants.ts';
import { onAirTitle } from './heard-title.ts';
import { MuteButton, PlayPauseButton, StopRetryingButton } from './PlayerButtons.tsx';
import type { RadioController } from './radio-controller.ts';
import { playButtonAction, playerStatus, type PlayerStatus } from './radio-player-logic.ts';
import { RewindControls, rewoundText, useRewind } from './RewindControls.tsx';
import { ScrollingTitle } from './ScrollingTitle.tsx';
import { useNowPlaying, useRadioState } from './useRadioPlayer.ts';

/** What a screen reader hears, politely: a wait and a lost signal, once each; nothing while all is well. */
const ANNOUNCED: Partial<Record<PlayerStatus, string>> = { buffering: BUFFERING, reconnecting: RECONNECTING };
/** A status is announced once it has lasted this long: a blip of buffering shows, but is not read out. */
const ANNOUNCE_AFTER_MS = 1_000;

function useSettledAnnouncement(text: string): string {
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (!text) {
      setSaid('');
      return;
    }
    const timer = setTimeout(() => setSaid(text), ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return said;
}

/**
 * The compact player on every page from the first play: play/pause ("Retry now"
 * while reconnecting), mute, the station or what the player is doing, what is on
 * air, and the way back to /radio. Fixed to the bottom of the viewport; the
 * spacer after the page's content reserves its height, so nothing is hidden
 * beneath it and nothing above it moves when it appears. Each line keeps its
 * height whatever it says, so nothing inside it moves either.
 */
export function PlayerBar({ controller }: { controller: RadioController }) {
  const state = useRadioState(controller);
  const title = onAirTitle(useNowPlaying(controller));
  // On /radio the card's own status and alert already announce these; one announcement is enough.
  const onRadioPage = useNavigation().location.pathname === '/radio';
  const status = playerStatus(state);
  const { send } = controller;
  const announcement = useSettledAnnouncement(ANNOUNCED[status] ?? '');
  const { streamPort } = useApp();
  const heard = useRewind(controller, streamPort).heardAt;
  // While rewound the line says where the visitor is (paused there, a play resumes there).
  const calm = status === 'playing' || status === 'idle';
  const statusText = !calm
    ? STATUS_TEXT[status]
    : heard === null
      ? controller.station
      : rewoundText(heard, status === 'idle');

  return (
    <>
      <div className="player-bar-spacer" />
      <section
        className="player-bar"
        aria-label="Radio player"
        data-status={status}
        data-mode={heard === null ? 'live' : 'rewound'}
      >
        <div className="player-bar__inner container">
          <PlayPauseButton action={playButtonAction(state)} className="player-bar__play" send={send} />
          <MuteButton muted={state.muted} className="player-bar__mute" onToggle={() => send({ type: 'toggle-mute' })} />
          <div className="player-bar__text">
            {state.error ? null : (
              <div className="player-bar__status">
                <p className="player-bar__station">{statusText}</p>
                {status === 'reconnecting' ? <StopRetryingButton className="player-bar__stop" send={send} /> : null}
              </div>
            )}
            <p className="player-bar__error" role={onRadioPage ? undefined : 'alert'}>
              {state.error}
            </p>
            {state.error ? null : <ScrollingTitle className="player-bar__title">{title}</ScrollingTitle>}
          </div>
          <p className="visually-hidden" role={onRadioPage ? undefined : 'status'}>
            {announcement}
          </p>
          <PrefetchLink to="/radio" className="player-bar__link">
            Radio<span className="player-bar__link-more"> page</span>
          </PrefetchLink>
        </div>
        <div className="player-bar__rewind container">
          <RewindControls controller={controller} port={streamPort} />
        </div>
      </section>
    </>
  );
}
