import { PrefetchLink } from '../PrefetchLink.tsx';

/** Our own promo among the ads (Terms, desktop): the live radio. */
export function HouseWidget() {
  return (
    <div className="house-widget">
      <p className="ad-slot__label">From our station</p>
      <p className="house-widget__title">Live Radio, 24/7</p>
      <PrefetchLink to="/radio" className="button button--primary">
        Listen live
      </PrefetchLink>
    </div>
  );
}
