import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { LineIcon } from "~/ui/line-icon";

/** The small "back" link above a page's header: a left chevron and the label, e.g. "Back to Dashboard". */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900"
    >
      <LineIcon className="h-4 w-4">
        <path d="M12 4l-6 6 6 6" strokeLinecap="round" strokeLinejoin="round" />
      </LineIcon>
      {children}
    </Link>
  );
}
