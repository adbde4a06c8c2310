import type { ReactNode } from "react";

const ALERT = "rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800";

/**
 * One sentence saying what went wrong, as a red alert box (`margin`, e.g.
 * "mt-4", sets it apart from what is above it).
 */
export function AlertMessage({
  margin,
  testId,
  children,
}: {
  margin?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <p role="alert" className={margin ? `${margin} ${ALERT}` : ALERT} data-testid={testId}>
      {children}
    </p>
  );
}
