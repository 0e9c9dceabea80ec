/**
 * nginx's send_timeout for listeners: one whose socket has accepted nothing for sendTimeoutMs
 * while audio waits for it is ended. One sweep for all listeners (every quarter of the timeout,
 * at most 5 s), so no timer per listener.
 */
import type { Logger } from 'pino';
import type { StreamListener } from './listeners.ts';

export function startSendTimeoutSweep(
  listeners: Iterable<StreamListener>,
  sendTimeoutMs: number,
  log: Logger,
): () => void {
  const sweep = () => {
    const now = Date.now();
    for (const listener of listeners) {
      const socket = listener.res.socket;
      if (!listener.streaming || !socket) continue;
      const accepted = socket.bytesWritten - socket.writableLength;
      if (socket.writableLength === 0 || accepted !== listener.accepted) {
        listener.accepted = accepted;
        listener.acceptedAt = now;
      } else if (now - listener.acceptedAt >= sendTimeoutMs) {
        log.info({ port: listener.port, sendTimeoutMs }, 'listener stopped reading; ended');
        socket.destroy();
      }
    }
  };
  const timer = setInterval(sweep, Math.min(5_000, Math.max(100, Math.floor(sendTimeoutMs / 4))));
  timer.unref();
  return () => clearInterval(timer);
}
