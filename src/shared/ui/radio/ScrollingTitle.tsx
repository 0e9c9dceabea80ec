/**
 * A title on one line that is never cut off: when it is wider than its line it
 * scrolls to its end and back (a transform: no layout shift), pausing under the
 * pointer or focus; with reduced motion it stays still and the reader can
 * swipe or scroll it (radio.css, `.scrolling-title`).
 */
export function ScrollingTitle({ className, children }: { className: string; children: string }) {
  return (
    <p className={`scrolling-title ${className}`}>
      <span className="scrolling-title__text">{children}</span>
    </p>
  );
}
