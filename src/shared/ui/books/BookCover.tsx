import { useEffect, useRef, useState } from 'react';
import { afterCoverError, coverSrc, failedBeforeListening, type CoverState } from './cover-fallback.ts';

/**
 * A lazy-loaded, low-priority cover in a 3:4 box (the box is reserved in CSS). The first
 * render is the same on server and client; the fallback only changes state
 * after mount. Decorative: the card's title names the link.
 */
export function BookCover({ url }: { url: string }) {
  const ref = useRef<HTMLImageElement>(null);
  const [state, setState] = useState<CoverState>('cover');

  useEffect(() => {
    // React does not replay an error that fired before hydration: look for one now.
    const img = ref.current;
    if (img && failedBeforeListening(img)) {
      const failed = img.getAttribute('src');
      setState((s) => afterCoverError(s, failed));
    }
  }, []);

  return (
    <img
      ref={ref}
      className="book-card__image"
      src={coverSrc(state, url)}
      alt=""
      width={300}
      height={400}
      loading="lazy"
      // Low: a cover in the first screen must not take the network from the page's own text,
      // code and the other covers' neighbours; Chromium otherwise raises in-view images to high.
      fetchPriority="low"
      decoding="async"
      data-cover={state}
      onError={(event) => {
        const failed = event.currentTarget.getAttribute('src');
        setState((s) => afterCoverError(s, failed));
      }}
    />
  );
}
