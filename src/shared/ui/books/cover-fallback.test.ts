import { describe, expect, it } from 'vitest';
import {
  afterCoverError,
  COVER_PLACEHOLDER,
  coverSrc,
  coverUrl,
  failedBeforeListening,
  type CoverState,
} from './cover-fallback.ts';

const COVER = 'https://covers.example.com/images/B0BILL0001.jpg';

/** Feeds errors the way the <img> reports them: each for the src it was showing. */
function run(errors: number): { state: CoverState; srcs: string[] } {
  let state: CoverState = 'cover';
  const srcs = [coverSrc(state, COVER)];
  for (let i = 0; i < errors; i++) {
    state = afterCoverError(state, coverSrc(state, COVER));
    const src = coverSrc(state, COVER);
    if (src !== srcs.at(-1)) srcs.push(src);
  }
  return { state, srcs };
}

describe('cover fallback', () => {
  it('a failed cover is replaced by the local placeholder', () => {
    expect(afterCoverError('cover', COVER)).toBe('placeholder');
    expect(coverSrc('placeholder', COVER)).toBe(COVER_PLACEHOLDER);
    expect(COVER_PLACEHOLDER.startsWith('/')).toBe(true);
  });

  it('is applied once: a failing placeholder ends the chain, never looping', () => {
    const { state, srcs } = run(50);
    expect(state).toBe('none');
    // Exactly two images ever requested: the cover, then the placeholder.
    expect(srcs).toEqual([COVER, COVER_PLACEHOLDER]);
    expect(coverSrc('none', COVER)).toBe(COVER_PLACEHOLDER);
  });

  it('ignores a stale cover error once the placeholder shows (mount check and event racing)', () => {
    expect(afterCoverError('placeholder', COVER)).toBe('placeholder');
    expect(afterCoverError('none', COVER)).toBe('none');
    expect(afterCoverError('none', COVER_PLACEHOLDER)).toBe('none');
    // A placeholder error cannot arrive while the cover shows, and must not skip the placeholder.
    expect(afterCoverError('cover', COVER_PLACEHOLDER)).toBe('cover');
  });

  it('treats an error without a src as the cover failing', () => {
    expect(afterCoverError('cover', null)).toBe('placeholder');
  });

  it('detects a load that failed before React listened', () => {
    expect(failedBeforeListening({ complete: true, naturalWidth: 0 })).toBe(true);
    // Loaded fine.
    expect(failedBeforeListening({ complete: true, naturalWidth: 300 })).toBe(false);
    // Lazy image not started yet, or still loading: its error event will reach React.
    expect(failedBeforeListening({ complete: false, naturalWidth: 0 })).toBe(false);
  });

  it('joins the configured origin and the data path', () => {
    expect(coverUrl('https://covers.example.com', '/images/x.jpg')).toBe('https://covers.example.com/images/x.jpg');
    expect(coverUrl('https://covers.example.com/', 'images/x.jpg')).toBe('https://covers.example.com/images/x.jpg');
  });
});
