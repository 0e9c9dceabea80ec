/**
 * A Chromium performance trace of page loads on a slowed phone (375 px, CPU 4× slower through the
 * DevTools protocol, network unthrottled), summarised: the paints, and every main-thread task of
 * 10 ms or more with what it spent its time on (self time by trace event, with script URLs).
 * Measure with it before cutting the client's work.
 *
 *   node scripts/perf/trace-client.ts [/ /radio …]   (after `npm run build`; starts the built app)
 */
import { writeFileSync } from 'node:fs';
import { blockThirdParties, launchBrowser } from '../../test/support/browser.ts';
import { startApp } from '../../test/support/app-process.ts';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown> & { data?: Record<string, unknown>; name?: string };
}

interface Span {
  name: string;
  start: number;
  end: number;
  detail?: string;
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'v8',
  'blink.user_timing',
  'loading',
  'toplevel',
].join(',');

const routes = process.argv.slice(2).length ? process.argv.slice(2) : ['/'];
const app = await startApp({ LOG_LEVEL: 'warn' });
const browser = await launchBrowser();
try {
  for (const route of routes) await (await fetch(app.url + route)).text();
  for (const route of routes) {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await blockThirdParties(page, app.url);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
    await page.goto(app.url + route, { waitUntil: 'load' });
    await page.waitForTimeout(3_000);
    await cdp.send('Tracing.end');
    await complete;
    await context.close();
    if (process.env.TRACE_OUT)
      writeFileSync(`${process.env.TRACE_OUT}${route.replace(/\W/g, '_')}.json`, JSON.stringify(events));
    console.log(summarise(route, events, app.url));
  }
} finally {
  await browser.close();
  await app.stop();
}

/** The renderer main thread that parsed our page's HTML (or the first one). */
function rendererMain(events: TraceEvent[], origin: string): TraceEvent | undefined {
  const threadNames = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const parse = events.find(
    (e) =>
      e.name === 'ParseHTML' &&
      String(e.args?.beginData ? (e.args.beginData as { url?: string }).url : '').startsWith(origin),
  );
  return threadNames.find((t) => t.pid === parse?.pid) ?? threadNames[0];
}

/** A thread's complete ('X') and begin/end ('B'/'E') events as spans, in start order (outer first). */
function spansOf(events: TraceEvent[], origin: string): Span[] {
  const spans: Span[] = [];
  const open: TraceEvent[] = [];
  for (const e of [...events].sort((a, b) => a.ts - b.ts)) {
    if (e.ph === 'X') spans.push({ name: e.name, start: e.ts, end: e.ts + (e.dur ?? 0), detail: detailOf(e, origin) });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) spans.push({ name: b.name, start: b.ts, end: e.ts, detail: detailOf(b, origin) });
    }
  }
  return spans.sort((a, b) => a.start - b.start || b.end - a.end);
}

function summarise(route: string, events: TraceEvent[], origin: string): string {
  const main = rendererMain(events, origin);
  if (!main) return `${route}: no renderer main thread in the trace`;
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const navStart = events.find((e) => e.name === 'navigationStart' && e.pid === main.pid)?.ts ?? mine[0]!.ts;
  const ms = (ts: number) => ((ts - navStart) / 1000).toFixed(0);
  const spans = spansOf(mine, origin);

  const paints = events
    .filter(
      (e) => e.pid === main.pid && /firstContentfulPaint|largestContentfulPaint::Candidate|firstPaint$/.test(e.name),
    )
    .map((e) => `${e.name} ${ms(e.ts)} ms`);

  const tasks = spans.filter((s) => s.name === 'RunTask' || s.name === 'ThreadControllerImpl::RunTask');
  const lines = [`${route}  (CPU 4×; times from navigationStart)`, `  paints: ${paints.join(', ') || 'none'}`];
  let total = 0;
  for (const task of tasks) {
    const duration = (task.end - task.start) / 1000;
    if (duration < 10) continue;
    total += duration;
    const inner = spans.filter((s) => s !== task && s.start >= task.start && s.end <= task.end);
    lines.push(`  task ${duration.toFixed(0)} ms at ${ms(task.start)} ms: ${selfTimes(inner, task)}`);
  }
  lines.push(`  tasks of 10 ms or more: ${total.toFixed(0)} ms in all`);
  return lines.join('\n');
}

function detailOf(e: TraceEvent, origin: string): string | undefined {
  const data = (e.args?.data ?? e.args?.beginData) as { url?: string; functionName?: string } | undefined;
  const url = data?.url?.replace(origin, '');
  if (!url && !data?.functionName) return undefined;
  return [url, data?.functionName].filter(Boolean).join(' ');
}

/** Self time per event name (and script URL) inside one task, largest first. */
function selfTimes(inner: Span[], task: Span): string {
  const self = new Map<string, number>();
  const stack: Array<Span & { child: number }> = [{ ...task, child: 0 }];
  const close = (until: number) => {
    while (stack.length > 1 && stack.at(-1)!.end <= until) {
      const s = stack.pop()!;
      const key = s.detail ? `${s.name}(${s.detail})` : s.name;
      self.set(key, (self.get(key) ?? 0) + (s.end - s.start - s.child));
      stack.at(-1)!.child += s.end - s.start;
    }
  };
  for (const s of inner) {
    close(s.start);
    stack.push({ ...s, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  const root = stack[0]!;
  self.set('(task)', root.end - root.start - root.child);
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .filter(([, t]) => t >= 1000)
    .slice(0, 6)
    .map(([name, t]) => `${name} ${(t / 1000).toFixed(0)}`)
    .join(', ');
}
