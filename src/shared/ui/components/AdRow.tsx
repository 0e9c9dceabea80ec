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
        // A row is fixed content: its boxes never move or change places, so their index is a stable key.
        return item.kind === 'widget' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed content (above)
          <div key={i} className={`ad-row__widget ${className}`}>
            {widget}
          </div>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed content (above)
          <AdSlot key={i} ad={item} className={className} />
        );
      })}
    </div>
  );
}
