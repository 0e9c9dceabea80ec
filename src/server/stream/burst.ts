/**
 * The last few seconds of a mount's stream, kept so a new listener starts at once (Icecast's
 * burst-on-connect does the same): its player fills its buffer from the burst, then the live
 * bytes follow. The chunks are the ones every listener is sent, kept by reference.
 */
import { findFrameSync } from '../audio/mp3-frames.ts';

export interface Burst {
  push(chunk: Buffer): void;
  /** The kept bytes as one buffer, from an MP3 frame boundary when `mpeg`; null when there are none. */
  snapshot(mpeg: boolean): Buffer | null;
  /** The bytes kept (a snapshot sends at most these). */
  readonly bytes: number;
  clear(): void;
}

export function createBurst(maxBytes: number): Burst {
  let chunks: Buffer[] = [];
  let bytes = 0;
  return {
    push(chunk) {
      chunks.push(chunk);
      bytes += chunk.length;
      // Keep at least maxBytes: drop the oldest chunk while what is left still covers it.
      while (chunks.length > 1 && bytes - chunks[0]!.length >= maxBytes) bytes -= chunks.shift()!.length;
    },
    snapshot(mpeg) {
      if (bytes === 0) return null;
      const all = Buffer.concat(chunks, bytes);
      if (!mpeg) return all;
      const at = findFrameSync(all, 0, 3);
      return at < 0 ? null : all.subarray(at);
    },
    get bytes() {
      return bytes;
    },
    clear() {
      chunks = [];
      bytes = 0;
    },
  };
}
