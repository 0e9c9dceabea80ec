import { execFileSync } from 'node:child_process';

// Tests read the real build output (manifest, hashed assets, server bundle),
// so build once before any test file runs.
export default function setup(): void {
  if (process.env.SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['scripts/build.ts'], { stdio: 'inherit' });
}
