import { defineConfig } from 'vitest/config';

// One runner for every kind of test. Browser, stream and deploy tests start real
// servers (Chromium, Icecast, nginx), so files run one at a time on this 2-core machine.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    globalSetup: ['test/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
