import { describe, expect, it } from 'vitest';
import { BACKLOG_BYTES, BUFFER_BYTES, BufferedDestination, putInteger, type WriteFn } from './log-destination.ts';

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

  it('goes on after a short write, and keeps what a full pipe (EAGAIN) refused for the next flush', () => {
    const out = recorder((offered, call) => {
      if (call === 1) throw Object.assign(new Error('full'), { code: 'EAGAIN' });
      return Math.min(offered, 5);
    });
    const destination = new BufferedDestination(out.write);
    destination.write('0123456789abcdef\n');
    destination.flushSync();
    expect(out.text()).toBe('01234');
    destination.write('next\n');
    destination.flushSync();
    expect(out.text()).toBe('0123456789abcdef\nnext\n');
  });
});

describe("the request log's prepared lines", () => {
  const bytes = (text: string) => Buffer.from(text);

  it('writes whole numbers as String() does', () => {
    const buffer = Buffer.alloc(40);
    for (const n of [0, 7, 10, 99, 100, 1_764_156_000_123, -3, -10, Number.MAX_SAFE_INTEGER]) {
      buffer.fill(0);
      const end = putInteger(buffer, 2, n);
      expect(buffer.subarray(2, end).toString()).toBe(String(n));
      expect(buffer[end]).toBe(0);
    }
  });

  it('joins its parts and numbers in order with the lines written as strings', () => {
    const out = recorder();
    const destination = new BufferedDestination(out.write);
    destination.write('{"a":1}\n');
    destination.writeLine(bytes('{"t":'), 1_764_156_000_123, bytes(',"é":"x","rt":'), 0, bytes('}\n'));
    destination.write('{"b":2}\n');
    destination.flushSync();
    expect(out.text()).toBe('{"a":1}\n{"t":1764156000123,"é":"x","rt":0}\n{"b":2}\n');
  });

  it('sends a line longer than the whole buffer on its own, after what waited', () => {
    const out = recorder();
    const destination = new BufferedDestination(out.write);
    const long = 'y'.repeat(BUFFER_BYTES);
    destination.write('a\n');
    destination.writeLine(bytes('{"t":'), 12, bytes(`,"m":"${long}","rt":`), 3, bytes('}\n'));
    destination.write('b\n');
    destination.flushSync();
    expect(out.text()).toBe(`a\n{"t":12,"m":"${long}","rt":3}\nb\n`);
  });

  it('writes by itself when the next line might not fit, and loses nothing', () => {
    const out = recorder();
    const destination = new BufferedDestination(out.write);
    const middle = bytes(`,"m":"${'é'.repeat(100)}","rt":`);
    let lines = 0;
    while (out.calls() === 0 && lines < BUFFER_BYTES) {
      destination.writeLine(bytes('{"t":'), 1_000 + lines, middle, lines, bytes('}\n'));
      lines++;
    }
    expect(out.calls()).toBe(1);
    expect(Buffer.byteLength(out.text())).toBeLessThanOrEqual(BUFFER_BYTES);
    destination.flushSync();
    const written = out.text().split('\n').filter(Boolean);
    expect(written).toHaveLength(lines);
    expect(written.map((line) => (JSON.parse(line) as { t: number }).t)).toEqual(
      Array.from({ length: lines }, (_, i) => 1_000 + i),
    );
  });
});

describe('the buffered log destination when stdout is not read', () => {
  it('never waits for a stalled pipe: holds at most BACKLOG_BYTES, drops and counts the rest, warns once it drains', () => {
    let stalled = true;
    const out = recorder((offered) => {
      if (stalled) throw Object.assign(new Error('full'), { code: 'EAGAIN' });
      return offered;
    });
    const destination = new BufferedDestination(out.write);
    const line = `${'x'.repeat(299)}\n`;
    const total = 2_000;
    for (let i = 0; i < total; i++) {
      destination.write(line);
      if (i % 10 === 0) destination.flushSync();
      expect(destination.heldBytes).toBeLessThanOrEqual(BACKLOG_BYTES + BUFFER_BYTES);
    }
    destination.flushSync();
    expect(out.text()).toBe('');
    const dropped = destination.droppedTotal;
    expect(dropped).toBeGreaterThan(0);
    stalled = false;
    destination.flushSync();
    const lines = out.text().split('\n').filter(Boolean);
    const warning = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(warning).toMatchObject({ level: 40, dropped, msg: 'log lines dropped: stdout was not being read' });
    expect(lines.length - 1 + dropped).toBe(total);
    expect(lines.slice(0, -1).every((l) => `${l}\n` === line)).toBe(true);
    // Said once: the next flush adds nothing.
    destination.write('after\n');
    destination.flushSync();
    expect(out.text().endsWith(`"msg":"log lines dropped: stdout was not being read"}\nafter\n`)).toBe(true);
    expect(destination.droppedTotal).toBe(dropped);
  });

  it('counts, for a report at exit, every line stdout never got: the dropped and the still held', () => {
    // A pipe that takes 100 KB (cutting a line in two), then nothing until it resumes.
    let room = 100_000;
    let stalled = true;
    const out = recorder((offered) => {
      if (!stalled) return offered;
      if (room === 0) throw Object.assign(new Error('full'), { code: 'EAGAIN' });
      const n = Math.min(room, offered);
      room -= n;
      return n;
    });
    const destination = new BufferedDestination(out.write);
    const line = `${'x'.repeat(299)}\n`;
    const total = 2_000;
    for (let i = 0; i < total; i++) {
      destination.write(line);
      if (i % 10 === 0) destination.flushSync();
    }
    const whole = Math.floor(100_000 / line.length);
    expect(destination.droppedTotal).toBeGreaterThan(0);
    expect(destination.unreportedLines).toBe(total - whole);
    // Once the pipe takes everything, the warning included, nothing is left to report at exit.
    stalled = false;
    destination.flushSync();
    expect(out.text()).toContain('"msg":"log lines dropped: stdout was not being read"');
    expect(destination.unreportedLines).toBe(0);
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
