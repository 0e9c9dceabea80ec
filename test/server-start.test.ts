/** The built server (dist/server/main.js) checks its configuration before it listens. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HANG_LIMIT_MS } from './support/http.ts';

describe('the server process', () => {
  it('refuses to start with a bad variable and says which and why', () => {
    const run = spawnSync(process.execPath, ['dist/server/main.js'], {
      env: { PATH: process.env.PATH, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: HANG_LIMIT_MS,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PORT');
    expect(run.stderr).toContain('must be a whole number');
  });
});
