/**
 * Where the log's lines go: stdout, synchronously, a few KB at a time. Each line is encoded into one
 * fixed buffer as it comes; the buffer goes out in one write(2) when the next line might not fit or
 * FLUSH_INTERVAL_MS has passed. pino's own sonic-boom did the same but measured each line's
 * bytes and scanned every buffer twice more: ~5 µs of a cached page's ~35 µs (decision 011).
 *
 * The log never stops the site: when stdout is a pipe nobody reads (a stuck log shipper), what
 * could not be written waits in a backlog of at most BACKLOG_BYTES, and lines beyond it are
 * dropped and counted. Once the pipe takes the backlog again, one warning line says how many were
 * lost. Nothing ever waits for the reader, so pages, /healthz and SIGTERM go on as usual. If the
 * process exits before the pipe drains, the count of lines lost (dropped, and still held) goes to
 * stderr instead, once, at exit.
 */
import { writeSync } from 'node:fs';

/** Lines are held until the next one might not fit in this many bytes (the memory the log holds)… */
export const BUFFER_BYTES = 16 * 1024;
/** …or until this long has passed, so a quiet server's lines still appear promptly. */
export const FLUSH_INTERVAL_MS = 100;
/** What a stalled stdout may hold back at most; lines beyond it are dropped. */
export const BACKLOG_BYTES = 64 * 1024;

/** Writes bytes from `offset` on; returns how many were written (fs.writeSync's contract). */
export type WriteFn = (bytes: Buffer, offset: number) => number;

const NEWLINE = 0x0a;
/** The most bytes a whole number takes in decimal: a sign and 16 digits (2 ** 53 has 16). */
const MAX_DIGITS = 17;

/** Writes a whole number as decimal digits (as `String(n)` would) at `at`; returns where they end. */
export function putInteger(buffer: Uint8Array, at: number, n: number): number {
  let rest = n;
  if (rest < 0) {
    buffer[at++] = 0x2d;
    rest = -rest;
  }
  let end = at;
  for (let left = rest; left >= 10; left = Math.floor(left / 10)) end++;
  for (let i = end; i >= at; i--) {
    buffer[i] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return end + 1;
}

function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, i + 1)) lines++;
  return lines;
}

/** The warning once the pipe drains, in the logger's line format (level 40 is pino's warn). */
export function droppedLinesWarning(dropped: number, now = Date.now()): string {
  return `{"level":40,"time":${now},"service":"web","dropped":${dropped},"msg":"log lines dropped: stdout was not being read"}\n`;
}

/** The line on stderr at exit when lines were lost and no warning on stdout could say so. */
export function lostAtExitWarning(lost: number, now = Date.now()): string {
  return `{"level":40,"time":${now},"service":"web","dropped":${lost},"msg":"log lines lost at exit: stdout was not being read"}\n`;
}

export class BufferedDestination {
  /** Lines are encoded straight into this buffer: no string is kept, nothing is allocated per flush. */
  private readonly buffer = Buffer.allocUnsafeSlow(BUFFER_BYTES);
  private used = 0;
  /** Bytes the pipe did not take yet (copies), oldest first; never more than BACKLOG_BYTES. */
  private backlog: Buffer[] = [];
  private backlogBytes = 0;
  /** Lines dropped since the last warning. */
  private droppedSinceWarning = 0;
  /** Lines a warning in the backlog counts (it is not out yet); 0 once the backlog is written. */
  private droppedInHeldWarning = 0;
  /** Lines dropped since start (the metric). */
  droppedTotal = 0;

  constructor(private readonly writeBytes: WriteFn) {}

  /** pino's destination interface: one formatted line, newline included. */
  write(line: string): void {
    // A line longer than the whole buffer (none is: URLs and user agents are cut) goes out alone.
    if (line.length * 3 > BUFFER_BYTES - this.used) {
      this.flushSync();
      if (line.length * 3 > BUFFER_BYTES) {
        this.send(Buffer.from(line));
        return;
      }
    }
    this.used += this.buffer.write(line, this.used);
  }

  /**
   * The request log's line (request-log.ts) from bytes it prepared once and two whole numbers (the
   * clock and the response time) written as decimal digits: `head`, `time`, `middle`, `elapsed`,
   * `tail`. Nothing is built, flattened or encoded per line: building the line as a string and
   * encoding it here was the larger part of what the log cost a cached page (decision 016).
   */
  writeLine(head: Uint8Array, time: number, middle: Uint8Array, elapsed: number, tail: Uint8Array): void {
    const most = head.length + middle.length + tail.length + 2 * MAX_DIGITS;
    if (most > BUFFER_BYTES - this.used) {
      this.flushSync();
      if (most > BUFFER_BYTES) {
        this.send(Buffer.concat([head, Buffer.from(String(time)), middle, Buffer.from(String(elapsed)), tail]));
        return;
      }
    }
    const buffer = this.buffer;
    let at = this.used;
    buffer.set(head, at);
    at = putInteger(buffer, at + head.length, time);
    buffer.set(middle, at);
    at = putInteger(buffer, at + middle.length, elapsed);
    buffer.set(tail, at);
    this.used = at + tail.length;
  }

