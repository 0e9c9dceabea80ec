/**
 * A scroll position as the reader sees it: the element at the top of the viewport and how far above
 * the top it starts, rather than a distance from the document's top. The front page lays out its
 * lower blocks only as they near the screen (`content-visibility: auto`, decision 048): until then
 * they have estimated sizes, so the same distance from the top can show another part of the page
 * once they are laid out (after a jump past them: the End key, a dragged scroll bar, find in page).
 */

/** The element, as child indices from <main> (the same page renders the same tree), and its top. */
export interface ScrollAnchor {
  path: number[];
  /** Its top relative to the viewport's (≤ 0 when the viewport starts inside it). */
  top: number;
}

/** How deep the search goes: the blocks of a page and their rows are precise enough. */
const MAX_DEPTH = 4;

/** The deepest element (within MAX_DEPTH) under <main> that spans the viewport's top edge. */
export function viewportAnchor(): ScrollAnchor | undefined {
  let element = document.getElementById('main');
  if (!element) return undefined;
  const path: number[] = [];
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const index = [...element.children].findIndex((child) => {
      const box = child.getBoundingClientRect();
      return box.top <= 0 && box.bottom > 0;
    });
    if (index < 0) break;
    path.push(index);
    element = element.children[index] as HTMLElement;
  }
  return { path, top: element.getBoundingClientRect().top };
}

/** Scrolls so that the anchor's element is where it was on the screen; false when it is not there. */
export function scrollToAnchor({ path, top }: ScrollAnchor): boolean {
  let element: Element | null | undefined = document.getElementById('main');
  for (const index of path) element = element?.children[index];
  if (!element) return false;
  window.scrollBy(0, element.getBoundingClientRect().top - top);
  return true;
}
