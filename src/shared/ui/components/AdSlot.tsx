import { adLabels } from '../../content/ads.ts';
import type { AdSpec } from '../../content/types.ts';
import { useSite } from '../app-context.tsx';
import { AdScriptSlot } from './AdScriptSlot.tsx';

/** A sponsor box with its label and link (generic ones go to #), its height reserved before anything loads. */
export function AdSlot({ ad, className = '' }: { ad: AdSpec; className?: string }) {
  const { sponsors } = useSite();
  const sponsor = ad.type === 'generic' ? null : sponsors[ad.type];
  return (
    <div
      className={`ad-slot ad-slot--${ad.type} ad-slot--h${ad.height}${className && ` ${className}`}`}
      data-ad-type={ad.type}
    >
      <p className="ad-slot__label">{adLabels[ad.type]}</p>
      {sponsor ? (
        <a className="ad-slot__link" href={sponsor.url} target="_blank" rel="noopener noreferrer sponsored">
          {sponsor.name}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : (
        // biome-ignore lint/a11y/useValidAnchor: a placeholder like the spec's other unbuilt links (no advertising page yet).
        <a className="ad-slot__link" href="#">
          Advertise with us
        </a>
      )}
      {ad.bannerId !== undefined && <AdScriptSlot bannerId={ad.bannerId} />}
    </div>
  );
}
