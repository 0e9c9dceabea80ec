import { MutedIcon, PauseIcon, PlayIcon, VolumeIcon } from './icons.tsx';

/** Play/pause and mute, the same controls on the /radio card and in the player bar. */
export function PlayPauseButton({
  playing,
  className,
  onToggle,
}: {
  playing: boolean;
  className: string;
  onToggle: () => void;
}) {
  return (
    <button type="button" className={className} aria-label={playing ? 'Pause' : 'Play'} onClick={onToggle}>
      {playing ? <PauseIcon /> : <PlayIcon />}
    </button>
  );
}

export function MuteButton({
  muted,
  className,
  onToggle,
}: {
  muted: boolean;
  className: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className={`icon-button ${className}`}
      aria-label={muted ? 'Unmute' : 'Mute'}
      onClick={onToggle}
    >
      {muted ? <MutedIcon /> : <VolumeIcon />}
    </button>
  );
}
