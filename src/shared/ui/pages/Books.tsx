import { PrefetchLink } from '../PrefetchLink.tsx';
import { books } from '../../content/books.ts';
import { useSite } from '../app-context.tsx';
import { BookCard } from '../books/BookCard.tsx';
import { UniversityPromo } from '../books/UniversityPromo.tsx';

/** /books (spec §2): the university promotion, then the grid of the author's books at the retailer. */
export function BooksPage() {
  const { authorRetailerUrl, bookCoverOrigin } = useSite();
  return (
    <div className="container page books-page">
      <p className="books-page__back">
        <PrefetchLink to="/">
          <span aria-hidden="true">← </span>Back to Home
        </PrefetchLink>
      </p>

      <UniversityPromo />

      <section className="books" aria-labelledby="books-title">
        <div className="books__intro">
          <div>
            <h1 id="books-title">Books</h1>
            <p>
              Practical books on spiritual growth, mindful wealth and inner peace, plus a classic on the science of
              breath. Choose a book to see it at the retailer, or browse the author’s full catalogue there.
            </p>
          </div>
          <a className="button button--primary" href={authorRetailerUrl} target="_blank" rel="noopener noreferrer">
            View All Books<span className="visually-hidden"> on Amazon (opens in a new tab)</span>
          </a>
        </div>
        <ul className="books-grid">
          {books.map((book) => (
            <BookCard key={book.url} book={book} coverOrigin={bookCoverOrigin} />
          ))}
        </ul>
      </section>
    </div>
  );
}
