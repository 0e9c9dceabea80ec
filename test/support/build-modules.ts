/**
 * Which source modules the build put in each client file, read from the build's source maps
 * (dist/sourcemaps, one per JS file, chained through the minifier so they name the original files):
 * a byte-level answer to "is this module in that file", whatever the file is called.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const DIST = 'dist';

/** The source files (paths from the repository root, e.g. `node_modules/react-router/…`) in a client asset. */
export function sourcesOf(assetUrl: string): string[] {
  const map = JSON.parse(readFileSync(join(DIST, 'sourcemaps', `${basename(assetUrl)}.map`), 'utf8')) as {
    sources: string[];
  };
  return map.sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
}

/** Files of earlier builds the build keeps servable (decision 046): not this build's code. */
function retiredAssets(): Set<string> {
  const ledger = join(DIST, 'retired-assets.json');
  return new Set(existsSync(ledger) ? Object.keys(JSON.parse(readFileSync(ledger, 'utf8')) as object) : []);
}

/** This build's client JS assets, as URLs (/assets/…). */
export function clientScripts(): string[] {
  const retired = retiredAssets();
  return readdirSync(join(DIST, 'client', 'assets'))
    .filter((f) => f.endsWith('.js') && !retired.has(f))
    .map((f) => `/assets/${f}`);
}

export const isReactRouter = (source: string) => /(^|\/)node_modules\/react-router(-dom)?\//.test(source);

/** The client files that carry react-router: the router chunk (src/client/router.tsx, decision 043). */
export function reactRouterScripts(): string[] {
  return clientScripts().filter((url) => sourcesOf(url).some(isReactRouter));
}
