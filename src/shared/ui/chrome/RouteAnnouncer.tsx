import { useEffect, useRef, useState } from 'react';
import { useNavigation } from '../navigation.tsx';
import { afterNextPaint } from '../schedule.ts';

/**
 * A polite live region that says the new page's title once after each in-site navigation, as the
 * well-known router announcers do (a screen reader hears nothing of a page change otherwise). Mounted
 * with the router (src/client/router.tsx), empty: a first load is announced by the browser itself.
 */
export function RouteAnnouncer() {
  const { location, attempt } = useNavigation();
  const [message, setMessage] = useState('');
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page (or one tried again) is the trigger; the title is read after React has committed it.
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    // Once the page has painted: a second render in the tap's task would hold up its paint.
    return afterNextPaint(() => setMessage(document.title));
  }, [location.pathname, attempt]);
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {message}
    </div>
  );
}
