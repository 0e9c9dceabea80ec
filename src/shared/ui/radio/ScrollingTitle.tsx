/**
 * A title on one line that is never cut off: when it is wider than its line it
 * scrolls to its end and back (transforms: no layout shift), pausing under the
 * pointer; with reduced motion it stays still and the reader can swipe or
 * scroll it. CSS only (radio.css, `.scrolling-title`): the track is as wide as
 * the line and the text at least as wide; moving the track right by 100% and
 * the text left by 100% shifts the text by what it overflows by, by nothing
 * when it fits.
 */
export function ScrollingTitle({ className, children }: { className: string; children: string }) {
  return (
    <p className={`scrolling-title ${className}`}>
      <span className="scrolling-title__track">
        <span className="scrolling-title__text">{children}</span>
      </span>
    </p>
  );
}
