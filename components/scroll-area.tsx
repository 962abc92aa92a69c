import type { ReactNode } from "react";

/**
 * A box whose content may scroll (a table wider than its card, a long list of days): focusable and
 * named, so that a keyboard user can reach it and scroll it with the arrow keys (axe's
 * scrollable-region-focusable). The name says what scrolls ("Customers"). A group rather than a
 * region: the page's sections are its landmarks, and a table's box is not one more.
 * It is also the containing block of what it holds (`relative`): a screen-reader-only text
 * (absolute) in a column beyond its edge would otherwise widen the whole page.
 */
export function ScrollArea({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset is for form controls; this groups a scrolling table
    <div
      role="group"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard to be scrolled
      tabIndex={0}
      className={`relative ${className}`}
    >
      {children}
    </div>
  );
}
