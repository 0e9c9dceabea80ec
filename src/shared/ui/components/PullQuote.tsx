import type { Quote } from '../../content/types.ts';

export function PullQuote({ quote }: { quote: Quote }) {
  return (
    <figure className="pull-quote">
      <blockquote>
        <p>{quote.text}</p>
      </blockquote>
      {quote.author && <figcaption>— {quote.author}</figcaption>}
    </figure>
  );
}
