import { describe, expect, it } from 'vitest';
import { titleText } from './title-text.ts';

describe('titleText', () => {
  it('removes invisible letters as format characters: U+3164, U+115F, U+2800, U+034F', () => {
    expect(titleText('Morning\u3164Show')).toBe('MorningShow');
    expect(titleText('\u115F\u115FNews')).toBe('News');
    expect(titleText('Jazz\u2800\u2800\u2800')).toBe('Jazz');
    expect(titleText('Blu\u034Fes')).toBe('Blues');
    // A title of nothing but them is no title.
    expect(titleText('\u3164\u115F\u2800\u034F\u1160\uFFA0')).toBeNull();
  });

  it('keeps variation selectors, which choose how an emoji is drawn', () => {
    expect(titleText('Love \u2764\uFE0F Songs')).toBe('Love \u2764\uFE0F Songs');
  });
});
