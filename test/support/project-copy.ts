/**
 * A copy of the project in a temporary folder, serving a copy of the current build from its dist/,
 * that can be rebuilt with changed code into that same folder (`npm run build --out`, which keeps
 * the previous build's retired files) and restarted on the same port, as a deploy does: for the
 * tests of what open tabs and the service worker see across a deploy.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type AppProcess, SERVER_ENTRY, shippedServerArgs, startApp } from './app-process.ts';

/** What the build reads, copied; node_modules linked. */
const PROJECT_FILES = ['src', 'scripts', 'public', 'package.json', 'tsconfig.json'];
/** A module of the shared chunk that every page imports: its change renames nearly every file. */
const CHANGED_MODULE = 'src/shared/pages.ts';
/** What the rebuild changes in it, and to what. */
const CHANGED_TEXT = ['founded in 2025', 'founded in 2024'] as const;

/** A test that rebuilds: a build takes 12-35 s here and much longer on a busy machine; the limit only stops a hang. */
export const REBUILD_TEST_TIMEOUT_MS = 360_000;

export interface ProjectCopy {
  root: string;
  dist: string;
  /** Starts the copy's built server on its dist/ (on `port`, for a restart on the same origin). */
  serve(env?: Record<string, string>, port?: number): Promise<AppProcess>;
  /** Changes the code and builds into dist/ (the files of the build replaced are kept, decision 046). */
  rebuildWithChangedCode(): Promise<void>;
  /** The names the last rebuild retired (dist/retired-assets.json). */
  retired(): Set<string>;
  remove(): void;
}

export function copyProject(prefix: string): ProjectCopy {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const dist = join(root, 'dist');
  for (const file of PROJECT_FILES) cpSync(file, join(root, file), { recursive: true });
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'));
  cpSync('dist', dist, { recursive: true });
  return {
    root,
    dist,
    serve: (env = {}, port) =>
      startApp(
        { DIST_DIR: dist, LOG_LEVEL: 'warn', ...env, ...(port ? { PORT: String(port) } : {}) },
        { args: [...shippedServerArgs().slice(0, -1), join(dist, 'server', basename(SERVER_ENTRY))] },
      ),
    async rebuildWithChangedCode() {
      const file = join(root, CHANGED_MODULE);
      // A change of the same size (a year in a page's description): a deploy's new code, without
      // adding bytes to pages that sit close to their JS budget (the build refuses a page over it).
      const code = readFileSync(file, 'utf8');
      if (!code.includes(CHANGED_TEXT[0])) throw new Error(`${CHANGED_MODULE} no longer says "${CHANGED_TEXT[0]}"`);
      writeFileSync(file, code.replace(CHANGED_TEXT[0], CHANGED_TEXT[1]));
      await promisify(execFile)(process.execPath, [join(root, 'scripts/build.ts'), '--out', dist], { cwd: root });
    },
    retired: () => new Set(Object.keys(JSON.parse(readFileSync(join(dist, 'retired-assets.json'), 'utf8')))),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
