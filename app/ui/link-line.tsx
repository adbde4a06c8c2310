import type { ReactNode } from "react";
import { Link } from "@remix-run/react";

/** A line of its own holding one text link (e.g. "Back to the marketplace"), in `className`'s spacing. */
export function LinkLine({
  to,
  className,
  children,
}: {
  to: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <p className={className}>
      <Link to={to} className="font-medium text-brand-700 hover:underline">
        {children}
      </Link>
    </p>
  );
}
