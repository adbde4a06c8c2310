import { useMemo } from "react";
import { Illustrative } from "~/ui/illustrative";
import { useFetcher } from "@remix-run/react";
import {
  DONE_STATUSES,
  ESTIMATED_REACH_PER_PLATFORM,
  estimatedEarnings,
  estimatedViews,
  formatCount,
  formatDollars,
  PUBLISH_POLL_INTERVAL_MS,
} from "~/features/publishing/types";
import { PublicationList } from "~/features/publishing/publications/components/publication-status";
import type { LaunchResultData, PublicationView } from "~/features/publishing/components/types";
import { useHydrated } from "~/ui/use-hydrated";
import { NoScriptRefresh } from "~/ui/no-script-refresh";
import { useRevalidateWhile } from "~/ui/use-revalidate-while";
import { ShareLinks } from "~/ui/share-links";
import { useCurrency } from "~/ui/currency";
import { useDemoFigures } from "~/ui/demo-figures";

/**
 * What a launch did (the result view replaces the form). The
 * counts come from the platforms' real states and the list says where the image
 * is listed. With DEMO_FIGURES on, the spec's views and earnings estimates (150k
 * reach per platform) show too, labelled; off, no invented reach. While a platform is still
 * queued, the view checks again every 2 s with JavaScript, or the page
 * refreshes itself without.
 */
export function LaunchResult({
  result,
  onDone,
}: {
  result: LaunchResultData;
  onDone?: () => void;
}) {
  const hydrated = useHydrated();
  const currency = useCurrency();
  const demoFigures = useDemoFigures();
  const poll = useFetcher<{ platforms: PublicationView[] }>();
  const launchedIds = useMemo(() => new Set(result.platforms.map((p) => p.id)), [result.platforms]);
  const platforms = useMemo(() => {
    const fresh = poll.data?.platforms?.filter((p) => launchedIds.has(p.id));
    return fresh && fresh.length ? fresh : result.platforms;
  }, [poll.data, result.platforms, launchedIds]);
  const pending = platforms.some((p) => p.status === "queued");

  useRevalidateWhile(hydrated && pending, {
    intervalMs: PUBLISH_POLL_INTERVAL_MS,
    reload: {
      run: () => poll.load(`/api/publications?imageId=${encodeURIComponent(result.imageId)}`),
      busy: poll.state !== "idle",
    },
  });

  // The product's own marketplace, once live: its listing page is the link to share.
  const ownPage =
    platforms.find((p) => p.id === "marketplace" && p.status === "live" && p.url)?.url ?? null;
  const launched = platforms.filter((p) => DONE_STATUSES.includes(p.status)).length;
  const views = estimatedViews(launched);
  const earnings = estimatedEarnings(views, Number(result.price));

  return (
    <section className="space-y-5" data-testid="launch-result" aria-live="polite">
      {pending ? <NoScriptRefresh seconds={3} /> : null}
      <div>
        <h3 className="text-lg font-semibold text-slate-900">Marketing campaign launched!</h3>
        <p className="mt-1 text-sm text-slate-600">
          Here is where your image stands on each platform. Only listings a platform confirmed are
          marked live.
        </p>
        <p className="mt-1 text-sm font-medium text-slate-900" data-testid="launch-price">
          Price: {formatDollars(Number(result.price), currency)}
        </p>
      </div>
      <dl className={`grid gap-3 ${demoFigures ? "sm:grid-cols-3" : ""}`}>
        <div className="rounded-xl border border-slate-200 bg-white p-4">
          <dt className="text-xs font-medium text-slate-500">Platforms launched</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900" data-testid="platforms-launched">
            {launched}{" "}
            <span className="text-sm font-normal text-slate-500">of {platforms.length}</span>
          </dd>
        </div>
        {demoFigures ? (
          <>
            <div className="rounded-xl border border-slate-200 bg-white p-4">
              <dt className="text-xs font-medium text-slate-500">
                Estimated views <Illustrative text="Illustrative estimate" />
              </dt>
              <dd className="mt-1 text-2xl font-bold text-slate-900" data-testid="views-generated">
                {formatCount(views)}
              </dd>
            </div>
            <div className="rounded-xl border border-slate-200 bg-white p-4">
              <dt className="text-xs font-medium text-slate-500">
                Estimated earnings <Illustrative text="Illustrative estimate" />
              </dt>
              <dd
                className="mt-1 text-2xl font-bold text-slate-900"
                data-testid="estimated-earnings"
              >
                {formatDollars(earnings, currency)}
              </dd>
            </div>
          </>
        ) : null}
      </dl>
      {demoFigures ? (
        <p className="text-sm text-slate-600" data-testid="launch-estimate-note">
          Estimates, not measurements: {formatCount(ESTIMATED_REACH_PER_PLATFORM)} potential viewers
          per platform launched, and one sale per 10,000 views at{" "}
          {formatDollars(Number(result.price), currency)}.
        </p>
      ) : null}
      <PublicationList publications={platforms} />
      {ownPage ? (
        <div className="rounded-xl border border-slate-200 bg-white p-4" data-testid="launch-share">
          <h4 className="font-semibold text-slate-900">Share your listing</h4>
          <p className="mt-1 text-sm text-slate-600">
            Its own page shows the image, the price and Add to cart, and looks right when posted.
          </p>
          <div className="mt-3">
            <ShareLinks url={ownPage} title="My new portrait" />
          </div>
        </div>
      ) : null}
      {pending ? (
        <p className="text-sm text-slate-600">
          Some platforms are still working; this updates by itself.
        </p>
      ) : null}
      {onDone ? (
        <div className="flex justify-end">
          <button type="button" className="btn-primary" onClick={onDone}>
            Launch complete
          </button>
        </div>
      ) : null}
    </section>
  );
}
