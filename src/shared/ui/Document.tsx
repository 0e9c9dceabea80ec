import type { ReactNode } from 'react';
import { BOOT_ELEMENT_ID, STYLES_ELEMENT_ID, serializeForScript, type BootData } from '../boot.ts';
import { AppProvider, useApp } from './app-context.tsx';
import { OrganizationJsonLd } from './chrome/OrganizationJsonLd.tsx';

interface DocumentProps {
  boot: BootData;
  /**
   * The site's CSS, inlined so the first paint waits for no second request (decision 044): the
   * server's from the build, the browser's read back from the document before hydrating.
   */
  styles: string;
  children: ReactNode;
}

/**
 * The whole HTML document, rendered by React on the server and hydrated as
 * `document` on the client. Page titles and meta tags are rendered by
 * RouteHead inside each page; React hoists them into <head>.
 */
export function Document({ boot, styles, children }: DocumentProps) {
  return (
    <AppProvider site={boot.site} today={boot.today} streamPort={boot.streamPort}>
      <Html boot={boot} styles={styles}>
        {children}
      </Html>
    </AppProvider>
  );
}

function Html({ boot, styles, children }: DocumentProps) {
  const { dark } = useApp();
  const { assets } = boot;
  return (
    <html lang="en" className={dark ? 'dark' : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Follows the page's own theme toggle (light first, as on the server), not the OS setting. */}
        <meta name="theme-color" content={dark ? '#121212' : '#ffffff'} />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <link rel="manifest" href="/manifest.webmanifest" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the build's own CSS; it checks there is no "</style" in it. */}
        <style id={STYLES_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: styles }} />
        {/* The loader: it fetches assets.preload (the app) once the page has painted. */}
        <script type="module" src={assets.entry} />
        <OrganizationJsonLd site={boot.site} />
      </head>
      <body>
        {children}
        <script
          type="application/json"
          id={BOOT_ELEMENT_ID}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON, not HTML; serializeForScript escapes "<" so it cannot close the element.
          dangerouslySetInnerHTML={{ __html: serializeForScript(boot) }}
        />
      </body>
    </html>
  );
}
