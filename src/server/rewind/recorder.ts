/**
 * Records one mount into its window, whether anyone listens or not: one upstream connection of
 * its own (the relay's opens and closes with its listeners), its MP3 frames cut into segments of
 * about `segmentS` on frame boundaries, each written with its wall-clock start, the window trimmed
 * to its bounds as segments leave it.
 * - Time: the audio's wall clock on a connection is the earliest `arrival - audio received so far`
 *   (the station's burst arrives at once, then audio comes in real time), so a sample's time is
 *   when it was on air at the station, as a live listener hears it.
 * - Gaps: the connection lost (station restart, network) ends the segment under way; the recorder
 *   connects again by itself every `retryMs`, and the next segment is marked as after a gap. So is
 *   the first after an app restart or after recording resumes above the free-space floor.
 * - Disk: before each segment the file system's free space is read; below `minFreeBytes` nothing
 *   is written (one log line, `recording` false in window.json and the metrics) until it is back.
 * - Each segment starts with its timestamp as RFC 8216 asks of packed audio (id3-timestamp.ts).
 * - Only MPEG audio is recorded (the Content-Type the station sends), as only it can be cut here.
 * All writes of a mount go one after another (a queue), so the files always agree.
 */
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { isMpegType } from '../audio/media-types.ts';
import { createFrameReader, type Frame } from './frame-reader.ts';
import { timestampTag } from './id3-timestamp.ts';
import { bytesOf, markTitle, nextSequence, segmentName, trim, type WindowState, windowEnd } from './window.ts';
import type { WindowStore } from './window-store.ts';

export interface RecorderSettings {
  segmentS: number;
  windowS: number;
  maxBytes: number;
  minFreeBytes: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  /** Wait before connecting again after the station's stream ended or failed. */
  retryMs: number;
}

/** Follows the station's title: `onTitle` with each new one; returns the way to stop following. */
export type FollowTitle = (onTitle: (title: string | null) => void) => () => void;

export interface RecorderDeps {
  port: number;
  /** The mount's URL at the station (the relay's upstream). */
  url: string;
  store: WindowStore;
  settings: RecorderSettings;
  followTitle: FollowTitle;
  log: Logger;
  now?: () => number;
}

/** A mount's recording as the metrics (and the now-playing listener count) read it. */
export interface RecorderFigures {
  readonly recording: boolean;
  /** Holds a connection to the mount that the station counts as a listener. */
  readonly connected: boolean;
  readonly windowSeconds: number;
  readonly bytesOnDisk: number;
  readonly segmentsWritten: number;
  readonly gaps: number;
  readonly restarts: number;
}

export interface Recorder extends RecorderFigures {
  /** Ends the connection, writes what is under way and says in window.json that recording stopped. */
  stop(): Promise<void>;
}

const USER_AGENT = 'chicago-city-news-recorder';

/** The audio of one connection, from its first frame on. */
interface Take {
  /** Seconds of audio received on this connection. */
  received: number;
  /** Wall-clock ms of the connection's first sample (see the module's comment). */
  anchor: number;
  /** Frames of the segment under way, and where it starts in the connection's audio (seconds). */
  frames: Buffer[];
  segmentSeconds: number;
  segmentOffset: number;
}

class MountRecorder implements Recorder {
  segmentsWritten = 0;
  gaps = 0;
  restarts = 0;
  private state!: WindowState;
  private belowFloor = false;
  private stopped = false;
  private gapPending = false;
  private queue: Promise<void> = Promise.resolve();
  private request: ClientRequest | null = null;
  private take: Take | null = null;
  private retry: NodeJS.Timeout | undefined;
  private trimmer: NodeJS.Timeout | undefined;
  private unfollow: () => void = () => {};
  private lastProblem = '';
  private streaming = false;
  private readonly now: () => number;

  constructor(private readonly deps: RecorderDeps) {
    this.now = deps.now ?? Date.now;
  }

  get connected(): boolean {
    return this.streaming;
  }

  get recording(): boolean {
    return !this.stopped && !this.belowFloor;
  }

  get windowSeconds(): number {
    const first = this.state?.segments[0];
    return first ? (windowEnd(this.state)! - first.start) / 1000 : 0;
  }

  get bytesOnDisk(): number {
    return this.state ? bytesOf(this.state) : 0;
  }

  async start(): Promise<void> {
    this.state = await this.deps.store.restore();
    // The window kept from before a restart ends where that recording stopped: a gap follows.
    this.gapPending = this.state.segments.length > 0;
    this.unfollow = this.deps.followTitle((title) => markTitle(this.state, title, this.now()));
    this.enqueue(() => this.trimAndPublish(true));
    await this.queue;
    this.trimmer = setInterval(
      () => this.enqueue(() => this.trimAndPublish(false)),
      this.deps.settings.segmentS * 1000,
    );
    this.trimmer.unref();
    this.connect();
  }

