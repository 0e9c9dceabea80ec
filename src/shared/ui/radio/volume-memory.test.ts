import { describe, expect, it } from 'vitest';
import { parseStoredVolume } from './volume-memory.ts';

describe('the remembered volume', () => {
  it('reads a stored volume from 0 to 1', () => {
    expect(parseStoredVolume('0.35')).toBe(0.35);
    expect(parseStoredVolume('0')).toBe(0);
    expect(parseStoredVolume('1')).toBe(1);
  });

  it('ignores nothing stored and anything that is not a volume', () => {
    for (const text of [null, '', ' ', 'loud', '1.5', '-0.1', 'NaN', 'Infinity', '0x1']) {
      expect(parseStoredVolume(text)).toBeNull();
    }
  });
});
