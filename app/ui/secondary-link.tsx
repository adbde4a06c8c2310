import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** A link drawn as the secondary button (e.g. "Back to Marketplace"). */
export function SecondaryLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="btn-secondary">
      {children}
    </Link>
  );
}
