// Inline player icons; the buttons carry the accessible names.
const base = { width: 24, height: 24, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;

export const PlayIcon = () => (
  <svg {...base} fill="currentColor">
    <path d="M8 5.5v13l10.5-6.5z" />
  </svg>
);

export const PauseIcon = () => (
  <svg {...base} fill="currentColor">
    <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" />
  </svg>
);

const speaker = 'M4 9h3.5L12 5v14l-4.5-4H4z';

export const VolumeIcon = () => (
  <svg {...base} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
    <path d={speaker} />
    <path d="M15.5 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" />
  </svg>
);

export const MutedIcon = () => (
  <svg {...base} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
    <path d={speaker} />
    <path d="m16 9.5 5 5M21 9.5l-5 5" />
  </svg>
);

/** "Retry now": a circular arrow. */
export const RetryIcon = () => (
  <svg {...base} fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" strokeLinejoin="round">
    <path d="M19 12a7 7 0 1 1-2.05-4.95" />
    <path d="M19 4.5V9h-4.5" />
  </svg>
);
