/**
 * Servers to compare under the same wrk load (scripts/perf/ab.ts, scripts/perf/samples.ts): the
 * built app with other Node flags, another build or other settings, or the bare Node peer of
 * `npm run bench` sending the app's cached home page. Servers on CPU 0, wrk on CPU 1, each app's
 * log to a socket read by a `cat` on wrk's CPU, as `npm run bench` does.
 *
 *   NAME=FLAGS[@DIST_DIR][%VAR=VALUE,...]   the app; FLAGS: Node flags separated by commas, or
 *                                           "none"; DIST_DIR: a build (default dist); VAR=VALUE:
 *                                           its environment ("free": a free port, for METRICS_PORT)
 *   NAME=bare[:FLAGS][%VAR=VALUE,...]       scripts/perf/bare-node.ts with the first app's brotli
 *                                           home page and headers (FLAGS default: `npm start`'s)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, freePort, shippedServerArgs, startApp } from '../../test/support/app-process.ts';
import { fetchBytes } from './fetch-bytes.ts';
import { runWrk } from './wrk.ts';

export interface Variant {
  name: string;
  /** The bare Node peer instead of the app. */
  bare: boolean;
  flags: string[];
  dist: string;
  env: Array<[string, string]>;
}

const CONNECTIONS = 64;
const ACCEPT = 'gzip, br';

const flagList = (flags: string) => (flags === 'none' ? [] : flags.split(','));
/** `VAR=VALUE,...` as pairs. */
const envPairs = (env: string) => (env ? env.split(',').map((pair) => pair.split('=') as [string, string]) : []);

export function parseVariant(spec: string): Variant {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new Error(`expected NAME=FLAGS[@DIST_DIR] or NAME=bare[:FLAGS], got ${spec}`);
  const name = spec.slice(0, eq);
  const rest = spec.slice(eq + 1);
  const [server = '', env = ''] = rest.split('%');
  if (server === 'bare' || server.startsWith('bare:')) {
    const flags = server.slice('bare:'.length);
    return {
      name,
      bare: true,
      flags: flags ? flagList(flags) : shippedServerArgs().slice(0, -1),
      dist: '',
      env: envPairs(env),
    };
  }
  const [flags = '', dist = 'dist'] = server.split('@');
  return {
    name,
    bare: false,
    flags: flagList(flags),
    dist,
    env: envPairs(env),
  };
}

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** `seconds` of wrk on the home page from CPU 1. */
export const homeWrk = (server: AppProcess, seconds: number) =>
  runWrk({
    url: `${server.url}/`,
    connections: CONNECTIONS,
    durationS: seconds,
    headers: { 'Accept-Encoding': ACCEPT },
    cpu: 1,
  });

async function startAppVariant(variant: Variant): Promise<AppProcess> {
  const env: Record<string, string> = { DIST_DIR: variant.dist };
  for (const [name, value] of variant.env) env[name] = value === 'free' ? String(await freePort()) : value;
  const app = await startApp(env, {
    name: variant.name,
    logFile: '/dev/null',
    cpu: 0,
    logReaderCpu: 1,
    args: [...variant.flags, `${variant.dist}/server/main.js`],
  });
  // Rendered, then cached: the fast lane answers from here on.
  for (let i = 0; i < 3; i++) await fetch(`${app.url}/`).then((r) => r.arrayBuffer());
  await otherLanes(app);
  return app;
}

/** Targets a site's traffic asks for besides cached pages: a file, a 404 page, robots.txt, a refused stream port. */
export const OTHER_LANES = ['/sw.js', '/favicon.ico', '/no-such-page', '/robots.txt', '/api/stream?port=1'] as const;

/** Answers from the other lanes first, as a running site has given them (they shape what V8 compiles). */
export async function otherLanes(server: { url: string }, times = 20): Promise<void> {
  for (let i = 0; i < times; i++)
    for (const path of OTHER_LANES) await fetch(`${server.url}${path}`).then((r) => r.arrayBuffer());
}

/** The bare Node peer's script and its arguments, with the answer it is to send written into `dir`. */
export function barePeerArgs(dir: string, page: { body: Buffer; headers: Array<[string, string]> }): string[] {
  writeFileSync(join(dir, 'bare-body.br'), page.body);
  writeFileSync(join(dir, 'bare-headers.json'), JSON.stringify(page.headers));
  return ['scripts/perf/bare-node.ts', join(dir, 'bare-body.br'), join(dir, 'bare-headers.json')];
}

async function startBare(variant: Variant, app: AppProcess): Promise<AppProcess> {
  const page = await fetchBytes(`${app.url}/`, 'br');
  if (page.status !== 200 || page.encoding !== 'br') throw new Error(`${app.name}: no cached brotli home page`);
  const args = barePeerArgs(mkdtempSync(join(tmpdir(), 'bare-peer-')), page);
  return startApp(Object.fromEntries(variant.env), {
    name: variant.name,
    logFile: '/dev/null',
    cpu: 0,
    args: [...variant.flags, ...args],
  });
}

/** Starts every variant (apps first: a bare peer copies the first app's page), each warmed by `warmSeconds` of load. */
export async function startVariants(variants: Variant[], warmSeconds: number): Promise<Map<Variant, AppProcess>> {
  const started = new Map<Variant, AppProcess>();
  try {
    for (const variant of variants.filter((v) => !v.bare)) started.set(variant, await startAppVariant(variant));
    const first = started.values().next().value;
    for (const variant of variants.filter((v) => v.bare)) {
      if (!first) throw new Error('a bare peer needs an app variant to copy its page from');
      started.set(variant, await startBare(variant, first));
    }
    for (const server of started.values()) await homeWrk(server, warmSeconds);
  } catch (error) {
    await Promise.all([...started.values()].map((server) => server.stop()));
    throw error;
  }
  return started;
}
