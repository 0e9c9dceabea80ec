import { useNavigation } from '../navigation.tsx';
import { PrefetchLink } from '../PrefetchLink.tsx';
import { onAirTitle } from './now-playing.ts';
import { MuteButton, PlayPauseButton } from './PlayerButtons.tsx';
import type { RadioController } from './radio-controller.ts';
import { isListening } from './radio-player-logic.ts';
import { useNowPlaying, useRadioState } from './useRadioPlayer.ts';

/**
 * The compact player on every page from the first play: play/pause, mute, the
 * station and what is on air, and the way back to /radio. Fixed to the bottom
 * of the viewport; the spacer after the page's content reserves its height, so
 * nothing is hidden beneath it and nothing above it moves when it appears.
 */
export function PlayerBar({ controller }: { controller: RadioController }) {
  const state = useRadioState(controller);
  const title = onAirTitle(useNowPlaying(controller));
  // On /radio the card's own alert already announces the error; one announcement is enough.
  const onRadioPage = useNavigation().location.pathname === '/radio';
  const playing = isListening(state);
  const { send } = controller;

  return (
    <>
      <div className="player-bar-spacer" />
      <section className="player-bar" aria-label="Radio player">
        <div className="player-bar__inner container">
          <PlayPauseButton playing={playing} className="player-bar__play" onToggle={() => send({ type: 'toggle' })} />
          <MuteButton muted={state.muted} className="player-bar__mute" onToggle={() => send({ type: 'toggle-mute' })} />
          <div className="player-bar__text">
            {state.error ? null : <p className="player-bar__station">{controller.station}</p>}
            <p className="player-bar__error" role={onRadioPage ? undefined : 'alert'}>
              {state.error}
            </p>
            {state.error ? null : <p className="player-bar__title">{title}</p>}
          </div>
          <PrefetchLink to="/radio" className="player-bar__link">
            Radio<span className="player-bar__link-more"> page</span>
          </PrefetchLink>
        </div>
      </section>
    </>
  );
}
