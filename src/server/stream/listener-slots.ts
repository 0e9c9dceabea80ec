/**
 * Concurrent listener caps, per process and per client address. A slot is
 * taken before the upstream is contacted and given back exactly once when
 * the listener's response closes.
 */
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
  return {
    get active() {
      return active;
    },
    full(client) {
      return active >= maxTotal || (perClient.get(client) ?? 0) >= maxPerClient;
    },
    take(client) {
      if (this.full(client)) return null;
      const mine = perClient.get(client) ?? 0;
      active += 1;
      perClient.set(client, mine + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active -= 1;
        const left = (perClient.get(client) ?? 1) - 1;
        if (left > 0) perClient.set(client, left);
        else perClient.delete(client);
      };
    },
  };
}
