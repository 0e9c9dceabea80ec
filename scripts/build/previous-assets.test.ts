import { describe, expect, it } from 'vitest';
import { retainedAssets } from './previous-assets.ts';

const now = new Date('2026-11-25T12:00:00Z');

describe('retainedAssets', () => {
  it('keeps the previous build’s files the next one lacks, from now', () => {
    const kept = retainedAssets(['a-1.js', 'a-1.js.br', 'a-1.js.gz', 'b-1.js'], new Set(['b-1.js']), {}, now);
    expect(kept).toEqual({ 'a-1.js': now.toISOString() });
  });

  it('keeps a file retired earlier with its first retirement time, until the seventh day', () => {
    const sixDays = '2026-11-19T12:00:01Z';
    const sevenDays = '2026-11-18T12:00:00Z';
    const kept = retainedAssets(['old.js', 'older.js'], new Set(), { 'old.js': sixDays, 'older.js': sevenDays }, now);
    expect(kept).toEqual({ 'old.js': sixDays });
  });

  it('forgets a retired file the new build has again', () => {
    expect(retainedAssets(['a.js'], new Set(['a.js']), { 'a.js': now.toISOString() }, now)).toEqual({});
  });
});
