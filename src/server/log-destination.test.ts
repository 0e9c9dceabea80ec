import { describe, expect, it } from 'vitest';
import { BUFFER_BYTES, BufferedDestination, type WriteFn } from './log-destination.ts';

/** A writer that records what reached it; `take` decides how many bytes each call accepts (or throws). */
function recorder(take: (offered: number, call: number) => number = (n) => n) {
  const written: Buffer[] = [];
  let calls = 0;
  const write: WriteFn = (bytes, offset) => {
    const n = take(bytes.length - offset, calls++);
    written.push(Buffer.from(bytes.subarray(offset, offset + n)));
    return n;
  };
  return { write, text: () => Buffer.concat(written).toString(), calls: () => calls };
}

describe('the buffered log destination', () => {
  it('holds lines until a flush, then writes them in one call, in order', () => {
    const out = recorder();
    const destination = new BufferedDestination(out.write);
    destination.write('{"a":1}\n');
    destination.write('{"b":"é"}\n');
    expect(out.calls()).toBe(0);
    destination.flushSync();
    expect(out.calls()).toBe(1);
    expect(out.text()).toBe('{"a":1}\n{"b":"é"}\n');
    destination.flushSync();
    expect(out.calls()).toBe(1);
  });

  it('writes by itself when the next line might not fit in BUFFER_BYTES, and loses nothing', () => {
    const out = recorder();
    const destination = new BufferedDestination(out.write);
    const line = `${'é'.repeat(149)}x\n`;
    let lines = 0;
    // Bounded: a destination that never writes by itself must fail here, not hang the run.
    while (out.calls() === 0 && lines < BUFFER_BYTES) {
      destination.write(line);
      lines++;
    }
    expect(out.calls()).toBe(1);
    const first = Buffer.byteLength(out.text());
    expect(first).toBeLessThanOrEqual(BUFFER_BYTES);
    expect(first).toBeGreaterThan(BUFFER_BYTES - 3 * line.length);
    destination.flushSync();
    expect(out.text()).toBe(line.repeat(lines));
  });

  it('sends a line longer than the whole buffer on its own, after what waited', () => {
    const out = recorder();
    const destination = new BufferedDestination(out.write);
    const long = `${'y'.repeat(BUFFER_BYTES)}\n`;
    destination.write('a\n');
    destination.write(long);
    destination.write('b\n');
    destination.flushSync();
    expect(out.text()).toBe(`a\n${long}b\n`);
  });

  it('goes on after a short write and waits out a full pipe (EAGAIN), losing nothing', () => {
    const out = recorder((offered, call) => {
      if (call === 1) throw Object.assign(new Error('full'), { code: 'EAGAIN' });
      return Math.min(offered, 5);
    });
    const destination = new BufferedDestination(out.write);
    destination.write('0123456789abcdef\n');
    destination.flushSync();
    expect(out.text()).toBe('0123456789abcdef\n');
  });

  it('drops the lines when stdout is gone (EPIPE) instead of throwing into the request', () => {
    const out = recorder(() => {
      throw Object.assign(new Error('gone'), { code: 'EPIPE' });
    });
    const destination = new BufferedDestination(out.write);
    destination.write('line\n');
    expect(() => destination.flushSync()).not.toThrow();
  });
});
