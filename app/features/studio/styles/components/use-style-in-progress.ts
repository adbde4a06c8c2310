import { useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import type { DashboardView } from "~/features/studio/types";
import { STYLE_POLL_INTERVAL_MS, STYLE_POLL_MAX_ATTEMPTS } from "~/lib/styles";
import { useRevalidateWhile } from "~/ui/use-revalidate-while";

/**
 * The one way the dashboard waits for a style, with JavaScript: while any
 * style is on its way, the page's data reloads every 2 s, up to 30 times. The
 * style the page waits for is named in its URL (`pending`), so the loader
 * moves on when it ends, with its toast; after the last reload the loader is
 * asked to give up on it (`poll` at the limit), and says it timed out.
 * Without JavaScript the page's <NoScriptRefresh> does the same by URL.
 */
export function useStyleInProgress(
  view: Pick<DashboardView, "step" | "image" | "pending">,
  inProgress: boolean,
) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
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

  useRevalidateWhile(inProgress, {
    intervalMs: STYLE_POLL_INTERVAL_MS,
    limit: STYLE_POLL_MAX_ATTEMPTS,
    // A new style waited for (or another photo, or another step) starts the count over.
    round: `${onStyleStep}:${pendingId ?? ""}:${imageId ?? ""}`,
    onGiveUp: () => {
      if (!onStyleStep || !pendingId) return;
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
    },
  });
}
