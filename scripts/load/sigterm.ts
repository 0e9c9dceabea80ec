/**
 * SIGTERM during load: keep-alive clients request pages in a loop; the server is told to stop.
 * Every request written before the signal must be answered in full; later ones must be served
 * or refused cleanly (connection refused, or the keep-alive connection closed before any byte
 * of an answer, which clients retry); the process must exit 0 (its shutdown timeout, under 10 s,
 * would force exit code 1).
 */
import { Agent, request } from 'node:http';
import type { AppProcess } from '../../test/support/app-process.ts';

export interface SigtermOptions {
  paths: string[];
  connections: number;
  /** Load before the signal. */
  beforeMs: number;
  /** Longest time to keep trying after the signal. */
  afterMs: number;
}

type Outcome = 'ok' | 'refused' | 'closed-before-answer' | 'bad';

interface Attempt {
  sentAt: number;
  doneAt: number;
  outcome: Outcome;
  detail: string;
}

export interface SigtermResult {
  sentBefore: number;
  inFlightAtSignal: number;
  okBefore: number;
  lostBefore: Attempt[];
  after: Record<Outcome, number>;
  badAfter: Attempt[];
  exitCode: number | null;
  exitMs: number;
  passed: boolean;
}

function attempt(agent: Agent, port: number, path: string): Promise<Attempt> {
  return new Promise((resolve) => {
    let sentAt = Number.POSITIVE_INFINITY;
    let answered = false;
    const finish = (outcome: Outcome, detail: string) =>
      resolve({ sentAt, doneAt: performance.now(), outcome, detail });
    const req = request(
      // The timeout only stops a hung client: the server force-closes what is left after 8 s anyway.
      { host: '127.0.0.1', port, path, agent, headers: { 'Accept-Encoding': 'gzip, br' }, timeout: 60_000 },
      (res) => {
        answered = true;
        const expected = Number(res.headers['content-length'] ?? -1);
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300 && (expected < 0 || bytes === expected)) finish('ok', String(status));
          else finish('bad', `status ${status}, ${bytes}/${expected} bytes`);
        });
        res.on('error', (e) => finish('bad', `response cut: ${e.message}`));
        res.on('aborted', () => finish('bad', 'response aborted'));
      },
    );
    // 'finish': the whole request has been handed to the OS, so it is on its way to the server.
    req.on('finish', () => (sentAt = performance.now()));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (answered) return finish('bad', `after answer: ${e.code ?? e.message}`);
      if (e.code === 'ECONNREFUSED') return finish('refused', e.code);
      if (e.code === 'ECONNRESET' || e.message === 'socket hang up')
        return finish('closed-before-answer', e.code ?? e.message);
      finish('bad', e.code ?? e.message);
    });
    req.end();
  });
}

export async function sigtermUnderLoad(server: AppProcess, options: SigtermOptions): Promise<SigtermResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const attempts: Attempt[] = [];
  let signalAt = Number.POSITIVE_INFINITY;
  let exitedAt = Number.POSITIVE_INFINITY;
  const started = performance.now();
  const stopAt = started + options.beforeMs + options.afterMs;

  const worker = async (w: number) => {
    for (let i = 0; performance.now() < stopAt && performance.now() < exitedAt + 300 && i < 100_000; i++) {
      const result = await attempt(agent, server.port, options.paths[(w + i) % options.paths.length]!);
      attempts.push(result);
      if (result.outcome === 'refused') await new Promise((r) => setTimeout(r, 50));
    }
  };
  const signaller = (async () => {
    await new Promise((r) => setTimeout(r, options.beforeMs));
    signalAt = performance.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    exitedAt = performance.now();
    return code;
  })();
  const [exitCode] = await Promise.all([
    signaller,
    ...Array.from({ length: options.connections }, (_, w) => worker(w)),
  ]);
  agent.destroy();

  const before = attempts.filter((a) => a.sentAt <= signalAt);
  const after = attempts.filter((a) => a.sentAt > signalAt);
  const count = (o: Outcome) => after.filter((a) => a.outcome === o).length;
  const lostBefore = before.filter((a) => a.outcome !== 'ok');
  const badAfter = after.filter((a) => a.outcome === 'bad');
  const exitMs = exitedAt - signalAt;
  return {
    sentBefore: before.length,
    inFlightAtSignal: before.filter((a) => a.doneAt > signalAt).length,
    okBefore: before.length - lostBefore.length,
    lostBefore,
    after: {
      ok: count('ok'),
      refused: count('refused'),
      'closed-before-answer': count('closed-before-answer'),
      bad: count('bad'),
    },
    badAfter,
    exitCode,
    exitMs,
    passed: lostBefore.length === 0 && badAfter.length === 0 && exitCode === 0,
  };
}
