import { useRef } from 'react';
import {
  homeBottomAds,
  homeQuote,
  homeSearchAd,
  homeSections,
  homeSponsorAd,
  homeTopAds,
  leadArticle,
} from '../../content/home.ts';
import { useSite } from '../app-context.tsx';
import { AdRow } from '../components/AdRow.tsx';
import { AdSlot } from '../components/AdSlot.tsx';
import { ArticleCard } from '../components/ArticleCard.tsx';
import { DonationPopup } from '../components/DonationPopup.tsx';
import { PullQuote } from '../components/PullQuote.tsx';
import { SupportPanel } from '../components/SupportPanel.tsx';
import { useNearViewport } from '../use-near-viewport.ts';

/**
 * The imageboard's frame (spec: 1600 px high), created as it nears the screen rather than by the
 * parser: even a `loading="lazy"` frame gets its document and window when the parser meets it, and
 * on a phone that cost ~35 ms of the main thread in the page load, for a frame far down the page
 * (decision 048). Its box is the same empty block until then, so nothing moves when it comes;
 * the note above it links the feed for readers without scripts.
 */
function ImageboardFrame({ url }: { url: string }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box, '600px 0px');
  return near ? (
    <iframe className="imageboard__frame" src={url} title="News Imageboard feed" height={1600} />
  ) : (
    <div ref={box} className="imageboard__frame" />
  );
}

/** The front page, in the spec's order (§2 Home). */
export function HomePage() {
  const site = useSite();
  return (
    <div className="container page home">
      <h1 className="visually-hidden">Today’s front page</h1>
      <ArticleCard article={leadArticle} level={2} credit={leadArticle.photoCredit} />
      <AdSlot ad={homeSearchAd} className="home__search-ad" />
      <AdRow row={homeTopAds} />
      <div className="section-grid">
        {homeSections.map((s) => (
          <section key={s.id} id={s.id} className="home-section" aria-labelledby={`${s.id}-title`} tabIndex={-1}>
            <h2 id={`${s.id}-title`} className="home-section__title">
              {s.title}
            </h2>
            {s.articles.map((a) => (
              <ArticleCard key={a.title} article={a} kicker={false} />
            ))}
          </section>
        ))}
      </div>
      <AdRow row={homeBottomAds} />
      <PullQuote quote={homeQuote} />
      <section className="imageboard" aria-labelledby="imageboard-title">
        <h2 id="imageboard-title">News Imageboard</h2>
        {/* A third party's frame shows nothing of its own when it cannot load: say what belongs here. */}
        <p className="embed-note">
          {'Pictures from around the city, posted by readers. If the feed does not appear, '}
          <a href={site.imageboardUrl}>open the News Imageboard</a>.
        </p>
        <ImageboardFrame url={site.imageboardUrl} />
      </section>
      <AdSlot ad={homeSponsorAd} />
      <SupportPanel
        title="Support Independent Journalism"
        text="Local reporting takes time and money. Your support keeps our newsroom independent and our journalism free for all."
        subscribeLabel="Subscribe for $1/week"
      />
      <DonationPopup />
    </div>
  );
}
