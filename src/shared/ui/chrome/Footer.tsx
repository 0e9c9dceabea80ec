import { PrefetchLink } from '../PrefetchLink.tsx';
import { useSite } from '../app-context.tsx';

export function Footer() {
  const site = useSite();
  return (
    <footer className="site-footer">
      <div className="site-footer__grid container">
        <section aria-labelledby="footer-brand">
          <h2 id="footer-brand" className="site-footer__heading">
            {site.masthead}
          </h2>
          <p>
            Independent, reader-supported journalism for Chicago and its neighborhoods. Part of the {site.networkName}.
          </p>
        </section>
        <section aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="site-footer__heading">
            Legal
          </h2>
          <ul className="site-footer__links">
            <li>
              <PrefetchLink to="/privacy">Privacy Policy</PrefetchLink>
            </li>
            <li>
              <PrefetchLink to="/terms">Terms of Service</PrefetchLink>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-support">
          <h2 id="footer-support" className="site-footer__heading">
            Support Our Work
          </h2>
          <p>Quality local journalism depends on readers like you.</p>
          {/* biome-ignore lint/a11y/useValidAnchor: the spec's Subscribe Now link goes nowhere (no subscription flow yet). */}
          <a href="#" className="button button--primary">
            Subscribe Now
          </a>
        </section>
      </div>
      <div className="site-footer__bottom container">
        <p>© 2025 {site.masthead}. All rights reserved.</p>
        <ul className="site-footer__sisters" aria-label={`${site.networkName} sites`}>
          {site.sisterSites.map((s) => (
            <li key={s.url}>
              <a href={s.url} target="_blank" rel="noopener noreferrer">
                {s.name}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
