import { pageById } from '../../pages.ts';

// Placeholder until the page's content lands (issue 3 / issue 4).
export function BooksPage() {
  const page = pageById('books');
  return (
    <div className="container page">
      <h1>{page.title}</h1>
    </div>
  );
}
