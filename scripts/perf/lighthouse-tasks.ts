/**
 * What Lighthouse's Total Blocking Time is made of: one Lighthouse run (mobile, simulated
 * throttling) per route, and from the trace Lighthouse itself recorded, every top-level main-thread
 * task of 12 ms or more (×4 in the simulation: 50 ms) with where its time went (self time by trace
 * event, script URLs, frame) and the URLs Lighthouse attributes it to.
 *
 *   node scripts/perf/lighthouse-tasks.ts [/ /radio …]   (after `npm run build`; starts the built app)
 *   STATIC=1 …   also audits a five-line static page served beside it (Lighthouse's own floor)
 *   RUNS=3 …     runs per page: each run's figures, the tasks of the run with the median estimate
 *   FLAGS='--a --b' …   extra Chromium flags (an A/B of a launcher flag)
 *   TRACE_DIR=dir …   also writes each run's trace there (for the DevTools performance panel)
 *
 * Beside the observed tasks, Lighthouse's own view (Lantern, decision 048): the simulated first
 * paint, the simulated tasks its TBT counts, and the same simulation with each task's thread CPU
 * time instead of its wall time (an estimate a busy machine hardly changes).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js';
import { LanternTotalBlockingTime } from 'lighthouse/core/computed/metrics/lantern-total-blocking-time.js';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import { MainThreadTasks } from 'lighthouse/core/lib/tracehouse/main-thread-tasks.js';
import { TraceProcessor } from 'lighthouse/core/lib/tracehouse/trace-processor.js';
import { freePort, startApp } from '../../test/support/app-process.ts';
import {
  launchChromium,
  type RunnerResult,
  runWithArtifacts,
  warmPageCache,
  warmUpChromium,
} from '../../test/support/lighthouse.ts';

const MIN_TASK_MS = Number(process.env.MIN_TASK_MS ?? 12);
const RUNS = Number(process.env.RUNS ?? 1);

interface TaskNode {
  event: { name: string; tdur?: number; args?: { data?: { url?: string; functionName?: string; frame?: string } } };
  children: TaskNode[];
  parent?: TaskNode;
  startTime: number;
  duration: number;
  selfTime: number;
  attributableURLs: string[];
  group: { id: string };
}

const STATIC_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Static</title><meta name="description" content="A static page."></head><body><h1>Static</h1><p>Five lines of HTML.</p></body></html>';

function label(node: TaskNode, origin: string): string {
  const data = node.event.args?.data;
  const url = data?.url?.replace(origin, '');
  return url ? `${node.event.name}(${url}${data?.functionName ? ` ${data.functionName}` : ''})` : node.event.name;
}

/** Self time per event label in a task's tree, largest first. */
function selfTimes(task: TaskNode, origin: string): string {
  const totals = new Map<string, number>();
  const visit = (node: TaskNode) => {
    const key = label(node, origin);
    totals.set(key, (totals.get(key) ?? 0) + node.selfTime);
    for (const child of node.children) visit(child);
  };
  visit(task);
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .filter(([, ms]) => ms >= 0.5)
    .slice(0, 8)
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
    .join(', ');
}

interface SimulatedTask {
  type: string;
  event: { ts: number; dur?: number; tdur?: number };
  startTime: number;
}
interface SimulatedTiming {
  startTime: number;
  endTime: number;
  duration: number;
}
interface LanternEstimate {
  timing: number;
  pessimisticEstimate: { nodeTimings: Map<SimulatedTask, SimulatedTiming> };
  optimisticEstimate: { timeInMs: number };
}

// Lantern simulates each task with its wall time (`dur`); with this set, with its thread CPU time.
let simulateCpuTime = false;
const cpuNode = Lantern.Graph.CPUNode.prototype as unknown as {
  endTime: number;
  startTime: number;
  event: SimulatedTask['event'];
};
Object.defineProperty(cpuNode, 'duration', {
  get(this: typeof cpuNode) {
    return simulateCpuTime && this.event.tdur ? this.event.tdur : this.endTime - this.startTime;
  },
});

