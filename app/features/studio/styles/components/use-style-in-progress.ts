import { useNavigate, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import type { DashboardView } from "~/features/studio/types";
import { STYLE_POLL_INTERVAL_MS, STYLE_POLL_MAX_ATTEMPTS } from "~/lib/styles";

/**
 * The one way the dashboard waits for a style, with JavaScript: while any
 * style is on its way, the page's data reloads every 2 s, up to 30 times. The
 * style the page waits for is named in its URL (`pending`), so the loader
 * moves on when it ends, with its toast; after the last reload the loader is
 * asked to give up on it (`poll` at the limit), and says it timed out.
 * Without JavaScript the page's <noscript> refresh does the same by URL.
 */
export function useStyleInProgress(
  view: Pick<DashboardView, "step" | "image" | "pending">,
  inProgress: boolean,
) {
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  const named = params.get("pending");
  const pendingId = view.pending?.id ?? null;
  const imageId = view.image?.id;
  const onStyleStep = view.step === "style";

  // A style found in progress on a visit (a reload, a new tab): the URL names it, so the loader tells when it ends.
  useEffect(() => {
    if (!onStyleStep || !pendingId || named === pendingId) return;
    navigate(atPipeline(dashboardUrl({ image: imageId, step: "style", pending: pendingId })), {
      replace: true,
      preventScrollReset: true,
    });
  }, [onStyleStep, pendingId, named, imageId, navigate]);

  useEffect(() => {
    if (!inProgress) return;
    let count = 0;
    const timer = window.setInterval(() => {
      count += 1;
      if (count < STYLE_POLL_MAX_ATTEMPTS) {
        if (latest.current.state === "idle") latest.current.revalidate();
        return;
      }
      window.clearInterval(timer);
      if (onStyleStep && pendingId) {
        navigate(
          atPipeline(
            dashboardUrl({
              image: imageId,
              step: "style",
              pending: pendingId,
              poll: STYLE_POLL_MAX_ATTEMPTS,
            }),
          ),
          {
            replace: true,
            preventScrollReset: true,
          },
        );
      }
    }, STYLE_POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [inProgress, onStyleStep, pendingId, imageId, navigate]);
}
