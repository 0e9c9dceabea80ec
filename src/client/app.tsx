/**
 * The app: imported by the loader (entry.tsx) after the first paint, it hydrates the server's
 * document; the first client render equals the server's HTML. It needs no router: the boot data
 * names the page, and react-router arrives after hydration (client-navigation.tsx, decision 043).
 */
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BOOT_ELEMENT_ID, STYLES_ELEMENT_ID, type BootData } from '../shared/boot.ts';
import { preloadPage } from '../shared/page-modules.ts';
import { Document } from '../shared/ui/Document.tsx';
import { Site } from '../shared/ui/Site.tsx';
import { ClientNavigation } from './client-navigation.tsx';
import { knowPageDependencies } from './page-files.ts';
import './styles/index.css';

function readBoot(): BootData {
  const element = document.getElementById(BOOT_ELEMENT_ID);
  if (!element?.textContent) throw new Error('boot data missing');
  return JSON.parse(element.textContent) as BootData;
}

async function hydrate(): Promise<void> {
  const boot = readBoot();
  knowPageDependencies(boot.assets.pageDependencies);
  // This page's module first (the loader imports it alongside), so nothing suspends.
  await preloadPage(boot.page);
  // The server inlined the CSS; hydration renders the same text, read back, not shipped in the JS.
  const styles = document.getElementById(STYLES_ELEMENT_ID)?.textContent ?? '';
  // As a transition, so React hydrates in slices of a few ms and lets the browser in between: at
  // the default priority it hydrates the whole document in one task (a long task on a phone). A
  // tap on a part not hydrated yet makes React finish at once and then handle it (decision 048).
  startTransition(() => {
    hydrateRoot(
      document,
      <Document boot={boot} styles={styles}>
        <ClientNavigation page={boot.page}>
          <Site />
        </ClientNavigation>
      </Document>,
    );
  });
}

void hydrate();
