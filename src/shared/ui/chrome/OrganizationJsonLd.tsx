import { serializeForScript } from '../../boot.ts';
import type { SiteConfig } from '../../site.ts';

/**
 * schema.org description of the publication for search engines. The sister
 * sites are other publications of the same network, so they are listed as the
 * network's sub-organisations rather than as `sameAs` (which would claim they
 * are this publication).
 */
export function organizationJsonLd(site: SiteConfig): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsMediaOrganization',
    '@id': `${site.url}/#organization`,
    name: site.masthead,
    url: `${site.url}/`,
    description: site.tagline,
    logo: { '@type': 'ImageObject', url: `${site.url}/icon-512.png`, width: 512, height: 512 },
    parentOrganization: {
      '@type': 'Organization',
      name: site.networkName,
      subOrganization: site.sisterSites.map((s) => ({ '@type': 'NewsMediaOrganization', name: s.name, url: s.url })),
    },
  };
}

/**
 * The JSON-LD block. `type="application/ld+json"` is data, never executed, so
 * the CSP (no inline scripts) does not apply to it; the JSON is escaped so it
 * cannot close the element. Built from the site config alone, it renders the
 * same on the server and the client.
 */
export function OrganizationJsonLd({ site }: { site: SiteConfig }) {
  return (
    <script
      type="application/ld+json"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON, not HTML; serializeForScript escapes "<" so it cannot close the element.
      dangerouslySetInnerHTML={{ __html: serializeForScript(organizationJsonLd(site)) }}
    />
  );
}