async function lanternEstimates(result: RunnerResult, cpuTime: boolean) {
  const { artifacts } = result;
  const data = {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings: result.lhr.configSettings,
    URL: artifacts.URL,
    SourceMaps: artifacts.SourceMaps,
    HostDPR: artifacts.HostDPR,
    simulator: null,
  } as unknown as Parameters<typeof LanternTotalBlockingTime.request>[0];
  const context = { computedCache: new Map() } as unknown as Parameters<typeof LanternTotalBlockingTime.request>[1];
  simulateCpuTime = cpuTime;
  try {
    const fcp = (await LanternFirstContentfulPaint.request(data, context)) as unknown as LanternEstimate;
    const tbt = (await LanternTotalBlockingTime.request(data, context)) as unknown as LanternEstimate;
    return { fcp, tbt };
  } finally {
    simulateCpuTime = false;
  }
}

/** Lighthouse's simulated tasks that its TBT counts (those past 50 ms ending after the simulated first paint). */
async function simulatedView(result: RunnerResult, traceStart: number): Promise<string[]> {
  const { fcp, tbt } = await lanternEstimates(result, false);
  const fromCpu = await lanternEstimates(result, true);
  // The pessimistic TBT starts at the optimistic first paint (Lantern's TotalBlockingTime).
  const start = fcp.optimisticEstimate.timeInMs;
  const lines = [
    `  simulated: FCP ${Math.round(fcp.timing)} ms (from ${Math.round(start)}), TBT ${Math.round(tbt.timing)} ms; with CPU time instead of wall time: FCP ${Math.round(fromCpu.fcp.timing)} ms, TBT ${Math.round(fromCpu.tbt.timing)} ms`,
  ];
  for (const [task, t] of tbt.pessimisticEstimate.nodeTimings) {
    if (task.type !== 'cpu' || t.duration < 50 || t.endTime < start) continue;
    const blocking = Math.min(t.duration, t.endTime - start) - 50;
    if (blocking <= 0) continue;
    const wall = (task.event.dur ?? 0) / 1000;
    const cpu = (task.event.tdur ?? 0) / 1000;
    lines.push(
      `    counted: ${Math.round(t.startTime)}–${Math.round(t.endTime)} ms simulated, ${Math.round(blocking)} ms blocking; observed at ${Math.round((task.startTime - traceStart) / 1000)} ms, ${wall.toFixed(1)} ms wall, CPU ${cpu.toFixed(1)}`,
    );
  }
  return lines;
}

