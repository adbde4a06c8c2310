import { Link } from "@remix-run/react";
import type { PublicUser } from "~/lib/accounts";
import { displayName } from "~/lib/accounts";
import { PageHeader } from "./page-header";

/** The creator dashboard (spec section 2). The studio arrives with the creator-studio issue. */
export function DashboardPage({ user }: { user: PublicUser }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <PageHeader
        title={`Welcome, ${displayName(user)}`}
        subtitle="Upload a selfie, style it, optimize it and put it on the market."
        actions={
          <>
            <Link to="/integrations" className="btn-secondary">
              Manage Integrations
            </Link>
            <Link to="/landing" className="btn-ghost">
              Back to Home
            </Link>
          </>
        }
      />
    </div>
  );
}
