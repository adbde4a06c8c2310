import type { ReactNode } from "react";

/**
 * A small drawn icon (on a 20×20 grid, in the text's colour, stroked, not
 * filled), hidden from screen readers: its shapes are the children.
 */
export function LineIcon({
  className,
  strokeWidth = "1.8",
  children,
}: {
  className: string;
  strokeWidth?: string;
  children: ReactNode;
}) {
  return (
    <svg
      viewBox="0 0 20 20"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}
