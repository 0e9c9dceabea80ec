/** Frames out of chunks cut anywhere, and past bytes that are not frames. */
import { describe, expect, it } from 'vitest';
import { createFrameReader } from './frame-reader.ts';

/** A valid MPEG-1 Layer III frame (128 kbps, 44.1 kHz, no padding: 417 bytes), filled with `fill`. */
function frame(fill: number): Buffer {
  const bytes = Buffer.alloc(417, fill);
  bytes.set([0xff, 0xfb, 0x90, 0x00]);
  return bytes;
}

const fills = (frames: { bytes: Buffer }[]) => frames.map((f) => f.bytes[4]);

describe('createFrameReader', () => {
  it('gives each whole frame once, with its duration, however the stream is cut', () => {
    const stream = Buffer.concat([Buffer.from('tail of a frame'), ...[1, 2, 3, 4, 5].map(frame)]);
    for (const size of [1, 100, 417, 1000, stream.length]) {
      const reader = createFrameReader();
      const frames = [];
      for (let at = 0; at < stream.length; at += size) frames.push(...reader.push(stream.subarray(at, at + size)));
      // The last frames wait for the ones after them only to find the start: from then on each is given once whole.
      expect(fills(frames)).toEqual([1, 2, 3, 4, 5]);
      expect(frames[0]!.seconds).toBeCloseTo(1152 / 44_100, 9);
    }
  });

  it('skips bytes that are not a frame where one should start, and finds the next run', () => {
    const reader = createFrameReader();
    const stream = Buffer.concat([frame(1), frame(2), frame(3), Buffer.from('junk!'), frame(4), frame(5), frame(6)]);
    expect(fills(reader.push(stream))).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
