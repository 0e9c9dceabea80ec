/**
 * One client's radio streams are capped across the app processes by deploy/nginx.conf: 40 streams
 * from one IPv6 /64 through nginx to three processes, and 8 are served in all (each process alone
 * would serve 8). The run needs addresses of one /64 on this machine: it happens in a network
 * namespace of its own (one-client-in-netns.ts), which takes its addresses with it when it ends.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireCommands } from '../support/system-deps.ts';

const RUN = new URL('./one-client-in-netns.ts', import.meta.url).pathname;
const STREAMS = 40;

/** Runs the namespace's script; resolves with its JSON line. */
function runInNamespace(): Promise<{ statuses: Record<string, number>; audio: number }> {
  requireCommands('the per-client test (a network namespace of its own)', { unshare: 'util-linux', ip: 'iproute2' });
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['--net', process.execPath, RUN, String(STREAMS)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{"streams"'));
      if (code !== 0 || !line) reject(new Error(`the namespace's run exited ${code}:\n${out}\n${err}`));
      else resolve(JSON.parse(line) as { statuses: Record<string, number>; audio: number });
    });
  });
}

describe('deploy/nginx.conf caps one client’s streams across the app processes', () => {
  it(`serves 8 of ${STREAMS} streams from one IPv6 /64 through three processes (429 for the rest)`, async () => {
    const { statuses, audio } = await runInNamespace();
    console.log(`${STREAMS} streams from one /64, three processes: ${JSON.stringify(statuses)}, ${audio} with audio`);
    expect(audio).toBe(8);
    expect(statuses).toEqual({ 200: 8, 429: STREAMS - 8 });
  }, 180_000);
});
