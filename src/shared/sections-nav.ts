/** The nine in-page anchors of the header navigation; the home page's section blocks carry these ids. */
export const navSections = [
  { label: 'Local', anchor: 'local' },
  { label: 'National', anchor: 'national' },
  { label: 'World', anchor: 'world' },
  { label: 'Politics', anchor: 'politics' },
  { label: 'Business', anchor: 'business' },
  { label: 'Tech', anchor: 'tech' },
  { label: 'Sports', anchor: 'sports' },
  { label: 'Culture', anchor: 'culture' },
  { label: 'Opinion', anchor: 'opinion' },
] as const;
