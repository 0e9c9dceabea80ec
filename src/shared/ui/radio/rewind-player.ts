/**
 * The rewind window seen from the player (issue 29 item 3): goes back and returns, and says what is
 * being heard while the visitor listens back. One per radio player, created on first ask from the
 * chunks loaded at the first play (the bar, the Media Session): never import it from a module of the
 * first load (Radio.tsx, radio-controller.ts, useRadioPlayer.ts ...), use `import()` there.
 *
 * Live stays on /api/stream (the radio's own connect). Going back gives the controller an `attach`
 * (radio-controller.ts): each connect then plays the window (the port's HLS playlist) from the
 * position kept here, through hls.js (loaded at the first rewind) or, where the element dates its
 * media time (Safari: getStartDate), the browser's own HLS (decision 056). The radio's rules keep
 * running over both: Buffering, Reconnecting, pause, mute and volume are the same in both modes;
 * a pause while rewound and a play resume at the rewound point. "Live" removes the attach.
 */
import type Hls from 'hls.js/light';
import type { ErrorData, LevelLoadedData } from 'hls.js/light';
import { parseRewindWindow, rewindPlaylistUrl, rewindWindowUrl, type RewindWindow } from '../../rewind.ts';
import { PLAYING_LIVE, STATUS_TEXT } from './constants.ts';
import type { RadioController } from './radio-controller.ts';
import { isListening } from './radio-player-logic.ts';
import {
  afterFailure,
  chooseEngine,
  clampToWindow,
  type DatedPiece,
  type Engine,
  mediaTimeFor,
  REWIND_FAILED,
  type Target,
  wallClockFor,
  windowSpan,
} from './rewind-logic.ts';

/** The interface other parts read (the heard title: titleAt(window(), new Date(heardAt()))). */
export interface RewindView {
  /** Epoch ms of the audio heard now while rewound; null while live (or stopped at the live edge). */
  heardAt(): number | null;
  /** The port's last parsed window.json; null until the first one arrived (or while unreadable). */
  window(): RewindWindow | null;
  /** Called when heardAt() or window() may have changed (several times a second while rewound). */
  subscribe(listener: () => void): () => void;
}

export interface RewindSnapshot {
  heardAt: number | null;
  window: RewindWindow | null;
  /** A failure said once (a segment that could not be played); cleared by the next control. */
  message: string | null;
}

/** The bar's and the lock screen's side: the snapshot and the controls. */
export interface RewindPlayer extends RewindView {
  getSnapshot(): RewindSnapshot;
  /** To a wall-clock time (clamped to the window) or back to the live stream. */
  go(target: Target): void;
}

/** The /radio card's status while the window plays (its first-load code reads STATUS_TEXT; this chunk sets it). */
export const PLAYING_BACK = 'Playing back';

/** window.json is rewritten with each segment (about 6 s): read that often while listening. */
const WINDOW_POLL_MS = 6_000;

/** hls.js tries a failed segment once more, quickly, before it gives up (then: the next one, or live). */
const QUICK_RETRY = { maxNumRetry: 1, retryDelayMs: 500, maxRetryDelayMs: 1_000 };

type HlsClass = typeof Hls;

const players = new WeakMap<RadioController, Rewind>();
let portOfPage: number | undefined;

/** The player's rewind view (and controls): the same object for the life of the page; the bar gives the port. */
export function rewindView(controller: RadioController, port?: number): RewindPlayer {
  let player = players.get(controller);
  if (portOfPage === undefined && port !== undefined) {
    portOfPage = port;
    // Asked first by the Media Session (no port): read the window as soon as the bar gives it.
    void player?.readWindow();
  }
  if (!player) {
    player = new Rewind(controller);
    players.set(controller, player);
  }
  return player;
}

function detectEngine(): Engine {
  const probe = document.createElement('audio');
  return chooseEngine(
    probe.canPlayType('application/vnd.apple.mpegurl') !== '',
    'getStartDate' in probe,
    typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported('audio/mpeg'),
  );
}

/** The pieces of the media timeline hls.js has dated (its playlist's segments). */
const datedPieces = (data: LevelLoadedData): DatedPiece[] =>
  data.details.fragments.map((f) => ({ start: f.start, duration: f.duration, programDateTime: f.programDateTime }));

/** The wall-clock end of the segment hls.js gave up on (else a segment past `heard`). */
function failedEnd(data: ErrorData, heard: number): number {
  const frag = data.frag;
  return frag?.programDateTime != null ? frag.programDateTime + frag.duration * 1_000 : heard + 6_000;
}

class Rewind implements RewindPlayer {
  private readonly listeners = new Set<() => void>();
  private snapshot: RewindSnapshot = { heardAt: null, window: null, message: null };
  /** Where the next connect starts while rewound (follows the audio heard); null while live. */
  private resumeAt: number | null = null;
  private pieces: readonly DatedPiece[] = [];
  private audio: HTMLAudioElement | null = null;
  private hls: Hls | null = null;
  private HlsJs: HlsClass | null = null;
  private failures = 0;
  private engine: Engine | undefined;

  constructor(private readonly controller: RadioController) {
    void this.readWindow();
    setInterval(() => {
      if (isListening(controller.getSnapshot()) || this.resumeAt !== null) void this.readWindow();
    }, WINDOW_POLL_MS);
  }

