// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { ImageGrid } from "~/features/studio/images/components/image-grid";
import { UploadsStrip } from "~/features/studio/images/components/uploads-strip";
import type { MarketState } from "~/features/studio/types";
import { TEST_IMAGE, stylizedJson } from "#tests/setup/studio-json";

afterEach(cleanup);

const IMAGE = TEST_IMAGE;

const STYLED = stylizedJson();

function renderGrid(
  market: Record<string, MarketState> = {},
  posted: FormData[] = [],
  images = [STYLED],
) {
  return renderWithRemix(
    [
      {
        path: "/dashboard",
        action: async ({ request }) => {
          posted.push(await request.formData());
          return null;
        },
        Component: () => (
          <>
            <ImageGrid images={images} back="/dashboard?step=upload" market={market} />
            <UploadsStrip images={[IMAGE]} selectedId={null} />
          </>
        ),
      },
    ],
    { url: "/dashboard?step=upload" },
  );
}

describe("deleting from the dashboard, with JavaScript", () => {
  it("asks first in a dialog saying what goes, and Cancel posts nothing", async () => {
    const posted: FormData[] = [];
    renderGrid({}, posted);
    await userEvent.click(
      await screen.findByRole("button", { name: "Delete the Professional image" }),
    );
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
    await userEvent.click(
      await screen.findByRole("button", { name: "Delete the Professional image" }),
    );
    const dialog = await screen.findByRole("dialog", { name: "Delete this Professional image?" });
    expect(dialog).toHaveTextContent("Its listing leaves the marketplace.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await screen.findByRole("button", { name: "Delete the Professional image" });
    expect(posted).toHaveLength(1);
    expect(Object.fromEntries(posted[0])).toEqual({
      intent: "delete-stylized",
      id: "sty1",
      back: "/dashboard?step=upload",
    });
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

describe("the dashboard's thumbnails", () => {
  it("offer each creation and upload as AVIF/WebP/JPEG at the widths the layout shows them, through the signed link", async () => {
    renderGrid();
    const creation = await screen.findByRole("img", { name: "Professional style" });
    const picture = creation.parentElement!;
    expect(picture.tagName).toBe("PICTURE");
    const avif = picture.querySelector('source[type="image/avif"]')!;
    expect(avif.getAttribute("srcset")).toBe(
      ["320", "480", "640", "960"]
        .map((w) => `/media/styled/abcdefghijkl.jpg?exp=1&sig=y&w=${w}&fmt=avif ${w}w`)
        .join(", "),
    );
    expect(picture.querySelector('source[type="image/webp"]')).not.toBeNull();
    expect(creation.getAttribute("sizes")).toMatch(/^\(min-width: 1280px\) 300px, /);
    expect(creation).toHaveAttribute("width", "1024");
    expect(creation).toHaveAttribute("height", "1024");
    expect(creation).toHaveAttribute("loading", "lazy");

    const upload = screen.getByRole("img", { name: "Upload 1: style this selfie" });
    expect(upload.parentElement?.tagName).toBe("PICTURE");
    expect(upload).toHaveAttribute("sizes", "96px");
    expect(upload.getAttribute("srcset")).toBe(
      "/media/originals/abcdefghijkl.png?exp=1&sig=x&w=320&fmt=jpg 320w, /media/originals/abcdefghijkl.png?exp=1&sig=x&w=480&fmt=jpg 480w, /media/originals/abcdefghijkl.png?exp=1&sig=x&w=640&fmt=jpg 512w",
    );
  });

  it("fall back to the image itself, then the original, as plain images, when the picture cannot be loaded", async () => {
    renderGrid();
    const creation = await screen.findByRole("img", { name: "Professional style" });
    fireEvent.error(creation);
    const plain = await screen.findByRole("img", { name: "Professional style" });
    expect(plain.parentElement?.tagName).not.toBe("PICTURE");
    expect(plain).toHaveAttribute("src", STYLED.styledUrl);
    expect(plain).not.toHaveAttribute("srcset");
    fireEvent.error(plain);
    await waitFor(() =>
      expect(screen.getByRole("img", { name: "Professional style" })).toHaveAttribute(
        "src",
        IMAGE.originalUrl,
      ),
    );
  });
});

describe("a creation's card", () => {
  it("downloads its optimized copy, and has nothing to download before it is optimized", async () => {
    const url =
      "/media/optimized/abcdefghijkl.png?exp=1&dl=selfie-studio-anime-2048x2048.png&sig=z";
    renderGrid(
      {},
      [],
      [
        stylizedJson({ id: "sty1", style: "anime", optimizedUrl: url, format: "png" }),
        stylizedJson({ id: "sty2", style: "cartoon" }),
      ],
    );
    const cards = await screen.findAllByTestId("creation");
    const download = within(cards[0]).getByRole("link", {
      name: "Download: Anime image, optimized copy",
    });
    expect(download).toHaveAttribute("href", url);
    expect(download).toHaveAttribute("download");
    expect(within(cards[1]).queryByRole("link", { name: /^Download/ })).toBeNull();
  });
});
