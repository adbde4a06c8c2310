import type { ReactNode } from "react";
import { Link } from "@remix-run/react";

/** The link back a page header offers (e.g. to the dashboard), as a secondary or a ghost button. */
export interface HeaderBackLink {
  to: string;
  label: string;
  look: "btn-secondary" | "btn-ghost";
}

export function PageHeader({
  title,
  subtitle,
  actions,
  back,
}: {
  /** The heading: text, or text around a user's name in a <UserText> (isolated and cut with an ellipsis). */
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  /** The header's one action when it is only a link back (instead of `actions`). */
  back?: HeaderBackLink;
}) {
  const shown = back ? (
    <Link to={back.to} className={back.look}>
      {back.label}
    </Link>
  ) : (
    actions
  );
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
        {subtitle ? <p className="mt-1 text-slate-600">{subtitle}</p> : null}
      </div>
      {shown ? <div className="flex flex-wrap gap-2">{shown}</div> : null}
    </div>
  );
}