  heardAt = () => this.snapshot.heardAt;
  window = () => this.snapshot.window;
  getSnapshot = () => this.snapshot;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };
  go = (target: Target) => {
    void this.goTo(target);
  };

  private set(next: Partial<RewindSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...next };
    // Not "Playing live" on the card while rewound: the card re-renders with the reconnect that switches.
    STATUS_TEXT.playing = this.resumeAt === null ? PLAYING_LIVE : PLAYING_BACK;
    for (const listener of this.listeners) listener();
  }

  async readWindow(): Promise<void> {
    if (portOfPage === undefined) return;
    try {
      const response = await fetch(rewindWindowUrl(portOfPage), { cache: 'no-store' });
      this.set({ window: response.ok ? parseRewindWindow(await response.json()) : null });
    } catch {
      /* offline: the last window stays */
    }
  }

  /** Connects again through the radio's rules: their connect calls `attach` while rewound, the stream else. */
  private reconnect(): void {
    this.controller.send({ type: 'pause' });
    this.controller.send({ type: 'play' });
  }

  private teardown(): void {
    this.hls?.destroy();
    this.hls = null;
    this.pieces = [];
  }

  /** Back to the live stream on the next connect. */
  private leave(): void {
    this.resumeAt = null;
    this.controller.attach = undefined;
    this.teardown();
    this.set({ heardAt: null });
  }

  private failed(end: number): void {
    this.failures += 1;
    const next = afterFailure(end, this.failures, windowSpan(this.snapshot.window));
    if (next === 'live') {
      this.leave();
      this.set({ message: REWIND_FAILED });
      return;
    }
    this.resumeAt = next;
    this.set({ heardAt: next });
  }

  private follow(element: HTMLAudioElement): void {
    if (this.audio) return;
    this.audio = element;
    element.addEventListener('timeupdate', () => {
      if (this.resumeAt === null) return;
      const heard = wallClockFor(this.pieces, element.currentTime);
      if (heard === null) return;
      this.resumeAt = heard;
      this.set({ heardAt: heard });
    });
    // The browser's own HLS says a failed segment with the element's error: the rules reconnect, from the next one.
    element.addEventListener('error', () => {
      if (this.resumeAt !== null && !this.hls) this.failed(this.resumeAt + 6_000);
    });
  }

  /** The controller's source while rewound: the window, from where the visitor is. */
  private readonly attach = (element: HTMLAudioElement): void => {
    this.follow(element);
    this.teardown();
    const span = windowSpan(this.snapshot.window);
    const wanted = this.resumeAt ?? Date.now();
    const at = span ? clampToWindow(wanted, span) : wanted;
    if (this.engine === 'native') this.attachNative(element, at);
    else if (this.HlsJs) this.attachHls(element, at, this.HlsJs);
  };

  private attachNative(element: HTMLAudioElement, at: number): void {
    element.src = rewindPlaylistUrl(portOfPage ?? 0);
    element.addEventListener(
      'loadedmetadata',
      () => {
        const start = (element as HTMLAudioElement & { getStartDate(): Date }).getStartDate().getTime();
        this.pieces = [{ start: 0, duration: Number.POSITIVE_INFINITY, programDateTime: start }];
        element.currentTime = mediaTimeFor(this.pieces, at) ?? 0;
      },
      { once: true },
    );
  }

  private attachHls(element: HTMLAudioElement, at: number, Player: HlsClass): void {
    const policy = {
      maxTimeToFirstByteMs: 10_000,
      maxLoadTimeMs: 20_000,
      timeoutRetry: QUICK_RETRY,
      errorRetry: QUICK_RETRY,
    };
    const player = new Player({
      autoStartLoad: false,
      enableWorker: false,
      enableID3MetadataCues: false,
      enableEmsgMetadataCues: false,
      fragLoadPolicy: { default: policy },
    });
    this.hls = player;
    let started = false;
    player.on(Player.Events.LEVEL_LOADED, (_event, data) => {
      this.pieces = datedPieces(data);
      if (started) return;
      started = true;
      player.startLoad(mediaTimeFor(this.pieces, at) ?? -1);
    });
    player.on(Player.Events.FRAG_LOADED, () => {
      this.failures = 0;
    });
    player.on(Player.Events.ERROR, (_event, data) => {
      if (!data.fatal || player !== this.hls) return;
      this.failed(failedEnd(data, this.resumeAt ?? Date.now()));
      this.reconnect();
    });
    player.loadSource(rewindPlaylistUrl(portOfPage ?? 0));
    player.attachMedia(element);
  }

  /** The engine, loaded (hls.js at the first rewind); false when none can play the window here. */
  private async ready(): Promise<boolean> {
    this.engine ??= detectEngine();
    if (this.engine !== 'hls.js' || this.HlsJs) return this.engine !== null;
    try {
      this.HlsJs = (await import('hls.js/light')).default;
      return true;
    } catch {
      return false;
    }
  }

  private async goTo(target: Target): Promise<void> {
    this.set({ message: null });
    this.failures = 0;
    const listening = isListening(this.controller.getSnapshot());
    if (target === 'live') {
      if (this.resumeAt === null) return;
      this.leave();
      if (listening) this.reconnect();
      return;
    }
    const span = windowSpan(this.snapshot.window);
    const at = span ? clampToWindow(target, span) : target;
    const wasRewound = this.resumeAt !== null;
    this.resumeAt = at;
    this.set({ heardAt: at });
    // Already in the window and playing it: a seek in the same source.
    const mediaTime = mediaTimeFor(this.pieces, at);
    if (wasRewound && listening && this.audio && mediaTime !== null) {
      this.audio.currentTime = mediaTime;
      return;
    }
    if (!(await this.ready())) {
      this.leave();
      this.set({ message: REWIND_FAILED });
      return;
    }
    if (this.resumeAt === null) return; // "Live" while hls.js was loading
    this.controller.attach = this.attach;
    this.reconnect();
  }
}
