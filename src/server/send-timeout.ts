/**
 * The send timeout (SEND_TIMEOUT_MS, nginx's `send_timeout`): a connection whose answer has bytes
 * waiting that the client has taken none of for that long is closed (a client that stops reading:
 * a page it never takes, pipelined requests piling up).
 *
 * Node's own socket timeout (`server.setTimeout`) did this, but it is re-armed on every request: the
 * server sets it back when a request starts (after the keep-alive timeout of the one before), which
 * allocates and inserts a timer per answer, and moves it on every write. A sweep over the open
 * connections a few times per timeout costs nothing per request (decision 016: "what the app does
 * that bare Node does not").
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

interface Progress {
  /** Bytes the client had taken when first seen not moving. */
  taken: number;
  since: number;
}

/** A connection's progress at `t`: none while nothing waits, the same while the client takes none of what does. */
function progressOf(socket: Socket, progress: Progress | undefined, t: number): Progress | undefined {
  const waiting = socket.writableLength;
  if (waiting === 0) return undefined;
  // bytesWritten counts what was handed to the socket, waiting included: the rest the client took.
  const taken = (socket.bytesWritten ?? 0) - waiting;
  return progress?.taken === taken ? progress : { taken, since: t };
}

/**
 * Watches `server`'s connections until the returned function stops it. Per connection it keeps one
 * map entry, and a Progress only while bytes are waiting; one 'close' listener shared by all (with
 * 10,000 push clients open, each byte kept per connection counts: decision 022).
 */
export function cutStalledSenders(server: Server, sendMs: number, now: () => number = Date.now): () => void {
  const open = new Map<Socket, Progress | undefined>();
  function forget(this: Socket) {
    open.delete(this);
  }
  const onConnection = (socket: Socket) => {
    open.set(socket, undefined);
    socket.on('close', forget);
  };
  server.on('connection', onConnection);
  const sweep = setInterval(
    () => {
      const t = now();
      for (const [socket, progress] of open) {
        const next = progressOf(socket, progress, t);
        if (next !== progress) open.set(socket, next);
        else if (next && t - next.since >= sendMs) socket.destroy();
      }
    },
    Math.max(100, Math.floor(sendMs / 4)),
  );
  sweep.unref();
  return () => {
    clearInterval(sweep);
    server.off('connection', onConnection);
  };
}
