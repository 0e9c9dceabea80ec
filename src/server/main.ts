/**
 * Process entry: read the configuration (a bad value names its variable and exits 1), start every
 * part (runtime.ts), and stop them on SIGTERM/SIGINT within the shutdown timeout (under 10 s).
 * A part that cannot start is told in one line on stderr, `cannot start <step>: <reason>`, after
 * the runtime has stopped what had started; the process then ends with exit code 1.
 */
import { type Config, loadConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { startRuntime } from './runtime.ts';
import { StartFailure } from './start-steps.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * A start that failed has stopped every part it had started, so the process ends by itself with
 * nothing left to run. Should a part be left running anyway, the process says so and exits.
 */
function cannotStart(error: unknown, shutdownMs: number): void {
  // stderr is synchronous for files and pipes: the line is out before the process exits.
  console.error(error instanceof StartFailure ? error.message : `cannot start: ${String(error)}`);
  process.exitCode = 1;
  setTimeout(() => {
    console.error('cannot start: a part was still running after the stop');
    process.exit(1);
  }, shutdownMs).unref();
}

const config = readConfig();
try {
  const runtime = await startRuntime(config);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, async () => {
      // Last resort if something below never settles: the process must not outlive its grace period.
      setTimeout(() => process.exit(1), config.timeouts.shutdownMs + 1_000).unref();
      await runtime.stop(signal);
      process.exit(0);
    });
  }
} catch (error) {
  cannotStart(error, config.timeouts.shutdownMs);
}
