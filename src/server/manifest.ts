/**
 * The build's manifest (dist/manifest.json), written by scripts/bundle.ts and read by the server:
 * which hashed files each page loads first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Manifest {
  entry: {
    js: string;
    /** The site's CSS, which every page inlines in a <style> in its head (decision 044); no CSS file is served. */
    styles: string;
    imports: string[];
  };
  /** Page module name (pages.ts `module`) → its chunks, its own first, not counting what the entry already loads. */
  pages: Record<string, string[]>;
}

export function loadManifest(distDir: string): Manifest {
  const file = join(distDir, 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build"`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}
