import { useEffect, useRef } from 'react';
import { useSite } from '../app-context.tsx';
import { appendScript } from './external-script.ts';

/**
 * A container for the ad network's script (spec §4): on mount it is cleared and
 * the script inserted again; on unmount cleared. It renders empty, with 250 px
 * reserved in CSS, so the first render never waits and nothing moves when the
 * ad fills or fails. A container hidden by the layout (display: none) loads nothing.
 */
export function AdScriptSlot({ bannerId }: { bannerId: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const { adScriptUrl } = useSite();
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    container.replaceChildren();
    if (container.getClientRects().length > 0) appendScript(container, adScriptUrl, { bannerId: String(bannerId) });
    return () => container.replaceChildren();
  }, [adScriptUrl, bannerId]);
  return <div ref={ref} className="ad-script" data-banner-id={bannerId} />;
}
