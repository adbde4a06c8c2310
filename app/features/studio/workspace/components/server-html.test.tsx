import { describe, expect, it } from "vitest";
import type { ReactNode } from "react";
import { serverHtml as staticHtml } from "#tests/setup/server-html";
import {
  DashboardPage,
  LoggedOutNotice,
} from "~/features/studio/workspace/components/dashboard-page";
import { ImageGrid } from "~/features/studio/images/components/image-grid";
import { UploadsStrip } from "~/features/studio/images/components/uploads-strip";
import { OptimizationPanel } from "~/features/studio/optimize/components/optimization-panel";
import { StyleGenerator } from "~/features/studio/styles/components/style-generator";
import { UploadWidget } from "~/features/studio/images/components/upload-widget";
import { OPTIMIZATION_DEFAULTS } from "~/features/studio/optimize/optimization";
import type { DashboardData } from "~/features/studio/types";
import { TEST_IMAGE, stylizedJson } from "#tests/setup/studio-json";
import { DemoFiguresProvider } from "~/ui/demo-figures";

/** What the server sends: the dashboard as a browser without JavaScript gets it. */

function serverHtml(element: ReactNode, url = "/dashboard") {
  return staticHtml(element, url, { withoutTextMarkers: true });
}

const IMAGE = TEST_IMAGE;

const STYLED = stylizedJson({ style: "cartoon" });

