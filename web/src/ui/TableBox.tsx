import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways inside its own box when it is wider than the screen, so the page
 * never does. The box is a named region that takes the keyboard focus, so it can be scrolled
 * without a mouse (axe: scrollable-region-focusable).
 */
export function TableBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-box" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
