/**
 * The rewind window (issue 29): every allowed port's mount recorded into an HLS window on disk
 * (recorder.ts), and its files served (serve.ts). The composition root (runtime.ts) starts it as one
 * step and gives it what it needs of the radio as functions (the mount's URL, the station's title),
 * so this part imports nothing of the stream.
 * Several app processes on one host share REWIND_DIR: for each mount exactly one of them records
 * (mount-lock.ts), and all of them serve the files; another takes over within LOCK_RETRY_MS when the
 * recording process ends.
 */
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { lockMount, type MountLock } from './mount-lock.ts';
import { type FollowTitle, type Recorder, type RecorderFigures, startRecorder } from './recorder.ts';
import { type RewindFiles, serveRewindFiles } from './serve.ts';
import { openWindowStore } from './window-store.ts';

/** How often a process that does not record a mount checks whether the one that did has gone. */
export const LOCK_RETRY_MS = 2_000;
/** Wait before connecting to the station again after its stream ended or failed. */
export const RECONNECT_MS = 1_000;

export interface RewindSettings {
  dir: string;
  segmentS: number;
  windowS: number;
  maxBytes: number;
  minFreeBytes: number;
}

export interface RewindParts {
  allowedPorts: readonly number[];
  /** The mount's URL at the station for a port (the relay's upstream). */
  urlOf(port: number): string;
  followTitle(port: number): FollowTitle;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  log: Logger;
}

export interface Rewind {
  serve: RewindFiles;
  /** This process's recording of a port (all zero while another process records it). */
  figures(port: number): RecorderFigures;
  stop(): Promise<void>;
}

const IDLE: RecorderFigures = {
  recording: false,
  connected: false,
  windowSeconds: 0,
  bytesOnDisk: 0,
  segmentsWritten: 0,
  gaps: 0,
  restarts: 0,
};

/** The handler when rewind is off: nothing recorded, window.json says so. */
export const rewindOff = (allowedPorts: readonly number[]): Rewind => ({
  serve: serveRewindFiles(null, allowedPorts),
  figures: () => IDLE,
  stop: async () => {},
});

async function writableDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new Error(`REWIND_DIR ${dir} is not a folder this process can write (${(error as Error).message})`);
  }
}

export async function startRewind(settings: RewindSettings, parts: RewindParts): Promise<Rewind> {
  await writableDir(settings.dir);
  const recorders = new Map<number, Promise<Recorder | null>>();
  const locks: MountLock[] = [];
  const latest = new Map<number, Recorder>();
  const recorderSettings = {
    ...settings,
    connectTimeoutMs: parts.connectTimeoutMs,
    idleTimeoutMs: parts.idleTimeoutMs,
    retryMs: RECONNECT_MS,
  };

  const record = (port: number, dir: string) => {
    const log = parts.log;
    log.info({ port, dir }, 'rewind: recording this mount');
    const started = openWindowStore(dir)
      .then((store) =>
        startRecorder({
          port,
          url: parts.urlOf(port),
          store,
          settings: recorderSettings,
          followTitle: parts.followTitle(port),
          log,
        }),
      )
      .then((recorder) => {
        latest.set(port, recorder);
        return recorder;
      })
      .catch((err: unknown) => {
        log.error({ err, port, dir }, 'rewind: cannot record this mount');
        return null;
      });
    recorders.set(port, started);
  };

  for (const port of parts.allowedPorts) {
    const dir = join(settings.dir, String(port));
    locks.push(lockMount(dir, LOCK_RETRY_MS, () => record(port, dir)));
  }

  return {
    serve: serveRewindFiles(settings.dir, parts.allowedPorts),
    figures: (port) => latest.get(port) ?? IDLE,
    async stop() {
      const running = await Promise.all([...recorders.values()]);
      await Promise.all(running.map((recorder) => recorder?.stop()));
      await Promise.all(locks.map((lock) => lock.release()));
    },
  };
}
