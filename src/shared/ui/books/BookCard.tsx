import type { Book } from '../../content/books-types.ts';
import { BookCover } from './BookCover.tsx';
import { coverUrl } from './cover-fallback.ts';

/** One card, one link: the whole card opens the book's retailer page in a new tab. */
export function BookCard({ book, coverOrigin }: { book: Book; coverOrigin: string }) {
  return (
    <li className="book-card">
      <a className="book-card__link" href={book.url} target="_blank" rel="noopener noreferrer">
        <span className="book-card__cover">
          <BookCover url={coverUrl(coverOrigin, book.cover)} />
        </span>
        <span className="book-card__title">{book.title}</span>{' '}
        <span className="book-card__cta">
          View on Amazon<span className="visually-hidden"> (opens in a new tab)</span>
        </span>
      </a>
    </li>
  );
}
