import { PrefetchLink } from '../PrefetchLink.tsx';
import { useSite } from '../app-context.tsx';

/** The site's own pages beyond the front page, so each can be found from any page. */
const sitePages = [
  { to: '/radio', label: 'Radio' },
  { to: '/books', label: 'Books' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
  { to: '/careers', label: 'Careers' },
] as const;

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
        <section aria-labelledby="footer-pages">
          <h2 id="footer-pages" className="site-footer__heading">
            Pages
          </h2>
          <ul className="site-footer__links">
            {sitePages.map((p) => (
              <li key={p.to}>
                <PrefetchLink to={p.to}>{p.label}</PrefetchLink>
              </li>
            ))}
          </ul>
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
