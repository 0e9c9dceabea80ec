import { useEffect } from 'react';
import { PrefetchLink } from '../PrefetchLink.tsx';
import { notFoundAds } from '../../content/ads.ts';
import { AdRow } from '../components/AdRow.tsx';
import { useNavigation } from '../navigation.tsx';

export function NotFoundPage() {
  const { location } = useNavigation();
  useEffect(() => {
    // Spec §2: the missing path is logged to the console (the server logs it too).
    console.info(`404: no page at ${location.pathname}`);
  }, [location.pathname]);
  return (
    <main id="main" className="not-found container">
      <p className="not-found__code">404</p>
      <h1 className="not-found__title">Oops! Page not found</h1>
      <PrefetchLink to="/" className="button button--primary">
        Return to Home
      </PrefetchLink>
      <AdRow row={notFoundAds} />
    </main>
  );
}
