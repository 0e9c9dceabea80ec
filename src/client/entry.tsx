import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { BOOT_ELEMENT_ID, type BootData } from '../shared/boot.ts';
import { AppRoutes, matchPage, preloadPage } from '../shared/routes.tsx';
import { Document } from '../shared/ui/Document.tsx';
import './styles/index.css';

function readBoot(): BootData {
  const element = document.getElementById(BOOT_ELEMENT_ID);
  if (!element?.textContent) throw new Error('boot data missing');
  return JSON.parse(element.textContent) as BootData;
}

async function main(): Promise<void> {
  const boot = readBoot();
  // Load this page's module first, so the first client render equals the server's HTML.
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

void main();
