/**
 * `npm run dev`: rebuild client and server on change and restart the server.
 * Unminified, with linked source maps; no pre-compression or budgets. No caching service worker:
 * the kill switch is served at its URL (SERVICE_WORKER=off), so a worker a production build left on
 * this origin unregisters itself instead of serving stale pages while you edit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as esbuild from 'esbuild';
import { mkdirSync } from 'node:fs';
import { FINAL_DIST, outputLayout } from './build/layout.ts';
import { manifestFrom, writeManifest } from './build/manifest.ts';
import { clientOptions, serverOptions } from './build/options.ts';
import { copyPublic, copyServerFiles } from './build/post-process.ts';
import { buildKillSwitch } from './build/service-worker.ts';

const layout = outputLayout(FINAL_DIST);
mkdirSync(layout.assets, { recursive: true });
copyServerFiles(layout);
await buildKillSwitch(layout);
let server: ChildProcess | null = null;
let restartTimer: NodeJS.Timeout | undefined;

function restart(): void {
  clearTimeout(restartTimer);
  restartTimer = setTimeout(() => {
    const start = () => {
      server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
        stdio: 'inherit',
        env: { NODE_ENV: 'development', LOG_LEVEL: 'debug', PAGE_CACHE: 'off', SERVICE_WORKER: 'off', ...process.env },
      });
    };
    if (server && server.exitCode === null) {
      server.once('exit', start);
      server.kill('SIGTERM');
    } else start();
  }, 100);
}

const onEnd = (label: string, after?: (result: esbuild.BuildResult) => void): esbuild.Plugin => ({
  name: `dev-${label}`,
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0) return;
      after?.(result);
      console.log(`[dev] ${label} rebuilt`);
      restart();
    });
  },
});

const client = await esbuild.context({
  ...clientOptions(false, layout),
  plugins: [
    onEnd('client', (result) => {
      if (result.metafile) writeManifest(manifestFrom(result.metafile, layout), layout);
      copyPublic(layout);
    }),
  ],
});
const serverCtx = await esbuild.context({ ...serverOptions(false, layout), plugins: [onEnd('server')] });
await Promise.all([client.watch(), serverCtx.watch()]);
console.log('[dev] watching src/ — the server restarts on every rebuild');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await Promise.all([client.dispose(), serverCtx.dispose()]);
    server?.kill('SIGTERM');
    process.exit(0);
  });
}
