/**
 * Process entry: read the configuration (a bad value names its variable and exits 1), start every
 * part (runtime.ts), and stop them on SIGTERM/SIGINT within the shutdown timeout (under 10 s).
 */
import { type Config, loadConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { startRuntime } from './runtime.ts';

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

const config = readConfig();
// A failure to start is logged by the runtime; the process only has to end.
const runtime = await startRuntime(config).catch(() => process.exit(1));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    // Last resort if something below never settles: the process must not outlive its grace period.
    setTimeout(() => process.exit(1), config.timeouts.shutdownMs + 1_000).unref();
    await runtime.stop(signal);
    process.exit(0);
  });
}
