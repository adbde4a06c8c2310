// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRemixStub } from "@remix-run/testing";
import { ImageGrid } from "~/features/studio/components/image-grid";
import { UploadsStrip } from "~/features/studio/components/uploads-strip";
import type { ImageJson, MarketState, StylizedImageJson } from "~/features/studio/types";

afterEach(cleanup);

const IMAGE: ImageJson = {
  id: "img1",
  userId: "u1",
  originalUrl: "/media/originals/abcdefghijkl.png?exp=1&sig=x",
  width: 512,
  height: 512,
  bytes: 1234,
  mimeType: "image/png",
  createdAt: "2026-11-22T10:00:00.000Z",
};

const STYLED: StylizedImageJson = {
  id: "sty1",
  imageId: "img1",
  style: "professional",
  status: "completed",
  styledUrl: "/media/styled/abcdefghijkl.jpg?exp=1&sig=y",
  stylizedUrl: "/media/styled/abcdefghijkl.jpg?exp=1&sig=y",
  originalUrl: IMAGE.originalUrl,
  optimizedUrl: null,
  format: null,
  quality: null,
  resolution: null,
  watermark: null,
  socialOptimized: null,
  width: 1024,
  height: 1024,
  bytes: 100_000,
  price: "25",
  licensingEnabled: true,
  nftEnabled: false,
  createdAt: "2026-11-22T10:01:00.000Z",
  completedAt: "2026-11-22T10:01:05.000Z",
  error: null,
  provider: "local",
};

function renderGrid(market: Record<string, MarketState> = {}, posted: FormData[] = []) {
  const Stub = createRemixStub([
    {
      path: "/dashboard",
      action: async ({ request }) => {
        posted.push(await request.formData());
        return null;
      },
      Component: () => (
        <>
          <ImageGrid images={[STYLED]} back="/dashboard?step=upload" market={market} />
          <UploadsStrip images={[IMAGE]} selectedId={null} />
        </>
      ),
    },
  ]);
  return render(<Stub initialEntries={["/dashboard?step=upload"]} />);
}

describe("deleting from the dashboard, with JavaScript", () => {
  it("asks first in a dialog saying what goes, and Cancel posts nothing", async () => {
    const posted: FormData[] = [];
    renderGrid({}, posted);
    await userEvent.click(await screen.findByRole("button", { name: "Delete the Professional image" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete this Professional image?" });
    expect(within(dialog).getByTestId("delete-confirmation")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("This deletes the image and its optimized versions.");
    expect(dialog).not.toHaveTextContent("marketplace");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(posted).toHaveLength(0);
  });

  it("says a live listing leaves the marketplace, and Delete posts the delete intent", async () => {
    const posted: FormData[] = [];
    renderGrid({ sty1: { price: "12.50", listed: true } }, posted);
    await userEvent.click(await screen.findByRole("button", { name: "Delete the Professional image" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete this Professional image?" });
    expect(dialog).toHaveTextContent("Its listing leaves the marketplace.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await screen.findByRole("button", { name: "Delete the Professional image" });
    expect(posted).toHaveLength(1);
    expect(Object.fromEntries(posted[0])).toEqual({ intent: "delete-stylized", id: "sty1", back: "/dashboard?step=upload" });
  });

  it("the uploads strip asks through the same confirmation", async () => {
    const posted: FormData[] = [];
    renderGrid({}, posted);
    await userEvent.click(await screen.findByRole("button", { name: "Delete upload 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete this selfie?" });
    expect(dialog).toHaveTextContent("every style made from it");
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await screen.findByRole("button", { name: "Delete upload 1" });
    expect(Object.fromEntries(posted[0])).toEqual({ intent: "delete-image", id: "img1" });
  });
});
