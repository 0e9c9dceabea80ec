// The harness reads a server's log in chunks (a load run's log outgrows V8's longest string): every
// complete line comes back whole, even one split across chunks in the middle of a character.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { forEachCompleteLine } from './support/app-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'log-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('lines across 1 MiB chunks come back whole; a last line without its newline is left out', () => {
  // 3,000 lines of 1,000 bytes each, with a two-byte character that lands on chunk edges.
  const lines = Array.from({ length: 3000 }, (_, i) => `${String(i).padStart(6, '0')} ${'é'.repeat(496)}x`);
  const file = join(dir, 'server.log');
  writeFileSync(file, `${lines.join('\n')}\n{"partial":`);
  const read: string[] = [];
  forEachCompleteLine(file, (line) => read.push(line));
  expect(read.length).toBe(lines.length);
  expect(read.every((line, i) => line === lines[i])).toBe(true);
});
