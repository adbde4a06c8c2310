import type { ReactNode } from "react";

/** The dashed amber "TEST MODE" note atop a page that stands in for a payment provider, saying what it stands in for. */
export function TestModeBanner({
  titleSize,
  children,
}: {
  titleSize: "text-lg" | "text-2xl";
  children: ReactNode;
}) {
  return (
    <div
      className="mb-6 rounded-xl border-2 border-dashed border-amber-400 bg-amber-50 p-4 text-amber-900"
      role="note"
      data-testid="test-mode-banner"
    >
      <p className={`${titleSize} font-bold tracking-wide`}>TEST MODE</p>
      <p className="text-sm">{children}</p>
    </div>
  );
}
