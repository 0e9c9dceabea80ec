import { describe, expect, it } from 'vitest';
import { books } from './books.ts';

describe('books data', () => {
  it('has 45 books, each with a retailer product link and a cover path', () => {
    expect(books).toHaveLength(45);
    for (const book of books) {
      expect(book.title.trim().length).toBeGreaterThan(5);
      expect(book.url).toMatch(/^https:\/\/www\.amazon\.com\/dp\/[A-Z0-9]{10}$/);
      // Only the path: the origin is configuration (site.bookCoverOrigin).
      expect(book.cover).toMatch(/^\/images\/[A-Z0-9]{10}\.jpg$/);
    }
  });

  it('has no duplicate titles, links or covers', () => {
    for (const key of ['title', 'url', 'cover'] as const) {
      expect(new Set(books.map((b) => b[key])).size).toBe(books.length);
    }
  });

  it('is the billionaire-themed series plus one classic breath-science reprint', () => {
    const others = books.filter((b) => !b.title.startsWith('The Billionaire '));
    expect(others).toHaveLength(1);
    expect(others[0]!.title).toMatch(/breath/i);
    expect(others[0]!.title).toMatch(/reprint/i);
  });
});
