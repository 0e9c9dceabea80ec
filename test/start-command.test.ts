import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shippedServerArgs } from './support/app-process.ts';

describe('the shipped start command', () => {
  it('is the same for `npm start` and the Docker image', () => {
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(['node', ...shippedServerArgs()]);
  });

  it('starts Node with a small young generation (per-listener stream memory, decision 020)', () => {
    expect(shippedServerArgs()).toContain('--max-semi-space-size=1');
  });

  it('passes no other V8 flag: each one needs a paired bench on this Node (decision 016)', () => {
    expect(shippedServerArgs()).toEqual(['--max-semi-space-size=1', 'dist/server/main.js']);
  });
});
