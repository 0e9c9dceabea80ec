/**
 * The same bytes written to every push client (a title change, a heartbeat), straight to each
 * client's socket: the responses are close-delimited with their heads already sent, so the body is
 * the socket's bytes. Through `res.write` each response corks its socket and uncorks it on a later
 * tick, which cost 2.5× the CPU at 10,000 clients; corking the sockets ourselves gains nothing for
 * a single write (docs/decisions/022).
 *
 * At 10,000 clients the writes take 100–250 ms of CPU (mostly the kernel's send), so they are
 * done CLIENTS_PER_TURN at a time, the event loop turning in between: pages, new connections and
 * heartbeats wait one slice, not the whole fan-out. The clients are those connected when it
 * began (one who joins later got the state when joining); one who left meanwhile is skipped.
 */
import type { ServerResponse } from 'node:http';

/** About 10–25 ms of writes per turn on our 2-core machine (decision 022). */
export const CLIENTS_PER_TURN = 1_000;

/** One fan-out done: when its first write began, its duration, and the CPU of its own turns. */
export interface FanOutTiming {
  clients: number;
  /** performance.timeOrigin + performance.now() when the first write began (comparable across processes). */
  startedAt: number;
  /** From the first write to the last turn's end, other work between turns included. */
  writeMs: number;
  /**
   * CPU time of the fan-out's turns (the writes and their callbacks) on the main thread, user and
   * system (the kernel's send); the process's (V8's helper threads too: the collector's) beside.
   */
  userMs: number;
  systemMs: number;
  writeCpuMs: number;
  processCpuMs: number;
  turns: number;
}

const clock = () => performance.timeOrigin + performance.now();

/**
 * Writes `bytes` to each of `clients`, the first slice at once; `done` is told the timing after
 * the last. Returns a cancel: a newer state makes an older one's remaining writes pointless.
 */
export function fanOut(
  clients: ReadonlySet<ServerResponse>,
  bytes: Buffer,
  done: (timing: FanOutTiming) => void = () => {},
  perTurn = CLIENTS_PER_TURN,
): () => void {
  const targets = [...clients];
  const startedAt = clock();
  let next = 0;
  let user = 0;
  let system = 0;
  let processCpu = 0;
  let turns = 0;
  let cancelled = false;
  let pending: NodeJS.Immediate | undefined;

  const afterTurn = (thread: NodeJS.CpuUsage, all: NodeJS.CpuUsage) => {
    const used = process.threadCpuUsage(thread);
    const { user: allUser, system: allSystem } = process.cpuUsage(all);
    user += used.user;
    system += used.system;
    processCpu += allUser + allSystem;
    turns++;
    if (cancelled) return;
    if (next < targets.length) {
      pending = setImmediate(turn);
      return;
    }
    const [userMs, systemMs] = [user / 1000, system / 1000];
    done({
      clients: targets.length,
      startedAt,
      writeMs: clock() - startedAt,
      userMs,
      systemMs,
      writeCpuMs: userMs + systemMs,
      processCpuMs: processCpu / 1000,
      turns,
    });
  };
  function turn() {
    const [thread, all] = [process.threadCpuUsage(), process.cpuUsage()];
    const end = Math.min(targets.length, next + perTurn);
    for (; next < end; next++) {
      const res = targets[next]!;
      if (clients.has(res)) res.socket?.write(bytes);
    }
    // A write that completed at once calls back on the next tick: part of its cost, counted here.
    process.nextTick(afterTurn, thread, all);
  }

  turn();
  return () => {
    cancelled = true;
    clearImmediate(pending);
  };
}
