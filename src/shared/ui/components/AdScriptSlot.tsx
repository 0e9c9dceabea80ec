import { useEffect, useRef } from 'react';
import { afterNextPaint } from '../schedule.ts';
import { useSite } from '../app-context.tsx';

/**
 * Whether the layout shows the container. checkVisibility() needs only styles; getClientRects()
 * (the fallback) lays the page out, and each slot's script insertion would make the next slot lay
 * it out again: on a phone that was ~50 ms of a tap on a link to /terms (issue 12).
 */
const displayed = (element: HTMLElement) =>
  typeof element.checkVisibility === 'function' ? element.checkVisibility() : element.getClientRects().length > 0;

/**
 * A container for the ad network's script (spec §4): on mount it is cleared and
 * the script inserted again (from an effect: the CSP forbids inline scripts and
 * first render never waits); on unmount cleared. It renders empty with 250 px
 * reserved in CSS, so nothing moves when the ad fills or fails. A container the
 * layout hides (display: none on phones) loads nothing. The script goes in after
 * the page has painted.
 */
export function AdScriptSlot({ bannerId }: { bannerId: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const { adScriptUrl } = useSite();
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    container.replaceChildren();
    // After the page has painted: on a tap to another page, the ad waits for the page, not the reverse.
    const cancel = afterNextPaint(() => {
      if (!displayed(container)) return;
      const script = document.createElement('script');
      script.src = adScriptUrl;
      script.async = true;
      script.dataset.bannerId = String(bannerId);
      container.append(script);
    });
    return () => {
      cancel();
      container.replaceChildren();
    };
  }, [adScriptUrl, bannerId]);
  return <div ref={ref} className="ad-script" data-banner-id={bannerId} />;
}
