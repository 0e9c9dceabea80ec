/** Where the build reads from and writes to. The output folder is a parameter, never read from the environment. */
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname;
/** The folder the server and the tests read; `npm run build` builds elsewhere and swaps its result in. */
export const FINAL_DIST = join(ROOT, 'dist');

export interface OutputLayout {
  dist: string;
  /** The public files (served). */
  client: string;
  /** The bundler's output, under `client`. */
  assets: string;
  server: string;
  /** Source maps, kept beside the public files, never served. */
  sourcemaps: string;
}

export function outputLayout(dist: string): OutputLayout {
  const client = join(dist, 'client');
  return {
    dist,
    client,
    assets: join(client, 'assets'),
    server: join(dist, 'server'),
    sourcemaps: join(dist, 'sourcemaps'),
  };
}
