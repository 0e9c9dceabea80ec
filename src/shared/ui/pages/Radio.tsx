import { SPEC_NOW_PLAYING, STATUS_TEXT } from '../radio/constants.ts';
import { listenersText } from '../radio/now-playing.ts';
import { MuteButton, PlayPauseButton, StopRetryingButton } from '../radio/PlayerButtons.tsx';
import { playButtonAction, playerStatus, shownVolume } from '../radio/radio-player-logic.ts';
import { ScrollingTitle } from '../radio/ScrollingTitle.tsx';
import { useNowPlaying, useRadioController, useRadioState } from '../radio/useRadioPlayer.ts';

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
  const status = playerStatus(state);
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
          <PlayPauseButton action={playButtonAction(state)} className="radio-card__play" send={send} />
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
          <div className="radio-card__status">
            <p className="radio-card__phase" role="status" data-phase={state.phase} data-status={status}>
              {STATUS_TEXT[status]}
            </p>
            {status === 'reconnecting' ? <StopRetryingButton className="radio-card__stop" send={send} /> : null}
          </div>
        </div>

        <p className="radio-card__error" role="alert">
          {state.error}
        </p>
      </section>

      <section className="now-playing" aria-labelledby="now-playing-title">
        <h2 id="now-playing-title">Now Playing</h2>
        <p className="now-playing__programme">{SPEC_NOW_PLAYING}</p>
        <ScrollingTitle className="now-playing__title">{nowPlaying?.title ?? ''}</ScrollingTitle>
        <p className="now-playing__listeners">{listenersText(nowPlaying)}</p>
        <p className="now-playing__tip">
          If audio doesn't start, click play. Some browsers block autoplay with sound until you interact.
        </p>
      </section>
    </div>
  );
}
