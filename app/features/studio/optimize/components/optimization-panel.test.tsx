// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { OptimizationPanel } from "~/features/studio/optimize/components/optimization-panel";
import { OPTIMIZATION_DEFAULTS, qualityLabel } from "~/features/studio/optimize/optimization";
import { stylizedJson } from "#tests/setup/studio-json";

afterEach(cleanup);

const STYLED = stylizedJson({
  style: "anime",
  bytes: 1000,
  createdAt: "2026-11-22T10:00:00.000Z",
  completedAt: "2026-11-22T10:00:05.000Z",
});

function renderPanel(image = STYLED) {
  renderWithRemix(
    [
      {
        path: "/dashboard",
        Component: () => (
          <OptimizationPanel image={image} initial={OPTIMIZATION_DEFAULTS} preset={null} />
        ),
      },
    ],
    { url: "/dashboard?styled=sty1&step=optimize" },
  );
  const form = screen.getByRole("button", { name: "Optimize Image" }).closest("form")!;
  return { form, values: () => new FormData(form) };
}

describe("the quality label", () => {
  it("is High at 90 and above, Good at 70 and above, otherwise Basic", () => {
    expect([50, 65, 70, 85, 90, 100].map(qualityLabel)).toEqual([
      "Basic",
      "Basic",
      "Good",
      "Good",
      "High",
      "High",
    ]);
  });
});

describe("OptimizationPanel", () => {
  it("starts from the default settings and follows the slider (50 to 100 in steps of 5)", () => {
    const { values } = renderPanel();
    const slider = screen.getByLabelText(/Quality/) as HTMLInputElement;
    expect(slider).toHaveAttribute("min", "50");
    expect(slider).toHaveAttribute("max", "100");
    expect(slider).toHaveAttribute("step", "5");
    expect(screen.getByTestId("quality-readout")).toHaveTextContent("85% · Good");
    fireEvent.change(slider, { target: { value: "90" } });
    expect(screen.getByTestId("quality-readout")).toHaveTextContent("90% · High");
    fireEvent.change(slider, { target: { value: "65" } });
    expect(screen.getByTestId("quality-readout")).toHaveTextContent("65% · Basic");
    expect(Object.fromEntries(values())).toEqual({
      intent: "optimize",
      imageId: "sty1",
      back: "/dashboard?styled=sty1&step=optimize",
      quality: "65",
      format: "webp",
      resolution: "original",
      socialOptimized: "on",
    });
  });

  it("says what Optimize is for, and leaves the creator's own copy unmarked unless they turn the watermark on", () => {
    const { values } = renderPanel();
    expect(screen.getByTestId("optimize-purpose")).toHaveTextContent(
      "Optimize makes your own copy: the file you download and the one sent to the other platforms you publish to. Marketplace buyers always get the full-resolution styled image, at least 2,048 px on its long edge, never this copy.",
    );
    expect(screen.getByRole("switch", { name: "Watermark" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    expect(values().get("watermark")).toBeNull();
  });

  it("fills the fields from a preset, and the switches post 'on' or nothing", async () => {
    const user = userEvent.setup();
    const { values } = renderPanel();
    await user.click(screen.getByRole("button", { name: "Marketplace" }));
    expect(screen.getByRole("button", { name: "Marketplace" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    expect(screen.getByTestId("quality-readout")).toHaveTextContent("90% · High");
    expect(screen.getByLabelText("Format")).toHaveValue("png");
    expect(screen.getByLabelText("Resolution")).toHaveValue("2048x2048");
    expect(
      screen.getByText("PNG is lossless: quality applies to WebP and JPG."),
    ).toBeInTheDocument();

    await user.click(screen.getByRole("switch", { name: "Watermark" }));
    expect(screen.getByRole("switch", { name: "Watermark" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    const posted = values();
    expect(posted.get("watermark")).toBe("on");
    expect(posted.get("socialOptimized")).toBe("on");
    expect(posted.get("quality")).toBe("90");
    expect(posted.get("format")).toBe("png");
    expect(posted.get("resolution")).toBe("2048x2048");

    await user.click(screen.getByRole("button", { name: "Web" }));
    expect(values().get("format")).toBe("webp");
    expect(values().get("quality")).toBe("75");
    expect(values().get("resolution")).toBe("1200x1200");
  });

  it("offers Market Now for a completed image", () => {
    renderPanel();
    expect(screen.getByRole("link", { name: "Market Now" })).toHaveAttribute(
      "href",
      "/dashboard?styled=sty1&step=market#pipeline",
    );
  });

  it("offers the optimized copy as a download once there is one, and nothing to download before", () => {
    renderPanel();
    expect(screen.queryByRole("link", { name: /^Download/ })).toBeNull();
    cleanup();
    const url =
      "/media/optimized/abcdefghijkl.webp?exp=1&dl=selfie-studio-anime-1024x1024.webp&sig=z";
    renderPanel({ ...STYLED, optimizedUrl: url, format: "webp", quality: 85 });
    const download = screen.getByRole("link", {
      name: "Download: your optimized Anime image",
    });
    expect(download).toHaveAttribute("href", url);
    expect(download).toHaveAttribute("download");
  });
});
