import { useApp } from '../app-context.tsx';
import { nowPlayingUrl, streamUrl } from '../radio/constants.ts';
import { MutedIcon, PauseIcon, PlayIcon, VolumeIcon } from '../radio/icons.tsx';
import { useNowPlaying } from '../radio/useNowPlaying.ts';
import { useRadioPlayer, type RadioPhase } from '../radio/useRadioPlayer.ts';

const PHASE_TEXT: Record<RadioPhase, string> = {
  stopped: '',
  connecting: 'Connecting…',
  live: 'Playing live',
  reconnecting: 'Reconnecting…',
};

const listenersText = (n: number) => `${n} ${n === 1 ? 'listener' : 'listeners'} tuned in`;

/** /radio: the live player card and what is on air (SPEC: Radio). */
export function RadioPage() {
  const { streamPort } = useApp();
  const player = useRadioPlayer(streamUrl(streamPort));
  const nowPlaying = useNowPlaying(nowPlayingUrl(streamPort), player.phase === 'live');
  const volumePercent = Math.round(player.shownVolume * 100);

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
          <button
            type="button"
            className="radio-card__play"
            aria-label={player.playing ? 'Pause' : 'Play'}
            onClick={player.togglePlay}
          >
            {player.playing ? <PauseIcon /> : <PlayIcon />}
          </button>
          <button
            type="button"
            className="icon-button radio-card__mute"
            aria-label={player.muted ? 'Unmute' : 'Mute'}
            onClick={player.toggleMute}
          >
            {player.muted ? <MutedIcon /> : <VolumeIcon />}
          </button>
          <input
            type="range"
            className="radio-card__volume"
            aria-label="Volume"
            aria-valuetext={`${volumePercent}%`}
            min={0}
            max={1}
            step={0.01}
            value={player.shownVolume}
            onChange={player.onVolumeInput}
          />
          <p className="radio-card__phase" role="status" data-phase={player.phase}>
            {PHASE_TEXT[player.phase]}
          </p>
        </div>

        <p className="radio-card__error" role="alert">
          {player.error}
        </p>
        {/* No src until the first play: nothing is fetched before the visitor asks (the player sets it). */}
        <audio ref={player.audioRef} preload="none" crossOrigin="anonymous" />
      </section>

      <section className="now-playing" aria-labelledby="now-playing-title">
        <h2 id="now-playing-title">Now Playing</h2>
        <p className="now-playing__title">{nowPlaying?.title ?? 'Live programming from our station stream'}</p>
        <p className="now-playing__listeners">
          {nowPlaying?.listeners != null ? listenersText(nowPlaying.listeners) : ''}
        </p>
        <p className="now-playing__tip">
          If audio doesn't start, click play. Some browsers block autoplay with sound until you interact.
        </p>
      </section>
    </div>
  );
}
