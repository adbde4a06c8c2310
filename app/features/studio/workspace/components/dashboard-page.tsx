import { Link } from "@remix-run/react";
import { UserText } from "~/ui/user-text";
import { useEffect } from "react";
import { displayName } from "~/lib/accounts";
import {
  atPipeline,
  dashboardUrl,
  PIPELINE_ANCHOR,
} from "~/features/studio/workspace/dashboard-url";
import { useScrollToStep } from "~/features/studio/workspace/components/use-scroll-to-step";
import { useStyleInProgress } from "~/features/studio/styles/components/use-style-in-progress";
import {
  LOGGED_OUT_MESSAGE,
  SIGN_IN_AGAIN_URL,
  SIGN_IN_DELAY_MS,
} from "~/features/studio/studio-api";
import type { DashboardData } from "~/features/studio/types";
import { isInProgress } from "~/features/studio/types";
import { PageHeader } from "~/ui/page-header";
import { NoScriptRefresh } from "~/ui/no-script-refresh";
import { ImageGrid } from "~/features/studio/images/components/image-grid";
import { MarketStep } from "~/features/studio/optimize/components/market-step";
import { OptimizationPanel } from "~/features/studio/optimize/components/optimization-panel";
import { PipelineSteps } from "~/features/studio/workspace/components/pipeline-steps";
import { StatCards } from "~/features/studio/workspace/components/stat-cards";
import { PayoutsCard } from "~/features/payouts/components/payouts-card";
import type { PayoutsOverview } from "~/features/payouts/types";
import { StyleGenerator } from "~/features/studio/styles/components/style-generator";
import { UploadWidget } from "~/features/studio/images/components/upload-widget";
import { UploadsStrip } from "~/features/studio/images/components/uploads-strip";

/**
 * The creator dashboard: the 4-step pipeline (upload, style,
 * optimize, market), the stat cards, the grid of stylized images and the
 * links to integrations and home. Works without JavaScript: every step is a
 * URL and every action a form; while a style is being made, the page reloads
 * itself every 2 s (only when JavaScript is off; with it, useStyleInProgress
 * reloads its data).
 * Every step change opens the page at the pipeline (#pipeline in the links
 * and redirects; with JavaScript, useScrollToStep too).
 *
 * The pipeline, the page's task, is what a phone shows first under the
 * header: for a creator with no upload yet the summary (stat cards and
 * payouts) follows it in the page itself; for a returning creator the summary
 * stays above it on wider screens and moves under it below `sm` (CSS order).
 */
export function DashboardPage({
  data,
}: {
  data: DashboardData & { payouts?: Pick<PayoutsOverview, "account" | "balance"> };
}) {
  const { user, stats, images, stylized, view } = data;
  useStyleInProgress(view, stylized.some(isInProgress));
  useScrollToStep(view.step);
  const here = dashboardUrl({
    image: view.image?.id,
    styled: view.styled?.id,
    step: view.step,
  });

  // A creator with no upload yet has nothing to sum up: the upload comes first, the (zero) cards after it.
  const newCreator = images.length === 0;
  const summary = (
    <div
      className={`space-y-6 ${newCreator ? "" : "max-sm:order-1"}`}
      data-testid="dashboard-summary"
    >
      <StatCards stats={stats} />
      {data.payouts ? <PayoutsCard payouts={data.payouts} /> : null}
    </div>
  );

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8">
      <PageHeader
        title={
          <>
            Welcome, <UserText text={displayName(user)} />
          </>
        }
        subtitle="Upload a selfie, style it, optimize it and put it on the market."
        actions={
          <>
            <Link to="/analytics" className="btn-secondary">
              View Analytics
            </Link>
            <Link to="/integrations" className="btn-secondary">
              Manage Integrations
            </Link>
            <Link to="/landing" className="btn-ghost">
              Back to Home
            </Link>
          </>
        }
      />
      {newCreator ? null : summary}
      <div id={PIPELINE_ANCHOR} className="scroll-mt-4 space-y-4">
        <PipelineSteps step={view.step} links={stepLinks(view, images)} />
        {view.step === "upload" ? (
          <>
            <UploadWidget key={view.image?.id ?? "new"} uploaded={view.image} />
            <UploadsStrip images={images} selectedId={view.image?.id ?? null} />
          </>
        ) : null}
        {view.step === "style" ? (
          <>
            {/* With no upload chosen, the uploads come first: pick one to style. */}
            {view.image ? null : <UploadsStrip images={images} selectedId={null} />}
            <StyleGenerator
              key={view.image?.id ?? "none"}
              image={view.image}
              pending={view.pending}
              consent={data.faceConsent}
              engine={data.styleEngine}
            />
            {view.image ? <UploadsStrip images={images} selectedId={view.image.id} /> : null}
          </>
        ) : null}
        {view.step === "optimize" && view.styled ? (
          <OptimizationPanel
            key={`${view.styled.id}:${view.preset ?? ""}:${view.styled.optimizedUrl ?? ""}`}
            image={view.styled}
            initial={view.optimization}
            preset={view.preset}
          />
        ) : null}
        {view.step === "market" && view.styled ? (
          <MarketStep
            image={view.styled}
            price={data.market?.[view.styled.id]?.price}
            tiers={data.market?.[view.styled.id]}
            panel={view.panel}
            platforms={view.platforms}
          />
        ) : null}
      </div>
      {newCreator ? summary : null}
      <div className={newCreator ? "" : "max-sm:order-2"}>
        <ImageGrid images={stylized} back={here} market={data.market} />
      </div>
      {view.refreshUrl ? <NoScriptRefresh seconds={2} url={atPipeline(view.refreshUrl)} /> : null}
    </div>
  );
}

/** The steps the held images allow going to. */
function stepLinks(view: DashboardData["view"], images: DashboardData["images"]) {
  const styledReady = view.styled?.status === "completed" ? view.styled : null;
  // A returning creator can go back to style an earlier upload (the newest one first).
  const imageId = view.image?.id ?? styledReady?.imageId ?? images[0]?.id ?? null;
  return {
    upload: atPipeline(dashboardUrl({ step: "upload" })),
    style: imageId ? atPipeline(dashboardUrl({ image: imageId, step: "style" })) : null,
    optimize: styledReady
      ? atPipeline(dashboardUrl({ styled: styledReady.id, step: "optimize" }))
      : null,
    market: styledReady
      ? atPipeline(dashboardUrl({ styled: styledReady.id, step: "market" }))
      : null,
  };
}

/** A signed-out visitor on the dashboard is told so, then sent to sign in. */
export function LoggedOutNotice() {
  useEffect(() => {
    const timer = window.setTimeout(
      () => window.location.assign(SIGN_IN_AGAIN_URL),
      SIGN_IN_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center"
      role="alert"
    >
      <NoScriptRefresh seconds={1} url={SIGN_IN_AGAIN_URL} />
      <h1 className="text-2xl font-bold text-slate-900">{LOGGED_OUT_MESSAGE.title}</h1>
      <p className="mt-3 text-slate-600">{LOGGED_OUT_MESSAGE.description}</p>
      <a href={SIGN_IN_AGAIN_URL} className="btn-primary mt-8">
        Sign in
      </a>
    </section>
  );
}
