import type { PageEntry } from '../../pages.ts';
import { useSite } from '../app-context.tsx';

/** The link-preview card in public/ (drawn by scripts/generate-icons.ts). */
export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const;

/** Title and meta of a page. React 19 hoists these into <head>, on the server and on navigation. */
export function RouteHead({ page }: { page: PageEntry }) {
  const site = useSite();
  const title = page.id === 'home' ? `${site.masthead} — ${page.title}` : `${page.title} | ${site.masthead}`;
  const canonical = page.indexable ? `${site.url}${page.path}` : undefined;
  const ogImage = `${site.url}${OG_IMAGE.path}`;
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={page.description} />
      {canonical && <link rel="canonical" href={canonical} />}
      {!page.indexable && <meta name="robots" content="noindex" />}
      <meta property="og:site_name" content={site.masthead} />
      <meta property="og:type" content={page.id === 'home' ? 'website' : 'article'} />
      <meta property="og:title" content={page.title} />
      <meta property="og:description" content={page.description} />
      {canonical && <meta property="og:url" content={canonical} />}
      <meta property="og:image" content={ogImage} />
      <meta property="og:image:width" content={String(OG_IMAGE.width)} />
      <meta property="og:image:height" content={String(OG_IMAGE.height)} />
      <meta property="og:image:alt" content={site.masthead} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={page.title} />
      <meta name="twitter:description" content={page.description} />
    </>
  );
}
