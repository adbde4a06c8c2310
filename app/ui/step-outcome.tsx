import type { ReactNode } from "react";
import { Link } from "@remix-run/react";

/**
 * What a visitor's page says once a step is done (a report sent or confirmed,
 * a follow asked for, confirmed or ended), with the way back to the marketplace.
 */
export function StepOutcome({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div data-testid={testId}>
      <p
        role="status"
        className="mt-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
      >
        {children}
      </p>
      <p className="mt-4 text-sm">
        <Link to="/marketplace" className="font-medium text-brand-700 hover:underline">
          Back to the marketplace
        </Link>
      </p>
    </div>
  );
}
