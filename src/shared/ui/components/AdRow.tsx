import type { ReactNode } from 'react';
import type { AdRowSpec } from '../../content/types.ts';
import { isDesktopOnly } from './ad-layout.ts';
import { AdSlot } from './AdSlot.tsx';

/**
 * Every box is rendered; CSS hides desktop-only ones on phones (see ad-layout.ts).
 * `widget` fills the row's house-widget places (the caller imports it, so pages without one don't ship it).
 */
export function AdRow({ row, widget }: { row: AdRowSpec; widget?: ReactNode }) {
  return (
    <div className="ad-row">
      {row.items.map((item, i) => {
        const className = isDesktopOnly(row, i) ? 'ad-row__item--desktop' : '';
        return item.kind === 'widget' ? (
          <div key={i} className={`ad-row__widget ${className}`}>
            {widget}
          </div>
        ) : (
          <AdSlot key={i} ad={item} className={className} />
        );
      })}
    </div>
  );
}