describe("the dashboard without JavaScript", () => {
  it("uploads through a multipart form posted to /dashboard, with a visible file input and Upload button", async () => {
    const html = await serverHtml(<UploadWidget uploaded={null} />);
    expect(html).toMatch(
      /<form[^>]*method="post"[^>]*action="\/dashboard"[^>]*enctype="multipart\/form-data"/i,
    );
    expect(html).toMatch(/<input[^>]*type="file"[^>]*name="image"[^>]*accept="image\/\*"/);
    expect(html).toMatch(/<button type="submit"[^>]*>Upload<\/button>/);
    expect(html).toContain("JPG and PNG up to 10MB");
  });

  it("styles through a form of four radio cards, each with its badges (DEMO_FIGURES on)", async () => {
    const html = await serverHtml(
      <DemoFiguresProvider on>
        <StyleGenerator image={IMAGE} pending={null} />
      </DemoFiguresProvider>,
    );
    expect(html).toMatch(/<form[^>]*method="post"[^>]*action="\/dashboard"/);
    expect(html).toMatch(/<input type="hidden" name="intent" value="stylize"\/>/);
    expect(html).toMatch(/<input type="hidden" name="id" value="img1"\/>/);
    expect(html.match(/type="radio" name="style"/g)).toHaveLength(4);
    for (const badge of [
      "Earn $50-150",
      "High demand",
      "Earn $25-75",
      "Very High demand",
      "Earn $30-100",
      "Earn $40-120",
      "Medium demand",
    ]) {
      expect(html).toContain(badge);
    }
    expect(html).toContain("Pro tips");
    expect(html).not.toContain("generating-overlay");
  });

  it("shows the progress overlay (fixed at 33) while a style the server knows of is pending", async () => {
    const html = await serverHtml(
      <StyleGenerator
        image={IMAGE}
        pending={{ ...STYLED, status: "processing", style: "anime" }}
      />,
    );
    expect(html).toContain("Generating your Anime style…");
    expect(html).toMatch(/role="progressbar"[^>]*aria-valuenow="33"/);
    // The local engine's real typical time; fal.ai's models take the spec's half a minute or more.
    expect(html).toContain(
      "This usually takes a few seconds, up to half a minute for a large photo.",
    );
    expect(html).not.toContain("30 to 60 seconds");
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""/);
    const withFal = await serverHtml(
      <StyleGenerator
        image={IMAGE}
        pending={{ ...STYLED, status: "processing", style: "anime" }}
        engine="fal"
      />,
    );
    expect(withFal).toContain("This usually takes 30 to 60 seconds.");
  });

  it("asks for an upload first when there is no image", async () => {
    const html = await serverHtml(<StyleGenerator image={null} pending={null} />);
    expect(html).toContain("Please upload an image first");
    expect(html).toMatch(/href="\/dashboard\?step=upload#pipeline"/);
  });

  it("optimizes through a form with a range, selects and real checkboxes; presets are a GET form", async () => {
    const html = await serverHtml(
      <OptimizationPanel image={STYLED} initial={OPTIMIZATION_DEFAULTS} preset={null} />,
    );
    expect(html).toMatch(
      /<input id="optimize-quality" type="range" name="quality" min="50" max="100" step="5" [^>]*value="85"/,
    );
    expect(html).toContain("85% · Good");
    expect(html).toMatch(/<select id="optimize-format" name="format"/);
    expect(html).toMatch(/<select id="optimize-resolution" name="resolution"/);
    // Without JavaScript too, the watermark starts off: the optimized file is the creator's own copy.
    expect(html).toMatch(/<input type="checkbox" name="watermark" class="[^"]*"\/>/);
    expect(html).toContain(
      "Marketplace buyers always get the full-resolution styled image, at least 2,048 px on its long edge, never this copy.",
    );
    expect(html).toMatch(/<input type="checkbox" name="socialOptimized"[^>]*checked=""/);
    expect(html).toMatch(/<form method="get" action="\/dashboard" aria-label="Presets"/);
    expect(html).toMatch(/<button type="submit" name="preset" value="marketplace"/);
    expect(html).toMatch(
      /href="\/dashboard\?styled=sty1&amp;step=market#pipeline"[^>]*>Market Now</,
    );
  });

  it("refreshes itself every 2 s only while something is in progress, inside <noscript>", async () => {
    const data: DashboardData = {
      user: {
        id: "u1",
        email: "ada@example.com",
        firstName: "Ada",
        lastName: "L",
        profileImageUrl: null,
        createdAt: "2026-11-22T10:00:00.000Z",
        isAdmin: false,
      },
      stats: {
        totalImages: 1,
        totalStylized: 0,
        totalListed: 0,
        totalSales: 0,
        totalEarnings: 12.5,
        totalViews: 0,
      },
      images: [IMAGE],
      stylized: [{ ...STYLED, status: "pending", styledUrl: null, stylizedUrl: null }],
      view: {
        step: "style",
        image: IMAGE,
        platforms: [],
        styled: null,
        pending: { ...STYLED, status: "pending" },
        panel: null,
        optimization: OPTIMIZATION_DEFAULTS,
        preset: null,
        refreshUrl: "/dashboard?image=img1&step=style&pending=sty1&poll=1",
      },
    };
    const html = await serverHtml(<DashboardPage data={data} />);
    expect(html).toContain(
      '<noscript><meta http-equiv="refresh" content="2;url=/dashboard?image=img1&amp;step=style&amp;pending=sty1&amp;poll=1#pipeline"/></noscript>',
    );
    expect(html).toContain("Step 2 of 4");
    expect(html).toContain("$12.50");
    expect(html).toMatch(/href="\/integrations"[^>]*>Manage Integrations/);
    expect(html).toContain("Back to Home");

    const idle = await serverHtml(
      <DashboardPage
        data={{
          ...data,
          stylized: [STYLED],
          view: { ...data.view, pending: null, refreshUrl: null },
        }}
      />,
    );
    expect(idle).not.toContain("http-equiv");
  });

  it("deletes through a link to ?confirmDelete= that renders a confirmation panel posting the delete intent", async () => {
    const grid = (
      <ImageGrid
        images={[{ ...STYLED, style: "professional" }]}
        back="/dashboard?step=upload"
        market={{ sty1: { price: "12.50", listed: true } }}
      />
    );
    const closed = await serverHtml(grid, "/dashboard?step=upload");
    expect(closed).toMatch(
      /<a [^>]*aria-label="Delete the Professional image"[^>]*href="\/dashboard\?step=upload&amp;confirmDelete=sty1">Delete<\/a>/,
    );
    expect(closed).not.toContain("delete-confirmation");

    const open = await serverHtml(grid, "/dashboard?step=upload&confirmDelete=sty1");
    expect(open).toMatch(
      /role="dialog" aria-modal="true" aria-labelledby="delete-confirmation-title"[^>]*data-testid="delete-confirmation"/,
    );
    expect(open).toContain("Delete this Professional image?");
    expect(open).toContain("This deletes the image and its optimized versions.");
    expect(open).toContain("Its listing leaves the marketplace.");
    expect(open).toMatch(/<form method="post" action="\/dashboard"/);
    expect(open).toContain('<input type="hidden" name="intent" value="delete-stylized"/>');
    expect(open).toContain('<input type="hidden" name="id" value="sty1"/>');
    expect(open).toContain('<input type="hidden" name="back" value="/dashboard?step=upload"/>');
    expect(open).toMatch(/<button type="submit"[^>]*>Delete<\/button>/);
    expect(open).toMatch(/<a [^>]*href="\/dashboard\?step=upload"[^>]*>Cancel<\/a>/);

    // An id that is not one of the creator's images opens nothing.
    expect(await serverHtml(grid, "/dashboard?step=upload&confirmDelete=nope")).not.toContain(
      "delete-confirmation",
    );
  });

  it("the uploads strip deletes through the same confirmation panel", async () => {
    const strip = <UploadsStrip images={[IMAGE]} selectedId={null} />;
    expect(await serverHtml(strip, "/dashboard?step=upload")).toMatch(
      /aria-label="Delete upload 1"[^>]*href="\/dashboard\?step=upload&amp;confirmDelete=img1"/,
    );
    const open = await serverHtml(strip, "/dashboard?step=upload&confirmDelete=img1");
    expect(open).toContain("Delete this selfie?");
    expect(open).toContain('<input type="hidden" name="intent" value="delete-image"/>');
    expect(open).toContain('<input type="hidden" name="id" value="img1"/>');
  });

  it("tells a signed-out visitor they are logged out and sends them to sign in", async () => {
    const html = await serverHtml(<LoggedOutNotice />);
    expect(html).toContain("You are logged out. Logging in again...");
    expect(html).toContain(
      '<noscript><meta http-equiv="refresh" content="1;url=/api/login?redirectTo=%2Fdashboard"/></noscript>',
    );
  });
});
