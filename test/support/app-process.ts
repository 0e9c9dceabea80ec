import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The server's arguments exactly as shipped: `npm start` ("node <flags> dist/server/main.js" in
 * package.json; the Dockerfile's CMD is the same, test/start-command.test.ts checks), so tests and
 * benchmarks run the server with the flags production has.
 */
export function shippedServerArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [node, ...args] = scripts.start!.split(/\s+/);
  if (node !== 'node' || args.at(-1) !== 'dist/server/main.js')
    throw new Error(`package.json "start" is not "node [flags] dist/server/main.js": ${scripts.start}`);
  return args;
}

export interface AppProcess {
  url: string;
  port: number;
  child: ChildProcess;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; we release it and hand it on). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server (dist/server/main.js) as its own process on 127.0.0.1,
 * exactly as `npm start` would (its flags too), and waits for /healthz.
 */
export async function startApp(
  env: Record<string, string> = {},
  args: string[] = shippedServerArgs(),
): Promise<AppProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const logs: string[] = [];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const onData = (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app exited early (${child.exitCode}):\n${logs.join('\n')}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`app did not become healthy:\n${logs.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  return {
    url,
    port,
    child,
    logs,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
