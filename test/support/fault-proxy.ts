/**
 * A TCP proxy on 127.0.0.1 in front of a server, for outages the browser does not announce (no
 * `offline` event): it passes connections through, resets them (TCP RST, as a dropped NAT entry or a
 * restarting load balancer does), refuses them (nothing listens: the server is down), or holds them
 * (open, but no byte passes: packets dropped, Wi-Fi up with no internet). Switching to `reset` or
 * `refuse` resets every connection open at that moment; switching to `hold` stops what they carry,
 * and leaving `hold` resets the connections it held.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';

export type FaultMode = 'pass' | 'reset' | 'refuse' | 'hold';

export interface FaultProxy {
  /** http://127.0.0.1:<port>: load the page from here, so every request of the page goes through. */
  readonly url: string;
  readonly port: number;
  mode(): FaultMode;
  setMode(mode: FaultMode): Promise<void>;
  /** Connections accepted so far (passed through or reset). */
  accepted(): number;
  stop(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  let current: FaultMode = 'pass';
  let accepted = 0;
  const open = new Set<Socket>();

  const server = createServer((client) => {
    accepted += 1;
    if (current === 'hold') {
      open.add(client);
      client.on('error', () => open.delete(client)).on('close', () => open.delete(client));
      client.pause();
      return;
    }
    if (current !== 'pass') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await listen(server, 0);

  /** Nothing passes any more: the pipes are cut and nothing is read, so the ends only see silence. */
  const holdOpen = () => {
    for (const socket of open) {
      socket.unpipe();
      socket.pause();
    }
  };

  const resetOpen = () => {
    for (const socket of open) socket.resetAndDestroy();
    open.clear();
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    mode: () => current,
    accepted: () => accepted,
    async setMode(mode) {
      if (mode === current) return;
      const wasListening = current !== 'refuse';
      const wasHolding = current === 'hold';
      current = mode;
      if (mode === 'hold') holdOpen();
      else if (mode !== 'pass' || wasHolding) resetOpen();
      if (mode === 'refuse' && wasListening) await new Promise<void>((resolve) => server.close(() => resolve()));
      // The same port again: the page's origin stays the same.
      if (mode !== 'refuse' && !wasListening) await listen(server, port);
    },
    async stop() {
      resetOpen();
      if (current !== 'refuse') await new Promise<void>((resolve) => server.close(() => resolve()));
      current = 'refuse';
    },
  };
}