interface TraceEvent {
  pid: number;
  tid: number;
  ph: string;
  name: string;
  cat: string;
  ts: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * What the other processes did in the load's first 3 s (decision 048): the screenshots Lighthouse's
 * filmstrip took (one per frame drawn) and the CPU time of each process's top-level tasks, by
 * process. On a 2-core machine the browser and GPU processes' CPU is time the renderer may wait for.
 */
function otherProcesses(events: TraceEvent[], timeOrigin: number): string {
  const processName = new Map<number, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'process_name') processName.set(e.pid, e.args?.name ?? '?');
  const inWindow = (e: TraceEvent) => e.ts >= timeOrigin && e.ts < timeOrigin + 3_000_000;
  const screenshots = events.filter((e) => e.name === 'Screenshot' && inWindow(e)).length;
  const cpu = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !e.tdur || !inWindow(e)) continue;
    const name = processName.get(e.pid) ?? String(e.pid);
    cpu.set(name, (cpu.get(name) ?? 0) + e.tdur / 1000);
  }
  const byProcess = [...cpu]
    .sort((x, y) => y[1] - x[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
    .join(', ');
  return `  first 3 s: ${screenshots} screenshots; top-level task CPU ms by process: ${byProcess}`;
}

interface RunReport {
  text: string;
  performance: number;
  tbtMs: number;
  blockingFromCpu: number;
}

async function tasksOf(url: string, port: number): Promise<RunReport> {
  const result = await runWithArtifacts(url, port, undefined, { categories: ['performance'] });
  const origin = new URL(url).origin;
  if (process.env.TRACE_DIR) {
    const name = `${new URL(url).pathname.replaceAll('/', '_') || '_'}-${Date.now()}.json`;
    writeFileSync(join(process.env.TRACE_DIR, name), JSON.stringify(result.artifacts.Trace));
  }
  const processed = TraceProcessor.processTrace(result.artifacts.Trace);
  const tasks = MainThreadTasks.getMainThreadTasks(
    processed.mainThreadEvents,
    processed.frames,
    processed.timestamps.traceEnd,
    processed.timestamps.timeOrigin,
  ) as unknown as TaskNode[];
  const audit = (id: string) => Math.round(result.lhr.audits[id]?.numericValue ?? Number.NaN);
  const fcp = TraceProcessor.processNavigation(processed).timings.firstContentfulPaint;
  const performance = Math.round((result.lhr.categories.performance?.score ?? 0) * 100);
  const lines = [
    `${url.replace(origin, '') || '/'}  performance ${performance}, simulated TBT ${audit('total-blocking-time')} ms, FCP ${audit('first-contentful-paint')} ms; observed FCP ${fcp?.toFixed(0)} ms`,
  ];
  let total = 0;
  let totalCpu = 0;
  // Lighthouse's simulation runs each task 4× slower and counts what passes 50 ms after the first
  // paint; from the CPU time, this estimate hardly depends on how busy the machine is.
  let blockingFromCpu = 0;
  for (const task of tasks) {
    // The thread's CPU time (tdur) as well as the wall time: on a busy machine the wall time
    // includes the time the renderer waited for a core.
    const cpuMs = (task.event.tdur ?? 0) / 1000;
    if (task.parent || Math.max(cpuMs, task.duration) < MIN_TASK_MS) continue;
    total += task.duration;
    totalCpu += cpuMs;
    if (task.startTime >= (fcp ?? 0)) blockingFromCpu += Math.max(0, 4 * cpuMs - 50);
    const urls = task.attributableURLs.map((u) => u.replace(origin, '')).join(' ') || 'Unattributable';
    lines.push(
      `  ${task.duration.toFixed(1)} ms (CPU ${cpuMs.toFixed(1)}) at ${task.startTime.toFixed(0)} ms [${urls}]: ${selfTimes(task, origin)}`,
    );
  }
  lines.push(
    `  top-level tasks of ${MIN_TASK_MS} ms or more (observed, unthrottled): ${total.toFixed(0)} ms wall, ${totalCpu.toFixed(0)} ms CPU; after the first paint, Σ max(0, 4 × CPU − 50) = ${blockingFromCpu.toFixed(0)} ms`,
  );
  lines.push(
    otherProcesses(result.artifacts.Trace.traceEvents as unknown as TraceEvent[], processed.timestamps.timeOrigin),
  );
  lines.push(...(await simulatedView(result, processed.timestamps.timeOrigin)));
  return { text: lines.join('\n'), performance, tbtMs: audit('total-blocking-time'), blockingFromCpu };
}

/** `RUNS` runs of a page: every run's figures, and the tasks of the run with the median estimate. */
async function report(url: string, port: number): Promise<string> {
  const runs: RunReport[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await tasksOf(url, port));
  const byEstimate = [...runs].sort((a, b) => a.blockingFromCpu - b.blockingFromCpu);
  const mid = byEstimate[Math.floor((runs.length - 1) / 2)]!;
  const list = (f: (r: RunReport) => number) => runs.map((r) => Math.round(f(r))).join('/');
  return `${mid.text}\n  runs: performance ${list((r) => r.performance)}, TBT ${list((r) => r.tbtMs)} ms, from CPU ${list((r) => r.blockingFromCpu)} ms`;
}

const routes = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/books', '/radio'];
const port = await freePort();
const app = await startApp({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' });
const staticServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(STATIC_PAGE));
await new Promise<void>((resolve) => staticServer.listen(0, '127.0.0.1', resolve));
const chromium = await launchChromium(process.env.FLAGS?.split(' ').filter(Boolean));
try {
  await warmPageCache(app.url);
  await warmUpChromium(app.url, chromium.port);
  if (process.env.STATIC)
    console.log(await report(`http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/`, chromium.port));
  for (const route of routes) console.log(await report(app.url + route, chromium.port));
} finally {
  await chromium.close();
  await app.stop();
  staticServer.close();
}
