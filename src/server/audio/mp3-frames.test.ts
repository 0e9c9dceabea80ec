import { describe, expect, it } from 'vitest';
import { createFrameAligner, frameHeaderAt } from './mp3-frames.ts';

/** A valid MPEG-1 Layer III frame (128 kbps, 44.1 kHz, no padding: 417 bytes), filled with `fill`. */
function frame(fill: number): Buffer {
  const bytes = Buffer.alloc(417, fill);
  bytes.set([0xff, 0xfb, 0x90, 0x00]);
  return bytes;
}

describe('createFrameAligner', () => {
  const frames = Buffer.concat([frame(1), frame(2), frame(3), frame(4)]);
  const junk = Buffer.from('partial frame tail');

  it('holds bytes back until three frames follow each other, then starts at the first', () => {
    expect(frameHeaderAt(frame(1), 0)?.length).toBe(417);
    const aligner = createFrameAligner();
    const stream = Buffer.concat([junk, frames]);
    expect(aligner.push(stream.subarray(0, 600))).toBeNull();
    const start = aligner.push(stream.subarray(600));
    expect(start).toEqual(frames);
    // Aligned: later chunks pass as they are.
    const next = Buffer.from('next');
    expect(aligner.push(next)).toBe(next);
  });

  it('copies what it holds back, so a chunk may be a view of a reused buffer', () => {
    const aligner = createFrameAligner();
    const reused = Buffer.concat([junk, frames.subarray(0, 500)]);
    expect(aligner.push(reused)).toBeNull();
    const kept = Buffer.from(reused);
    reused.fill(0);
    expect(aligner.push(frames.subarray(500))).toEqual(
      Buffer.concat([kept.subarray(junk.length), frames.subarray(500)]),
    );
  });

  it('gives up after its limit and passes everything on', () => {
    const aligner = createFrameAligner(64);
    expect(aligner.push(Buffer.alloc(40, 7))).toBeNull();
    expect(aligner.push(Buffer.alloc(40, 8))).toEqual(Buffer.concat([Buffer.alloc(40, 7), Buffer.alloc(40, 8)]));
  });
});
