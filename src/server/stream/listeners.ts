/**
 * The listeners a process serves right now: who they are, for the shutdown and the count
 * now-playing reports. Each is registered when its slot is taken and removed when its response
 * closes; its listening figures (listening.ts) follow the same two events.
 */
import type { ServerResponse } from 'node:http';
import { createListeningTally, type ListeningFigures } from './listening.ts';

export interface StreamListener {
  res: ServerResponse;
  port: number;
  /** True once the stream's headers are sent (an error answer is no longer possible). */
  streaming: boolean;
}

export interface ListenerRegistry {
  add(listener: StreamListener): void;
  delete(listener: StreamListener): void;
  /** Listeners of one port (all when port is undefined). */
  count(port?: number): number;
  /** Listener-seconds, sessions of a minute and peaks per port (metrics). */
  readonly listening: ListeningFigures;
  [Symbol.iterator](): Iterator<StreamListener>;
}

export function createListenerRegistry(now?: () => number): ListenerRegistry {
  const all = new Set<StreamListener>();
  const listening = createListeningTally(now);
  const perPort = new Map<number, number>();
  return {
    add(listener) {
      all.add(listener);
      perPort.set(listener.port, (perPort.get(listener.port) ?? 0) + 1);
      listening.start(listener, listener.port);
    },
    delete(listener) {
      if (!all.delete(listener)) return;
      perPort.set(listener.port, (perPort.get(listener.port) ?? 1) - 1);
      listening.end(listener);
    },
    count: (port) => (port === undefined ? all.size : (perPort.get(port) ?? 0)),
    listening,
    [Symbol.iterator]: () => all.values(),
  };
}
