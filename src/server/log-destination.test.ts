import { describe, expect, it } from 'vitest';
import { BUFFER_CHARS, BufferedDestination, type WriteFn } from './log-destination.ts';

/** A writer that records what reached it; `take` decides how many bytes each call accepts (or throws). */
function recorder(take: (offered: number, call: number) => number = (n) => n) {
  const written: Buffer[] = [];
  let calls = 0;
  const write: WriteFn = (bytes, offset) => {
    const n = take(bytes.length - offset, calls++);
    written.push(bytes.subarray(offset, offset + n));
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

  it('writes by itself once BUFFER_CHARS wait, keeping at most that plus one line', () => {
    const out = recorder();
    const destination = new BufferedDestination(out.write);
    const line = `${'x'.repeat(299)}\n`;
    const lines = Math.ceil(BUFFER_CHARS / line.length);
    for (let i = 0; i < lines - 1; i++) destination.write(line);
    expect(out.calls()).toBe(0);
    destination.write(line);
    expect(out.calls()).toBe(1);
    expect(out.text()).toBe(line.repeat(lines));
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
