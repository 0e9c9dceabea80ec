/**
 * The guard of `npm run bench` (issue 28): the previous commit, built as `npm run build` builds it,
 * to be measured beside the app in the same interleaved rounds. `git archive` of the commit into a
 * temporary folder (node_modules linked, the build's own output in its dist/), run with that
 * commit's `npm start` flags. BENCH_PREVIOUS names another revision (default HEAD~1).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_ENTRY } from '../../test/support/app-process.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

export interface PreviousBuild {
  /** The revision asked for and the commit it named. */
  rev: string;
  commit: string;
  /** Its build, for DIST_DIR. */
  dist: string;
  /** Node's arguments as that commit's `npm start` gives them, with its own entry. */
  args: string[];
  remove(): void;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** `npm start`'s flags in a package.json ("node [flags] dist/server/main.js"). */
function startFlags(packageJson: string): string[] {
  const { scripts } = JSON.parse(packageJson) as { scripts?: Record<string, string> };
  const [node, ...args] = (scripts?.start ?? '').split(/\s+/);
  if (node !== 'node' || args.at(-1) !== SERVER_ENTRY)
    throw new Error(`the previous commit's "start" is not "node [flags] ${SERVER_ENTRY}": ${scripts?.start}`);
  return args.slice(0, -1);
}

/** Builds `rev` (default BENCH_PREVIOUS or HEAD~1); its build log is shown only if the build fails. */
export function buildPrevious(rev = process.env.BENCH_PREVIOUS || 'HEAD~1'): PreviousBuild {
  const commit = git('rev-parse', '--short', '--verify', `${rev}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), `news-bench-${commit}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync('sh', ['-c', `git archive "${commit}" | tar -x -C "${dir}"`], { cwd: ROOT, stdio: 'inherit' });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
    console.log(`building the previous commit ${commit} (${rev}) in ${dir}`);
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const dist = join(dir, 'dist');
    const args = [...startFlags(readFileSync(join(dir, 'package.json'), 'utf8')), join(dist, 'server', 'main.js')];
    return { rev, commit, dist, args, remove };
  } catch (error) {
    remove();
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer | string; stderr?: Buffer | string };
    const output = `${stdout}${stderr}`;
    throw new Error(`cannot build ${rev} (${commit}) for the guard: ${output.slice(-2000) || String(error)}`);
  }
}
