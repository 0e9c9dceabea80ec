import { useEffect, useRef, useState } from 'react';
import { PrefetchLink } from '../PrefetchLink.tsx';
import { formatLongDate } from '../../date.ts';
import { navSections } from '../../sections-nav.ts';
import { useApp } from '../app-context.tsx';
import { useNavigation } from '../navigation.tsx';
import { CloseIcon, MenuIcon, MoonIcon, SearchIcon, SunIcon } from './icons.tsx';

export function Header() {
  const { site, today, dark, toggleDark } = useApp();
  const { menuOpen, setMenuOpen, menuButton, nav } = useMobileMenu();
  const { pathname } = useNavigation().location;
  const onFrontPage = pathname === '/';

  return (
    <header className="site-header">
      <div className="site-header__bar container">
        <p className="site-header__date">
          <time dateTime={today}>{formatLongDate(today)}</time>
        </p>
        <div className="site-header__actions">
          <button
            type="button"
            className="icon-button"
            aria-pressed={dark}
            onClick={toggleDark}
            data-testid="theme-toggle"
          >
            {dark ? <SunIcon /> : <MoonIcon />}
            <span className="visually-hidden">Dark mode</span>
          </button>
          <button type="button" className="button button--primary">
            Subscribe
          </button>
          <button type="button" className="button button--ghost">
            Sign In
          </button>
        </div>
      </div>

      <div className="site-header__brand container">
        <PrefetchLink to="/" className="masthead">
          {site.masthead}
        </PrefetchLink>
        <p className="site-header__tagline">{site.tagline}</p>
      </div>

      <nav className="site-nav" aria-label="Sections" ref={nav}>
        <div className="site-nav__inner container">
          <button
            ref={menuButton}
            type="button"
            className="site-nav__menu-button icon-button"
            aria-expanded={menuOpen}
            aria-controls="mobile-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
            <span className="visually-hidden">Menu</span>
          </button>
          <ul className="site-nav__list site-nav__list--desktop">
            {navSections.map((s) => (
              <li key={s.anchor}>
                <SectionLink anchor={s.anchor} label={s.label} onFrontPage={onFrontPage} />
              </li>
            ))}
          </ul>
          <PrefetchLink
            to="/radio"
            className="site-nav__live"
            aria-current={pathname === '/radio' ? 'page' : undefined}
            data-testid="listen-live"
          >
            Listen live
          </PrefetchLink>
          <button type="button" className="icon-button site-nav__search">
            <SearchIcon />
            <span className="visually-hidden">Search</span>
          </button>
        </div>
        <ul id="mobile-nav" className="site-nav__list site-nav__list--mobile container" hidden={!menuOpen}>
          {navSections.map((s) => (
            <li key={s.anchor}>
              <SectionLink
                anchor={s.anchor}
                label={s.label}
                onFrontPage={onFrontPage}
                onClick={() => setMenuOpen(false)}
              />
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

/**
 * The phone's section menu: the button opens and closes it; Escape closes it and gives the focus
 * back to the button; a tap or click outside the navigation closes it.
 */
function useMobileMenu() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [menuOpen]);
  return { menuOpen, setMenuOpen, menuButton, nav };
}

interface SectionLinkProps {
  anchor: string;
  label: string;
  onFrontPage: boolean;
  onClick?: () => void;
}

/**
 * A section of the front page: an in-page anchor there, elsewhere a client-side navigation to
 * /#section (the router's scroll handling then moves to the section and focuses it).
 */
function SectionLink({ anchor, label, onFrontPage, onClick }: SectionLinkProps) {
  return onFrontPage ? (
    <a href={`#${anchor}`} onClick={onClick}>
      {label}
    </a>
  ) : (
    <PrefetchLink to={`/#${anchor}`} onClick={onClick}>
      {label}
    </PrefetchLink>
  );
}
