/**
 * The site inside the document, one tree for the server's render, the hydration and every later
 * navigation: the radio's player above every page (the not-found page too, so navigating never
 * silences it), the frame (header and footer) where the page has one, and the page the navigation
 * context names. A navigation re-renders the page region only; the frame and the player stay
 * mounted; a page that cannot load or throws shows an error inside the frame (PageErrorBoundary).
 * In the browser a navigation is a transition (client-navigation.tsx): the old page stays
 * until the new one can render, at once when its chunk was prefetched (PrefetchLink). Where a
 * navigation lands (scroll, focus, announcement) is the router chunk's (router.tsx): no navigation
 * happens before it, and the first load carries none of it.
 */
import { Suspense, use } from 'react';
import { loadedPage, pageLoad } from '../page-modules.ts';
import { pageById, type PageId } from '../pages.ts';
import { NavigationProgress } from './chrome/NavigationProgress.tsx';
import { PageErrorBoundary } from './chrome/PageErrorBoundary.tsx';
import { RouteHead } from './chrome/RouteHead.tsx';
import { SiteLayout } from './chrome/SiteLayout.tsx';
import { useNavigation } from './navigation.tsx';
import { PlayerBarSlot } from './radio/PlayerBarSlot.tsx';
import { PlayerProvider } from './radio/PlayerProvider.tsx';

export function Site() {
  const { page, location, attempt } = useNavigation();
  const content = (
    <PageErrorBoundary resetKey={`${location.pathname} ${attempt}`}>
      <Suspense>
        <Page id={page} />
      </Suspense>
    </PageErrorBoundary>
  );
  return (
    <PlayerProvider>
      {pageById(page).chrome ? <SiteLayout>{content}</SiteLayout> : content}
      <PlayerBarSlot />
      <NavigationProgress />
    </PlayerProvider>
  );
}

function Page({ id }: { id: PageId }) {
  const Component = loadedPage(id) ?? use(pageLoad(id));
  return (
    <>
      <RouteHead page={pageById(id)} />
      <Component />
    </>
  );
}