  /** pino's `logger.flush(done)`: what waits, as far as stdout takes it now. */
  flush(done: (error?: Error) => void): void {
    this.flushSync();
    done();
  }

  /** Writes what waits, as far as stdout takes it now. */
  flushSync(): void {
    if (this.used === 0) {
      if (this.backlogBytes > 0) this.drainBacklog();
      return;
    }
    const used = this.used;
    this.used = 0;
    this.send(this.buffer.subarray(0, used));
  }

  /** Lines held back now (tests). */
  get heldBytes(): number {
    return this.backlogBytes + this.used;
  }

  /**
   * Lines that would be lost if the process ended now, with nothing on stdout to say so: those
   * dropped and not yet reported, and those still held (a held warning counts the lines it reports).
   */
  get unreportedLines(): number {
    const held =
      this.backlog.reduce((n, bytes) => n + countLines(bytes), 0) + countLines(this.buffer.subarray(0, this.used));
    const heldWarning = this.droppedInHeldWarning > 0 ? 1 : 0;
    return this.droppedSinceWarning + this.droppedInHeldWarning + held - heldWarning;
  }

  /** Whole lines: after the backlog, what stdout takes now; the rest joins the backlog or is dropped. */
  private send(bytes: Buffer): void {
    const written = this.drainBacklog() ? this.writeSome(bytes) : 0;
    if (written === bytes.length) return;
    const rest = bytes.subarray(written);
    // A line already begun must be finished, or the reader would get half a line glued to the next.
    if (written > 0 || this.backlogBytes + rest.length <= BACKLOG_BYTES) this.hold(rest);
    else this.drop(countLines(rest));
  }

  /** Writes the backlog; true once it is empty (and the warning, if lines were lost, is out). */
  private drainBacklog(): boolean {
    while (this.backlog.length > 0) {
      const head = this.backlog[0]!;
      const written = this.writeSome(head);
      this.backlogBytes -= written;
      if (written < head.length) {
        this.backlog[0] = head.subarray(written);
        return false;
      }
      this.backlog.shift();
    }
    this.droppedInHeldWarning = 0;
    if (this.droppedSinceWarning > 0) {
      const dropped = this.droppedSinceWarning;
      const warning = Buffer.from(droppedLinesWarning(dropped));
      this.droppedSinceWarning = 0;
      const written = this.writeSome(warning);
      if (written < warning.length) {
        this.hold(warning.subarray(written));
        this.droppedInHeldWarning = dropped;
        return false;
      }
    }
    return true;
  }

  private hold(bytes: Buffer): void {
    this.backlog.push(Buffer.from(bytes));
    this.backlogBytes += bytes.length;
  }

  private drop(lines: number): void {
    this.droppedSinceWarning += lines;
    this.droppedTotal += lines;
  }

  /**
   * As much of `bytes` as stdout takes without waiting: a short write goes on from where it
   * stopped; a full pipe (EAGAIN) ends the attempt. Any other failure (EPIPE: no reader any more)
   * counts as written and the lines are lost: there is nowhere to log it.
   */
  private writeSome(bytes: Buffer): number {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += this.writeBytes(bytes, offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return offset;
        return bytes.length;
      }
    }
    return offset;
  }
}

let stdout: BufferedDestination | undefined;

/** Says on stderr how many lines stdout never got; stderr may be stalled too: one try, never a wait. */
function reportLostAtExit(lost: number): void {
  if (lost === 0) return;
  void process.stderr; // a pipe on fd 2 non-blocking, as fd 1 (sharedStdout says why)
  try {
    writeSync(2, lostAtExitWarning(lost));
  } catch {
    // Nowhere left to say it.
  }
}

/** stdout for every logger in the process (one buffer, so lines keep their order), flushed on a timer and at exit. */
export function sharedStdout(): BufferedDestination {
  if (!stdout) {
    // Node opens a pipe or socket on fd 1 non-blocking when it makes process.stdout (libuv's pipe
    // handle), so a write to a full pipe fails with EAGAIN instead of stopping the process.
    // Untouched, fd 1 stays as inherited: blocking, and one write to a stalled pipe froze the site.
    void process.stdout;
    const destination = new BufferedDestination((bytes, offset) => writeSync(1, bytes, offset));
    setInterval(() => destination.flushSync(), FLUSH_INTERVAL_MS).unref();
    // process.exit() after SIGTERM ends here too: one try, no wait for a reader that may never come.
    process.once('exit', () => {
      destination.flushSync();
      reportLostAtExit(destination.unreportedLines);
    });
    stdout = destination;
  }
  return stdout;
}
