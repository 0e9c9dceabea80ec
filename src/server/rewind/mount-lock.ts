/**
 * Exactly one process on a host records a mount into a folder: the one that holds the folder's
 * lock, a listening Unix socket in Linux's abstract namespace (named after the folder's absolute
 * path). The kernel frees it when its process ends, however it ends (SIGKILL included), so a lock
 * never outlives its holder and no stale file is left to judge. Processes that do not hold it try
 * again every few seconds and take over when the holder is gone. The namespace is the network
 * namespace's: processes of one host share it, containers each have their own. Elsewhere than Linux (a
 * developer's one process) there is no such namespace: the lock is always granted.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';

export interface MountLock {
  /** Whether this process holds it now. */
  readonly held: boolean;
  /** Releases it (if held) and stops trying. */
  release(): Promise<void>;
}

/** The abstract socket's name for a folder: fixed length, whatever the path. */
export function lockName(dir: string): string {
  const digest = createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 32);
  return `\0chicago-news-rewind-${digest}`;
}

function tryListen(name: string): Promise<Server | null> {
  return new Promise((done) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', () => done(null));
    server.listen({ path: name, exclusive: true }, () => {
      server.unref();
      done(server);
    });
  });
}

/** Takes the lock of `dir` now or as soon as it is free; `onHeld` is called once, when it is taken. */
export function lockMount(dir: string, retryMs: number, onHeld: () => void): MountLock {
  const name = lockName(dir);
  let server: Server | null = null;
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = async () => {
    timer = undefined;
    server = process.platform === 'linux' ? await tryListen(name) : createServer();
    if (released) {
      server?.close();
      server = null;
      return;
    }
    if (server) onHeld();
    else timer = setTimeout(() => void attempt(), retryMs);
  };
  void attempt();
  return {
    get held() {
      return server !== null;
    },
    release() {
      released = true;
      clearTimeout(timer);
      const holding = server;
      server = null;
      return new Promise<void>((done) => (holding?.listening ? holding.close(() => done()) : done()));
    },
  };
}
