/**
 * MP3 frames out of a stream read in arbitrary chunks: each whole frame once, with its duration.
 * The first frame is found as the relay finds it (three valid frames in a row, audio/mp3-frames.ts);
 * bytes that are not a frame where one should start (a source that switched files mid-frame) are
 * skipped up to the next run of three. A partial frame waits for the next chunk.
 */
import { findFrameSync, frameHeaderAt } from '../audio/mp3-frames.ts';

export interface Frame {
  bytes: Buffer;
  /** Seconds of audio in the frame. */
  seconds: number;
}

export interface FrameReader {
  /** The whole frames completed by `chunk` (possibly none). */
  push(chunk: Buffer): Frame[];
}

/** Bytes held while no frame start has been found before giving up on them (they are dropped). */
const MAX_HELD_BYTES = 64 * 1024;

/** Where the next run of three frames starts in `held` from `at`, or where to keep bytes from while none is found. */
function resync(held: Buffer, at: number): { at: number; found: boolean } {
  const start = findFrameSync(held, at, 3);
  if (start >= 0) return { at: start, found: true };
  // Keep only a tail that may still start a run of three frames (each is at most 1,441 bytes).
  return { at: held.length > MAX_HELD_BYTES ? held.length - 8 * 1024 : at, found: false };
}

/**
 * The whole frames that follow each other from `at`; `lost`: bytes that are not a frame header
 * came where one should start (the run ends there), else the run ends at a partial frame.
 */
function readRun(held: Buffer, from: number): { frames: Frame[]; at: number; lost: boolean } {
  const frames: Frame[] = [];
  let at = from;
  while (held.length - at >= 4) {
    const header = frameHeaderAt(held, at);
    if (!header) return { frames, at, lost: true };
    if (at + header.length > held.length) break;
    frames.push({ bytes: held.subarray(at, at + header.length), seconds: header.samples / header.sampleRate });
    at += header.length;
  }
  return { frames, at, lost: false };
}

export function createFrameReader(): FrameReader {
  let held: Buffer = Buffer.alloc(0);
  let synced = false;
  return {
    push(chunk) {
      // A copy: the chunk may be a view of a buffer its owner reuses, and frames outlive it.
      held = held.length === 0 ? Buffer.from(chunk) : Buffer.concat([held, chunk]);
      const frames: Frame[] = [];
      let at = 0;
      for (;;) {
        if (!synced) {
          const found = resync(held, at);
          at = found.at;
          if (!found.found) break;
          synced = true;
        }
        const run = readRun(held, at);
        frames.push(...run.frames);
        at = run.at;
        if (!run.lost) break;
        // Not a frame where one should start: look for the next run of three.
        synced = false;
        at += 1;
      }
      held = held.subarray(at);
      return frames;
    },
  };
}
