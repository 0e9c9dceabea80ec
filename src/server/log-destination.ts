/**
 * Where the log's lines go: stdout, synchronously, a few KB at a time. Each line is encoded into one
 * fixed buffer as it comes; the buffer goes out in one write(2) when the next line might not fit or
 * FLUSH_INTERVAL_MS has passed. pino's own sonic-boom did the same but measured each line's
 * bytes and scanned every buffer twice more: ~5 µs of a cached page's ~35 µs (decision 011).
 */
import { writeSync } from 'node:fs';

/** Lines are held until the next one might not fit in this many bytes (the memory the log holds)… */
export const BUFFER_BYTES = 16 * 1024;
/** …or until this long has passed, so a quiet server's lines still appear promptly. */
export const FLUSH_INTERVAL_MS = 100;

/** Writes bytes from `offset` on; returns how many were written (fs.writeSync's contract). */
export type WriteFn = (bytes: Buffer, offset: number) => number;

/** How long to wait before trying again when stdout is a full non-blocking pipe. */
const FULL_PIPE_WAIT_MS = 1;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export class BufferedDestination {
  /** Lines are encoded straight into this buffer: no string is kept, nothing is allocated per flush. */
  private readonly buffer = Buffer.allocUnsafeSlow(BUFFER_BYTES);
  private used = 0;

  constructor(private readonly writeBytes: WriteFn) {}

  /** pino's destination interface: one formatted line, newline included. */
  write(line: string): void {
    // A line longer than the whole buffer (none is: URLs and user agents are cut) goes out alone.
    if (line.length * 3 > BUFFER_BYTES - this.used) {
      this.flushSync();
      if (line.length * 3 > BUFFER_BYTES) {
        this.writeAll(Buffer.from(line));
        return;
      }
    }
    this.used += this.buffer.write(line, this.used);
  }

  /** Writes what waits (see writeAll). */
  flushSync(): void {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    this.writeAll(this.buffer.subarray(0, used));
  }

  /**
   * All of `bytes`: a short write goes on from where it stopped, and a full pipe (EAGAIN) blocks
   * the process until the reader takes more, as a synchronous log must rather than grow without
   * bound. Any other failure drops the lines: there is nowhere to log it.
   */
  private writeAll(bytes: Buffer): void {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += this.writeBytes(bytes, offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        Atomics.wait(sleeper, 0, 0, FULL_PIPE_WAIT_MS);
      }
    }
  }
}

let stdout: BufferedDestination | undefined;

/** stdout for every logger in the process (one buffer, so lines keep their order), flushed on a timer and at exit. */
export function sharedStdout(): BufferedDestination {
  if (!stdout) {
    const destination = new BufferedDestination((bytes, offset) => writeSync(1, bytes, offset));
    setInterval(() => destination.flushSync(), FLUSH_INTERVAL_MS).unref();
    // process.exit() after SIGTERM ends here too.
    process.once('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}
