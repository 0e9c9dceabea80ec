/**
 * What `npm run bench` does to its servers besides the load: the other lanes a running site
 * answers, and the bare Node peer's script with the answer it is to send.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
