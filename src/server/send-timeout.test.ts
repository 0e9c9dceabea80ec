import type { Socket } from 'node:net';
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createSendTimeouts, type SendTimeouts } from './send-timeout.ts';

/** A connection as the sweep sees it: bytes handed to it, bytes still waiting in Node, destroy(). */
class FakeSocket extends EventEmitter {
  bytesWritten = 0;
  writableLength = 0;
  destroyed = false;
  destroy() {
    this.destroyed = true;
  }
}

let sweeps: SendTimeouts | undefined;
afterEach(() => sweeps?.stop());

describe('the send-timeout sweep', () => {
  const limits = { pageMs: 1_000, streamMs: 5_000 };

  function setUp() {
    let t = 0;
    sweeps = createSendTimeouts(limits, () => t);
    const at = (ms: number) => {
      t = ms;
      sweeps!.sweep();
    };
    const open = () => {
      const socket = new FakeSocket();
      sweeps!.watch(socket as unknown as Socket);
      return socket;
    };
    return { sweeps, at, open };
  }

  it('cuts a page connection whose client took nothing for SEND_TIMEOUT_MS, and only that one', () => {
    const { at, open } = setUp();
    const stalled = open();
    const reading = open();
    const idle = open();
    stalled.bytesWritten = 100_000;
    stalled.writableLength = 40_000;
    reading.bytesWritten = 100_000;
    reading.writableLength = 40_000;
    at(0);
    reading.writableLength -= 1; // the client took a byte
    at(999);
    expect(stalled.destroyed).toBe(false);
    at(1_000);
    expect(stalled.destroyed).toBe(true);
    expect(reading.destroyed).toBe(false);
    expect(idle.destroyed).toBe(false);
  });

  it("gives a listener's connection STREAM_SEND_TIMEOUT_MS, longer than the pages' limit", () => {
    const { sweeps, at, open } = setUp();
    const listener = open();
    let cut = 0;
    sweeps.markStream(listener as unknown as Socket, () => cut++);
    listener.bytesWritten = 1_000_000;
    listener.writableLength = 16_000;
    at(0);
    at(limits.pageMs * 2);
    expect(listener.destroyed).toBe(false);
    at(limits.streamMs - 1);
    expect(listener.destroyed).toBe(false);
    at(limits.streamMs);
    expect(listener.destroyed).toBe(true);
    expect(cut).toBe(1);
  });

  it('forgets a connection once it closes', () => {
    const { at, open } = setUp();
    const socket = open();
    socket.bytesWritten = 10;
    socket.writableLength = 10;
    at(0);
    socket.emit('close');
    at(10_000);
    expect(socket.destroyed).toBe(false);
  });
});
