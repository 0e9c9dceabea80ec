import { describe, expect, it } from 'vitest';
import { pathOf, queryOf } from './request-target.ts';

describe('a request target split into path and query', () => {
  it.each([
    ['/', '/', null],
    ['/radio', '/radio', null],
    ['/radio?', '/radio', ''],
    ['/api/stream?port=8076', '/api/stream', 'port=8076'],
    ['/a?b?c', '/a', 'b?c'],
    ['/%3F?x', '/%3F', 'x'],
    ['http://example.com/api/stream?port=8076', '/api/stream', 'port=8076'],
    ['http://example.com', '/', null],
    ['http://example.com?port=1', '/', 'port=1'],
    ['*', '*', null],
  ])('%s: path %s, query %s', (target, path, query) => {
    expect(pathOf(target)).toBe(path);
    expect(queryOf(target)).toBe(query);
  });
});
