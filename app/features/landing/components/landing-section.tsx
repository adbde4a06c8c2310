import type { ReactNode } from "react";

/**
 * One band of the landing page: a full-width section on `background`, its
 * heading and a line under it centred at the top, then `children`.
 */
export function LandingSection({
  headingId,
  testId,
  background,
  title,
  intro,
  introTestId,
  children,
}: {
  headingId: string;
  testId: string;
  background: "bg-white" | "bg-slate-50";
  title: ReactNode;
  intro: ReactNode;
  introTestId?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId} className={`${background} py-20`} data-testid={testId}>
      <div className="mx-auto max-w-7xl px-4">
        <div className="mx-auto max-w-2xl text-center">
          <h2
            id={headingId}
            className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl"
          >
            {title}
          </h2>
          <p className="mt-3 text-slate-600" data-testid={introTestId}>
            {intro}
          </p>
        </div>
        {children}
      </div>
    </section>
  );
}
