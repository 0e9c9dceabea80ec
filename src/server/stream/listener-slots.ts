/**
 * Concurrent caps, per process and per client (an IPv4 address or an IPv6 /64: ../client-key.ts),
 * for the stream's listeners and, separately, the now-playing push. A slot is taken before any
 * work is done and given back exactly once when the response closes.
 */
import { clientKey } from '../client-key.ts';

export interface ListenerSlots {
  /** A release function, or null when a cap is reached. */
  take(client: string): (() => void) | null;
  /** Whether take() would refuse this client now (a cap is reached). */
  full(client: string): boolean;
  readonly active: number;
}

export function createListenerSlots(maxTotal: number, maxPerClient: number): ListenerSlots {
  const perClient = new Map<string, number>();
  let active = 0;
  const full = (key: string) => active >= maxTotal || (perClient.get(key) ?? 0) >= maxPerClient;
  return {
    get active() {
      return active;
    },
    full: (client) => full(clientKey(client)),
    take(client) {
      const key = clientKey(client);
      if (full(key)) return null;
      active += 1;
      perClient.set(key, (perClient.get(key) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active -= 1;
        const left = (perClient.get(key) ?? 1) - 1;
        if (left > 0) perClient.set(key, left);
        else perClient.delete(key);
      };
    },
  };
}
