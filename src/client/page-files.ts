/**
 * A page's code in one round trip. A page's chunk imports a few shared chunks (the legal pages' view,
 * say), which the browser would only ask for once the page's chunk had arrived: one more round trip,
 * long on a slow connection. The boot data lists them per page (from the build's manifest), and they
 * are asked for together with the page's chunk.
 */
import type { ComponentType } from 'react';
import type { PageAssets } from '../shared/boot.ts';
import { loadedPage, preloadPage } from '../shared/page-modules.ts';
import { pageById, type PageId } from '../shared/pages.ts';

let dependencies: PageAssets['pageDependencies'] = {};

/** From the boot data, once, before the first navigation. */
export function knowPageDependencies(map: PageAssets['pageDependencies']): void {
  dependencies = map;
}

/** Loads a page's module (page-modules.ts) with every chunk it imports, all at once. */
export function fetchPage(id: PageId): Promise<ComponentType> {
  if (!loadedPage(id)) {
    // Its failure is the page's own import's (which imports the same URL), handled by the caller.
    for (const url of dependencies[pageById(id).module] ?? []) import(url).catch(() => {});
  }
  return preloadPage(id);
}
