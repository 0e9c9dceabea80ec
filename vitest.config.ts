import { defineConfig } from 'vitest/config';

// Two projects. `unit`: modules tested beside their source, no build, no servers, files in
// parallel (`npm run test:unit`). `integration`: test/**, which reads the build (built once by
// the global setup) and starts real servers (the app, Chromium, Icecast, nginx), so its files
// run one at a time, after the unit files, on this 2-core machine.
// Time limits only stop a hung test; they are generous so a busy machine cannot fail a test.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.{ts,tsx}'],
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll returns as soon as its condition holds; the limit only stops a hung wait.
          expect: { poll: { timeout: 30_000 } },
        },
      },
    ],
  },
});
