import { useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { PipelineStep } from "~/features/studio/workspace/dashboard-url";
import { PIPELINE_ANCHOR } from "~/features/studio/workspace/dashboard-url";

/**
 * With JavaScript: when the pipeline moves to another step (a card's Optimize,
 * a step link, the end of a style), scroll the pipeline to the top of the
 * screen, so the open step is on screen even on a phone, where the stat cards
 * above it fill the first screen. On the first render it scrolls only when the
 * URL names a step (a visit to plain /dashboard opens at the top); Back and
 * Forward keep the position the browser restores.
 */
export function useScrollToStep(step: PipelineStep) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const shown = useRef<PipelineStep | null>(null);
  useEffect(() => {
    const previous = shown.current;
    shown.current = step;
    if (previous === step) return;
    if (previous === null) {
      if (!new URLSearchParams(location.search).has("step")) return;
    } else if (navigationType === "POP") {
      return;
    }
    document.getElementById(PIPELINE_ANCHOR)?.scrollIntoView({ block: "start" });
  }, [step, location.search, navigationType]);
}
