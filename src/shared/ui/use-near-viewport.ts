import { type RefObject, useEffect, useState } from 'react';

interface MarginObserver {
  observer: IntersectionObserver;
  callbacks: WeakMap<Element, () => void>;
}

/** One observer per margin for the whole page: a page has dozens of links that prefetch. */
const observers = new Map<string, MarginObserver>();

/**
 * Calls `run` once, when the element first comes within `margin` of the viewport (CSS margin
 * syntax, as IntersectionObserver's rootMargin). Returns the unsubscribe. Where
 * IntersectionObserver is missing, runs at once.
 */
export function onceNearViewport(element: Element, margin: string, run: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    run();
    return () => {};
  }
  let entry = observers.get(margin);
  if (!entry) {
    const callbacks = new WeakMap<Element, () => void>();
    const observer = new IntersectionObserver(
      (changes) => {
        for (const change of changes) {
          if (!change.isIntersecting) continue;
          observer.unobserve(change.target);
          const callback = callbacks.get(change.target);
          callbacks.delete(change.target);
          callback?.();
        }
      },
      { rootMargin: margin },
    );
    entry = { observer, callbacks };
    observers.set(margin, entry);
  }
  const { observer, callbacks } = entry;
  callbacks.set(element, run);
  observer.observe(element);
  return () => {
    callbacks.delete(element);
    observer.unobserve(element);
  };
}

/**
 * True once the element comes within `margin` of the viewport, and from then on. False on the
 * server and in the first client render, so both agree.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin: string): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    return onceNearViewport(element, margin, () => setNear(true));
  }, [ref, margin, near]);
  return near;
}
