/**
 * After a deploy, tabs opened on the previous build still ask for its hashed files (a page's chunk
 * on their next navigation). The build copies the previous dist/'s assets that the new build no
 * longer has into the new one, so the server keeps serving them, for KEEP_RETIRED_DAYS after they
 * were first left out (dist/retired-assets.json records when). Pages name only the current build's
 * files; a cached page (the server's page cache, nginx's, with stale-if-error up to a day) names
 * files that are at most that old, well inside the week. The Docker build brings the previous
 * image's dist/ into the build stage for the same reason (Dockerfile, PREVIOUS_IMAGE).
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputLayout } from './layout.ts';

export const KEEP_RETIRED_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
const LEDGER = 'retired-assets.json';

/** File name → when it was first left out of a build (ISO time). */
export type RetiredLedger = Record<string, string>;

/**
 * Which of the previous build's files the next keeps, and since when each is retired: those the next
 * build does not have, retired less than `keepDays` ago. Compressed twins (.br, .gz) follow their file.
 */
export function retainedAssets(
  previous: readonly string[],
  next: ReadonlySet<string>,
  ledger: RetiredLedger,
  now: Date,
  keepDays = KEEP_RETIRED_DAYS,
): RetiredLedger {
  const kept: RetiredLedger = {};
  for (const name of previous) {
    if (/\.(br|gz)$/.test(name) || next.has(name)) continue;
    const retiredAt = ledger[name] ?? now.toISOString();
    if (now.getTime() - Date.parse(retiredAt) < keepDays * DAY_MS) kept[name] = retiredAt;
  }
  return kept;
}

/** Copies the retained files of the build in `previous` (if any) into `next`, with the ledger. */
export function keepPreviousAssets(previous: OutputLayout, next: OutputLayout, now = new Date()): number {
  if (!existsSync(previous.assets)) return 0;
  const ledgerPath = join(previous.dist, LEDGER);
  const ledger = existsSync(ledgerPath) ? (JSON.parse(readFileSync(ledgerPath, 'utf8')) as RetiredLedger) : {};
  const kept = retainedAssets(readdirSync(previous.assets), new Set(readdirSync(next.assets)), ledger, now);
  for (const name of Object.keys(kept))
    for (const file of [name, `${name}.br`, `${name}.gz`])
      if (existsSync(join(previous.assets, file))) copyFileSync(join(previous.assets, file), join(next.assets, file));
  writeFileSync(join(next.dist, LEDGER), `${JSON.stringify(kept, null, 2)}\n`);
  return Object.keys(kept).length;
}
