/**
 * The Debian packages the integration tests drive. A missing one fails the test that needs it with a
 * message naming the package, never a skip: CI has them all, and scripts/install-system-deps.sh
 * installs whichever are missing.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const INSTALL_HINT = 'bash scripts/install-system-deps.sh installs every one the tests use';

/** Where root's tools live, often outside a user's PATH (nginx is /usr/sbin/nginx). */
const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The full path of `command` on PATH (then the sbin folders), or null. */
export function findCommand(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (command.includes('/')) return executable(command) ? command : null;
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...SBIN];
  return dirs.map((dir) => join(dir, command)).find(executable) ?? null;
}

/** Throws unless every command is there, naming the Debian package of each missing one. */
export function requireCommands(what: string, packages: Record<string, string>): void {
  const missing = Object.entries(packages).filter(([command]) => !findCommand(command));
  if (missing.length === 0) return;
  const list = missing.map(([command, pkg]) => `${command} (Debian package "${pkg}")`).join(', ');
  throw new Error(`missing ${list} for ${what}: ${INSTALL_HINT}`);
}

/** The path of one command, or an error naming its Debian package. */
export function requireCommand(what: string, command: string, pkg: string): string {
  requireCommands(what, { [command]: pkg });
  return findCommand(command)!;
}
