import { Link } from "@remix-run/react";
import type { PipelineStep } from "~/features/studio/workspace/dashboard-url";
import { PIPELINE_LABELS, PIPELINE_STEPS } from "~/features/studio/workspace/dashboard-url";

/**
 * The 4-step pipeline (upload, style, optimize, market): "Step N of 4" and where the creator
 * is. A step the held images allow is a link, so the creator can go back (for
 * example to make another style of the same selfie).
 */
export function PipelineSteps({
  step,
  links = {},
}: {
  step: PipelineStep;
  links?: Partial<Record<PipelineStep, string | null>>;
}) {
  const current = PIPELINE_STEPS.indexOf(step);
  return (
    <nav aria-label="Pipeline" className="card p-4">
      <p className="text-sm font-semibold text-brand-700" data-testid="pipeline-position">
        Step {current + 1} of {PIPELINE_STEPS.length}: {PIPELINE_LABELS[step]}
      </p>
      <ol className="mt-3 grid grid-cols-4 gap-1 sm:gap-2">
        {PIPELINE_STEPS.map((id, index) => {
          const state = index < current ? "done" : index === current ? "current" : "upcoming";
          const content = (
            <>
              <span
                aria-hidden="true"
                className={`flex h-8 w-8 items-center justify-center rounded-full text-sm font-bold ${
                  state === "current"
                    ? "bg-brand-600 text-white"
                    : state === "done"
                      ? "bg-brand-100 text-brand-700"
                      : "bg-slate-100 text-slate-500"
                }`}
              >
                {state === "done" ? "✓" : index + 1}
              </span>
              <span
                className={`whitespace-nowrap text-xs font-medium sm:text-sm ${state === "upcoming" ? "text-slate-500" : "text-slate-900"}`}
              >
                {PIPELINE_LABELS[id]}
                {state === "done" ? <span className="sr-only"> (done)</span> : null}
              </span>
            </>
          );
          const href = state === "current" ? null : links[id];
          return (
            <li key={id} aria-current={state === "current" ? "step" : undefined}>
              {href ? (
                <Link
                  to={href}
                  className="flex flex-col items-center gap-1 rounded-lg px-0 py-1 text-center hover:bg-slate-50"
                >
                  {content}
                </Link>
              ) : (
                <span className="flex flex-col items-center gap-1 px-0 py-1 text-center">
                  {content}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
