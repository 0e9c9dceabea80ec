import { describe, expect, it } from 'vitest';
import { fixedFileVariants } from './fixed-files.ts';

describe('fixedFileVariants', () => {
  const variantOf = fixedFileVariants(['/robots.txt', '/favicon.ico', '/images/og-image.png']);

  it('names the file another spelling is of', () => {
    for (const [spelling, file] of [
      ['/ROBOTS.TXT', '/robots.txt'],
      ['/Robots.txt/', '/robots.txt'],
      ['/robots%2Etxt', '/robots.txt'],
      ['/%72obots.txt', '/robots.txt'],
      ['//favicon.ico', '/favicon.ico'],
      ['/images//OG-image.png', '/images/og-image.png'],
    ]) {
      expect(variantOf(spelling!), spelling).toBe(file);
    }
  });

  it('leaves the file itself, other paths and malformed escapes alone', () => {
    for (const path of ['/robots.txt', '/favicon.ico', '/robots.txtx', '/about', '/', '/robots%E0.txt', '/%'])
      expect(variantOf(path), path).toBeUndefined();
  });
});
