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
  /** Bytes the client had taken when last seen moving (or -1: nothing was waiting). */
  taken: number;
  since: number;
}

/** Watches `server`'s connections until the returned function stops it. */
export function cutStalledSenders(server: Server, sendMs: number, now: () => number = Date.now): () => void {
  const open = new Map<Socket, Progress>();
  const onConnection = (socket: Socket) => {
    open.set(socket, { taken: -1, since: now() });
    socket.once('close', () => open.delete(socket));
  };
  server.on('connection', onConnection);
  const sweep = setInterval(
    () => {
      const t = now();
      for (const [socket, progress] of open) {
        const waiting = socket.writableLength;
        // bytesWritten counts what was handed to the socket, waiting included: the rest the client took.
        const taken = waiting === 0 ? -1 : (socket.bytesWritten ?? 0) - waiting;
        if (taken !== progress.taken || taken < 0) {
          progress.taken = taken;
          progress.since = t;
        } else if (t - progress.since >= sendMs) socket.destroy();
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
