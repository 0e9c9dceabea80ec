/**
 * Just enough MPEG audio frame parsing to cut a file into frames and to
 * check that bytes are a valid MP3 stream (MPEG-1/2/2.5 Layer III).
 */
export interface FrameHeader {
  /** Whole frame length in bytes, header included. */
  length: number;
  sampleRate: number;
  /** Samples per channel in this frame. */
  samples: number;
  bitrateKbps: number;
}

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES_V1 = [44_100, 48_000, 32_000];

/** The Layer III frame header at `offset`, or null when the bytes there are not one. */
export function frameHeaderAt(buf: Uint8Array, offset: number): FrameHeader | null {
  if (offset + 4 > buf.length) return null;
  const b1 = buf[offset + 1]!;
  const b2 = buf[offset + 2]!;
  if (buf[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0b11; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (b1 >> 1) & 0b11; // 1: Layer III
  if (version === 1 || layer !== 1) return null;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0b11;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const mpeg1 = version === 3;
  const bitrateKbps = (mpeg1 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex]!;
  const sampleRate = SAMPLE_RATES_V1[rateIndex]! / (mpeg1 ? 1 : version === 2 ? 2 : 4);
  const samples = mpeg1 ? 1152 : 576;
  const padding = (b2 >> 1) & 1;
  const length = Math.floor(((samples / 8) * bitrateKbps * 1000) / sampleRate) + padding;
  return { length, sampleRate, samples, bitrateKbps };
}

/** Offset of the first position where `count` frames follow each other, or -1. */
export function findFrameSync(buf: Uint8Array, from = 0, count = 3): number {
  for (let i = from; i < buf.length - 4; i++) {
    let at = i;
    let found = 0;
    while (found < count) {
      const header = frameHeaderAt(buf, at);
      if (!header) break;
      at += header.length;
      found += 1;
    }
    if (found === count) return i;
  }
  return -1;
}

/** Splits a whole MP3 file (no ID3 tags, no trailing junk) into its frames. */
export function splitFrames(buf: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let at = findFrameSync(buf, 0, 1);
  while (at >= 0 && at < buf.length) {
    const header = frameHeaderAt(buf, at);
    if (!header || at + header.length > buf.length) break;
    frames.push(buf.subarray(at, at + header.length));
    at += header.length;
  }
  return frames;
}

/** Give up looking for a frame start after this much (then relay as is): a stream that is not MP3 after all. */
export const MAX_SYNC_SEARCH_BYTES = 32 * 1024;

export interface FrameAligner {
  /**
   * Takes the next bytes of a stream; returns what to send on: null while the
   * start is still being looked for, then (once) everything from the first
   * run of three valid frames, then each chunk as it is.
   */
  push(chunk: Buffer): Buffer | null;
}

/**
 * Icecast's burst for a new listener starts mid-frame; Chrome then cannot tell
 * MP3 from the first bytes and probes for about 4 s before it plays. Starting
 * the listener on a frame boundary avoids that.
 */
export function createFrameAligner(limit = MAX_SYNC_SEARCH_BYTES): FrameAligner {
  let head: Buffer | null = Buffer.alloc(0);
  return {
    push(chunk) {
      if (head === null) return chunk;
      // A copy: the chunk may be a view of a buffer its owner reuses.
      head = Buffer.concat([head, chunk]);
      const at = findFrameSync(head, 0, 3);
      if (at < 0 && head.length < limit) return null;
      const start = head.subarray(Math.max(at, 0));
      head = null;
      return start;
    },
  };
}
