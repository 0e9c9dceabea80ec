import { SPEC_NOW_PLAYING } from '../radio/constants.ts';
import { listenersText } from '../radio/now-playing.ts';
import { MuteButton, PlayPauseButton } from '../radio/PlayerButtons.tsx';
import { isListening, shownVolume, type RadioPhase } from '../radio/radio-player-logic.ts';
import { useNowPlaying, useRadioController, useRadioState } from '../radio/useRadioPlayer.ts';

const PHASE_TEXT: Record<RadioPhase, string> = {
  stopped: '',
  connecting: 'Connecting…',
  live: 'Playing live',
  reconnecting: 'Reconnecting…',
};

/**
 * /radio: the live player card and what is on air (SPEC: Radio). The card is
 * one view of the site's player (the bar on every page is the other): the
 * audio element and its state live above the routes, so leaving the page
 * leaves the radio playing.
 */
export function RadioPage() {
  const controller = useRadioController();
  const state = useRadioState(controller);
  const nowPlaying = useNowPlaying(controller, true);
  const send = controller?.send ?? (() => {});
  const playing = isListening(state);
  const volume = shownVolume(state);

  return (
    <div className="container page radio">
      <section className="radio-card" aria-labelledby="radio-title">
        <div className="radio-card__head">
          <h1 id="radio-title" className="radio-card__title">
            Live Radio
          </h1>
          <p className="radio-card__subtitle">24/7 live stream</p>
        </div>

        <div className="radio-card__controls">
          <PlayPauseButton playing={playing} className="radio-card__play" onToggle={() => send({ type: 'toggle' })} />
          <MuteButton muted={state.muted} className="radio-card__mute" onToggle={() => send({ type: 'toggle-mute' })} />
          <input
            type="range"
            className="radio-card__volume"
            aria-label="Volume"
            aria-valuetext={`${Math.round(volume * 100)}%`}
            min={0}
            max={1}
            step={0.01}
            value={volume}
            onChange={(event) => send({ type: 'set-volume', volume: Number(event.currentTarget.value) })}
          />
          <p className="radio-card__phase" role="status" data-phase={state.phase}>
            {PHASE_TEXT[state.phase]}
          </p>
        </div>

        <p className="radio-card__error" role="alert">
          {state.error}
        </p>
      </section>

      <section className="now-playing" aria-labelledby="now-playing-title">
        <h2 id="now-playing-title">Now Playing</h2>
        <p className="now-playing__programme">{SPEC_NOW_PLAYING}</p>
        <p className="now-playing__title">{nowPlaying?.title ?? ''}</p>
        <p className="now-playing__listeners">{listenersText(nowPlaying)}</p>
        <p className="now-playing__tip">
          If audio doesn't start, click play. Some browsers block autoplay with sound until you interact.
        </p>
      </section>
    </div>
  );
}
