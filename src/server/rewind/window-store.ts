/**
 * One mount's window on disk, in its own folder (`<REWIND_DIR>/<port>/`): the segments, the
 * playlist and window.json. Every file appears whole (written beside, then renamed), so nginx or
 * the app never serve half of one; a segment is in place before the playlist that names it. After a
 * restart the playlist is read back, segments whose file is gone are left out, and files no
 * playlist names (a crash between two writes) are deleted.
 */
import { mkdir, readdir, readFile, rename, statfs, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRewindWindow } from '../../shared/rewind.ts';
import { emptyWindow, parsePlaylist, renderPlaylist, SEGMENT_NAME, type WindowState, windowJson } from './window.ts';

export const PLAYLIST_FILE = 'playlist.m3u8';
export const WINDOW_FILE = 'window.json';

export interface WindowStore {
  readonly dir: string;
  /** The window found on disk (empty when there is none). */
  restore(): Promise<WindowState>;
  writeSegment(name: string, bytes: Buffer): Promise<void>;
  /** Rewrites the playlist and window.json from `state`. */
  publish(state: WindowState, recording: boolean, targetS: number): Promise<void>;
  /** Deletes segment files (already gone: fine). */
  remove(names: readonly string[]): Promise<void>;
  /** Bytes free for an unprivileged writer on the folder's file system. */
  freeBytes(): Promise<number>;
}

let tempCount = 0;

/** Writes `data` beside `file` and renames it into place: readers see the old file or the new one. */
async function replaceFile(file: string, data: string | Buffer): Promise<void> {
  const temp = `${file}.${process.pid}-${++tempCount}.tmp`;
  await writeFile(temp, data);
  await rename(temp, file);
}

const readText = (file: string) => readFile(file, 'utf8').catch(() => null);

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

export async function openWindowStore(dir: string): Promise<WindowStore> {
  await mkdir(dir, { recursive: true });

  async function restore(): Promise<WindowState> {
    const state = emptyWindow();
    const playlist = await readText(join(dir, PLAYLIST_FILE));
    if (playlist !== null) await restoreSegments(state, parsePlaylist(playlist));
    const saved = parseRewindWindow(JSON.parse((await readText(join(dir, WINDOW_FILE))) ?? 'null'));
    state.titles = (saved?.titles ?? []).map((t) => ({ at: Date.parse(t.at), title: t.title }));
    const kept = new Set(state.segments.map((s) => s.name));
    const strays = (await readdir(dir)).filter(
      (name) => name.endsWith('.tmp') || (SEGMENT_NAME.test(name) && !kept.has(name)),
    );
    await remove(strays);
    return state;
  }

  /** The playlist's segments whose files are there, with their sizes. */
  async function restoreSegments(state: WindowState, read: ReturnType<typeof parsePlaylist>): Promise<void> {
    state.mediaSequence = read.mediaSequence;
    state.discontinuitySequence = read.discontinuitySequence;
    for (const segment of read.segments) {
      const bytes = await sizeOf(join(dir, segment.name));
      if (bytes !== null) {
        state.segments.push({ ...segment, bytes });
        continue;
      }
      // A file gone (deleted by hand): the window starts after it, numbers kept.
      for (const dropped of [...state.segments, segment]) {
        state.mediaSequence += 1;
        if (dropped.gapBefore) state.discontinuitySequence += 1;
      }
      state.segments = [];
    }
  }

  async function remove(names: readonly string[]): Promise<void> {
    await Promise.all(names.map((name) => unlink(join(dir, name)).catch(() => {})));
  }

  return {
    dir,
    restore,
    writeSegment: (name, bytes) => replaceFile(join(dir, name), bytes),
    async publish(state, recording, targetS) {
      await replaceFile(join(dir, PLAYLIST_FILE), renderPlaylist(state, targetS));
      await replaceFile(join(dir, WINDOW_FILE), `${JSON.stringify(windowJson(state, recording))}\n`);
    },
    remove,
    async freeBytes() {
      const fs = await statfs(dir);
      return fs.bavail * fs.bsize;
    },
  };
}
