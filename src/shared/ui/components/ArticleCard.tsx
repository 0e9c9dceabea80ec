import type { Article } from '../../content/types.ts';

/**
 * A story card. Featured: text left, image right at 16:9 (stacked on phones);
 * others: image above at 4:3. Without an image the text simply fills the card.
 * The image box is sized by width/height and aspect-ratio before it loads. The figure comes first
 * in the document, as it comes first on a phone: a slow phone paints the HTML as it parses it, and
 * a caption parsed after the text above which it is shown would push that text down (issue 21).
 * `kicker` shows the category above the title (off where a section heading already names it).
 */
export function ArticleCard({
  article,
  level = 3,
  credit,
  kicker = true,
}: {
  article: Article;
  level?: 2 | 3;
  credit?: string;
  kicker?: boolean;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const featured = article.featured === true;
  return (
    <article className={featured ? 'card card--featured' : 'card'}>
      {article.imageUrl && (
        <figure className="card__media">
          <img
            src={article.imageUrl}
            alt=""
            width={featured ? 640 : 400}
            height={featured ? 360 : 300}
            loading={featured ? 'eager' : 'lazy'}
            decoding="async"
          />
          {credit && <figcaption className="card__credit">{credit}</figcaption>}
        </figure>
      )}
      <div className="card__body">
        {kicker && <p className="card__category">{article.category}</p>}
        <Heading className="card__title">{article.title}</Heading>
        <p className="card__excerpt">{article.excerpt}</p>
        <p className="card__meta">
          By {article.author} · {article.date}
        </p>
      </div>
    </article>
  );
}
