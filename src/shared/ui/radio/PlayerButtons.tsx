import { RETRY_NOW, STOP_RETRYING, STOP_RETRYING_LABEL } from './constants.ts';
import { MutedIcon, PauseIcon, PlayIcon, RetryIcon, VolumeIcon } from './icons.tsx';
import type { PlayButtonAction, RadioCommand } from './radio-player-logic.ts';

const PLAY_BUTTON: Record<PlayButtonAction, { label: string; Icon: () => React.JSX.Element; command: RadioCommand }> = {
  play: { label: 'Play', Icon: PlayIcon, command: { type: 'play' } },
  pause: { label: 'Pause', Icon: PauseIcon, command: { type: 'pause' } },
  retry: { label: RETRY_NOW, Icon: RetryIcon, command: { type: 'retry-now' } },
};

/**
 * Play, pause, or "Retry now" while the player waits to reconnect: the same control on the /radio card and in
 * the player bar (radio-player-logic.ts `playButtonAction` says which).
 */
export function PlayPauseButton({
  action,
  className,
  send,
}: {
  action: PlayButtonAction;
  className: string;
  send: (command: RadioCommand) => void;
}) {
  const { label, Icon, command } = PLAY_BUTTON[action];
  return (
    <button type="button" className={className} aria-label={label} title={label} onClick={() => send(command)}>
      <Icon />
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

/** Beside "Reconnecting…": stops the retries (a pause: the element lets go, no error is shown). */
export function StopRetryingButton({ className, send }: { className: string; send: (command: RadioCommand) => void }) {
  return (
    <button
      type="button"
      className={className}
      aria-label={STOP_RETRYING_LABEL}
      onClick={() => send({ type: 'pause' })}
    >
      {STOP_RETRYING}
    </button>
  );
}