  async stop(): Promise<void> {
    if (this.stopped) return this.queue;
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.trimmer);
    this.unfollow();
    this.request?.destroy();
    this.endTake();
    this.enqueue(() => this.trimAndPublish(true));
    return this.queue;
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((err: unknown) => {
      this.deps.log.error({ err, port: this.deps.port }, 'rewind: writing the window failed');
    });
  }

  /** Logs a connection problem once (not again while it lasts). */
  private problem(message: string, detail: Record<string, unknown> = {}): void {
    if (message === this.lastProblem) return;
    this.lastProblem = message;
    this.deps.log.warn({ port: this.deps.port, ...detail }, message);
  }

  private connect(): void {
    if (this.stopped) return;
    const { url, settings } = this.deps;
    const request = get(url, {
      agent: false,
      timeout: settings.connectTimeoutMs,
      headers: { 'user-agent': USER_AGENT },
    });
    this.request = request;
    request.on('response', (res) => this.onResponse(res));
    request.on('timeout', () => request.destroy(new Error('no answer in time')));
    request.on('error', (err) => this.problem('rewind: cannot reach the station; retrying', { reason: err.message }));
    request.on('close', () => {
      if (this.request !== request) return;
      this.request = null;
      this.streaming = false;
      this.endTake();
      if (this.stopped) return;
      this.restarts += 1;
      this.retry = setTimeout(() => this.connect(), settings.retryMs);
    });
  }

  private onResponse(res: IncomingMessage): void {
    const type = res.headers['content-type'];
    if (res.statusCode !== 200 || !isMpegType(type)) {
      this.problem('rewind: the station sends no MP3 audio on this mount; retrying', {
        status: res.statusCode,
        type,
      });
      res.destroy();
      return;
    }
    if (this.lastProblem !== '') this.deps.log.info({ port: this.deps.port }, 'rewind: recording the station again');
    this.lastProblem = '';
    // Icecast drops a source silent for 10 s: a longer silence here is a lost connection.
    res.socket.setTimeout(this.deps.settings.idleTimeoutMs, () => res.destroy());
    this.streaming = true;
    const reader = createFrameReader();
    res.on('data', (chunk: Buffer) => this.onFrames(reader.push(chunk)));
  }

  private onFrames(frames: Frame[]): void {
    if (frames.length === 0) return;
    const now = this.now();
    this.take ??= { received: 0, anchor: now, frames: [], segmentSeconds: 0, segmentOffset: 0 };
    const take = this.take;
    for (const frame of frames) {
      take.frames.push(frame.bytes);
      take.segmentSeconds += frame.seconds;
      take.received += frame.seconds;
      if (take.segmentSeconds >= this.deps.settings.segmentS) this.cut(take);
    }
    take.anchor = Math.min(take.anchor, now - take.received * 1000);
  }

  /** The segment under way is complete: written in turn, and the next one starts after it. */
  private cut(take: Take): void {
    const bytes = Buffer.concat(take.frames);
    const start = take.anchor + take.segmentOffset * 1000;
    const seconds = take.segmentSeconds;
    take.segmentOffset += seconds;
    take.frames = [];
    take.segmentSeconds = 0;
    this.enqueue(() => this.write(bytes, start, seconds));
  }

  /** The connection ended: its last, shorter segment is written; whatever comes next follows a gap. */
  private endTake(): void {
    const take = this.take;
    this.take = null;
    if (!take) return;
    if (take.frames.length > 0) this.cut(take);
    this.enqueue(async () => {
      this.gapPending = true;
    });
  }

  private async write(bytes: Buffer, startMs: number, seconds: number): Promise<void> {
    const { store, settings, log, port } = this.deps;
    const free = await store.freeBytes();
    if (free < settings.minFreeBytes) {
      if (!this.belowFloor) {
        log.warn(
          { port, freeBytes: free, minFreeBytes: settings.minFreeBytes },
          'rewind: recording stopped: free disk space below REWIND_MIN_FREE_BYTES',
        );
        this.belowFloor = true;
        await this.trimAndPublish(true);
      }
      this.gapPending = true;
      return;
    }
    if (this.belowFloor) {
      log.info({ port, freeBytes: free }, 'rewind: recording resumed: free disk space above REWIND_MIN_FREE_BYTES');
      this.belowFloor = false;
    }
    const end = windowEnd(this.state);
    // Not rounded: the timestamp tags of segments that follow each other continue exactly (the
    // playlist's date and the name say the same time to the millisecond).
    const start = end === null ? startMs : Math.max(startMs, end);
    const name = segmentName(start, nextSequence(this.state));
    const file = Buffer.concat([timestampTag(start), bytes]);
    await store.writeSegment(name, file);
    const gapBefore = this.gapPending && this.state.segments.length > 0;
    if (gapBefore) this.gaps += 1;
    this.state.segments.push({ name, start, seconds, bytes: file.length, gapBefore });
    this.gapPending = false;
    this.segmentsWritten += 1;
    await this.trimAndPublish(true);
  }

  /** Trims the window to its bounds; publishes when something changed or when `always`. */
  private async trimAndPublish(always: boolean): Promise<void> {
    const { store, settings } = this.deps;
    const dropped = trim(this.state, this.now(), settings);
    if (dropped.length === 0 && !always) return;
    await store.publish(this.state, this.recording, settings.segmentS);
    await store.remove(dropped.map((s) => s.name));
  }
}

/** Starts recording the mount (the window on disk is read first). */
export async function startRecorder(deps: RecorderDeps): Promise<Recorder> {
  const recorder = new MountRecorder(deps);
  await recorder.start();
  return recorder;
}
