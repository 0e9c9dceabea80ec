import { useEffect, useRef } from 'react';
import { useSite } from '../app-context.tsx';

/**
 * A container for the ad network's script (spec §4): on mount it is cleared and
 * the script inserted again (from an effect: the CSP forbids inline scripts and
 * first render never waits); on unmount cleared. It renders empty with 250 px
 * reserved in CSS, so nothing moves when the ad fills or fails. A container the
 * layout hides (display: none on phones) loads nothing.
 */
export function AdScriptSlot({ bannerId }: { bannerId: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const { adScriptUrl } = useSite();
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    container.replaceChildren();
    if (container.getClientRects().length > 0) {
      const script = document.createElement('script');
      script.src = adScriptUrl;
      script.async = true;
      script.dataset.bannerId = String(bannerId);
      container.append(script);
    }
    return () => container.replaceChildren();
  }, [adScriptUrl, bannerId]);
  return <div ref={ref} className="ad-script" data-banner-id={bannerId} />;
}
