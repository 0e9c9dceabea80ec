import type { AdRowSpec } from '../../content/types.ts';
import { isDesktopOnly } from './ad-layout.ts';
import { AdSlot } from './AdSlot.tsx';
import { HouseWidget } from './HouseWidget.tsx';

/** Every box is rendered; CSS hides desktop-only ones on phones (see ad-layout.ts). */
export function AdRow({ row }: { row: AdRowSpec }) {
  return (
    <div className="ad-row">
      {row.items.map((item, i) => {
        const className = isDesktopOnly(row, i) ? 'ad-row__item--desktop' : '';
        return item.kind === 'widget' ? (
          <HouseWidget key={i} className={className} />
        ) : (
          <AdSlot key={i} ad={item} className={className} />
        );
      })}
    </div>
  );
}
