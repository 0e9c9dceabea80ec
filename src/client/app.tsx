/**
 * The app: imported by the loader (entry.tsx) after the first paint, it hydrates the server's
 * document; the first client render equals the server's HTML.
 */
import { hydrateRoot } from 'react-dom/client';
import { BOOT_ELEMENT_ID, type BootData } from '../shared/boot.ts';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes, matchPage, preloadPage } from '../shared/routes.tsx';
import { Document } from '../shared/ui/Document.tsx';
import './styles/index.css';

function readBoot(): BootData {
  const element = document.getElementById(BOOT_ELEMENT_ID);
  if (!element?.textContent) throw new Error('boot data missing');
  return JSON.parse(element.textContent) as BootData;
}

async function hydrate(): Promise<void> {
  const boot = readBoot();
  // This page's module first (the loader imports it alongside), so nothing suspends.
  await preloadPage(matchPage(window.location.pathname).id);
  hydrateRoot(
    document,
    <Document boot={boot}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Document>,
  );
}

void hydrate();
