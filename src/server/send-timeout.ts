/**
 * The send timeout (nginx's `send_timeout`), one sweep over every connection of the server: a
 * connection whose answer has bytes waiting that the client has taken none of for its kind's limit
 * is closed. Pages and every other answer: SEND_TIMEOUT_MS (a client that stops reading, pipelined
 * requests piling up). A radio listener's connection, once the stream lane marks it:
 * STREAM_SEND_TIMEOUT_MS, which may be longer or shorter than the pages' (a player on a poor
 * network may stall longer than a page reader should be allowed to).
 *
 * Node's own socket timeout (`server.setTimeout`) is re-armed on every request, which allocates and
 * inserts a timer per answer and moves it on every write. A sweep over the open connections a few
 * times per limit costs nothing per request (decision 016).
 */
import type { Socket } from 'node:net';

export interface SendLimits {
  /** Every connection, unless marked otherwise. */
  pageMs: number;
  /** A stream listener's connection. */
  streamMs: number;
}

export interface SendTimeouts {
  /** Watches a new connection of the server until it closes (the server's 'connection' listener). */
  watch(socket: Socket): void;
  /** From now on the connection carries a stream listener: its limit, and `onCut` told if it is cut. */
  markStream(socket: Socket, onCut: () => void): void;
  /** Runs one sweep now (the timer runs it a few times per limit). */
  sweep(): void;
  /** Stops the timer; connections are no longer watched. */
  stop(): void;
}

interface Watched {
  limitMs: number;
  onCut: (() => void) | undefined;
  /** Bytes the client had taken when first seen not moving, and since when; -1 while nothing waits. */
  taken: number;
  since: number;
}

/**
 * One map entry per open connection and one 'close' listener shared by all (with 10,000 push
 * clients open, each byte kept per connection counts: decision 022).
 */
export function createSendTimeouts(limits: SendLimits, now: () => number = Date.now): SendTimeouts {
  const open = new Map<Socket, Watched>();
  function forget(this: Socket) {
    open.delete(this);
  }
  const sweep = () => {
    const t = now();
    for (const [socket, watched] of open) {
      const waiting = socket.writableLength;
      if (waiting === 0) {
        watched.taken = -1;
        continue;
      }
      // bytesWritten counts what was handed to the socket, waiting included: the rest the client took.
      const taken = socket.bytesWritten - waiting;
      if (taken !== watched.taken) {
        watched.taken = taken;
        watched.since = t;
      } else if (t - watched.since >= watched.limitMs) {
        open.delete(socket);
        watched.onCut?.();
        socket.destroy();
      }
    }
  };
  const shortest = Math.min(limits.pageMs, limits.streamMs);
  const timer = setInterval(sweep, Math.min(5_000, Math.max(100, Math.floor(shortest / 4))));
  timer.unref();
  return {
    watch(socket) {
      open.set(socket, { limitMs: limits.pageMs, onCut: undefined, taken: -1, since: 0 });
      socket.on('close', forget);
    },
    markStream(socket, onCut) {
      const watched = open.get(socket);
      if (!watched) return;
      watched.limitMs = limits.streamMs;
      watched.onCut = onCut;
    },
    sweep,
    stop() {
      clearInterval(timer);
      open.clear();
    },
  };
}
