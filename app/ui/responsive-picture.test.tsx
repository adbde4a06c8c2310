// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { ResponsivePicture } from "~/ui/responsive-picture";

afterEach(cleanup);

describe("<ResponsivePicture>", () => {
  it("offers AVIF, then WebP, then a JPEG img, each with a srcset no wider than the image and the same sizes", () => {
    const { container } = render(
      <ResponsivePicture
        src="/media/previews/abcdefgh.jpg"
        sourceWidth={640}
        sizes="(min-width: 640px) 50vw, 100vw"
        width={640}
        height={480}
        alt="A preview"
      />,
    );
    const sources = [...container.querySelectorAll("picture > source")];
    expect(sources.map((source) => source.getAttribute("type"))).toEqual([
      "image/avif",
      "image/webp",
    ]);
    expect(sources[0]).toHaveAttribute(
      "srcset",
      "/media/previews/abcdefgh.jpg?w=320&fmt=avif 320w, /media/previews/abcdefgh.jpg?w=480&fmt=avif 480w, /media/previews/abcdefgh.jpg?w=640&fmt=avif 640w",
    );
    for (const source of sources)
      expect(source).toHaveAttribute("sizes", "(min-width: 640px) 50vw, 100vw");
    const img = screen.getByRole("img", { name: "A preview" });
    expect(img.parentElement?.tagName).toBe("PICTURE");
    expect(img).toHaveAttribute("src", "/media/previews/abcdefgh.jpg");
    expect(img).toHaveAttribute(
      "srcset",
      expect.stringContaining("/media/previews/abcdefgh.jpg 640w"),
    );
    expect(img.getAttribute("srcset")).not.toContain("960w");
    expect(img).toHaveAttribute("sizes", "(min-width: 640px) 50vw, 100vw");
    expect(img).toHaveAttribute("width", "640");
    expect(img).toHaveAttribute("height", "480");
    expect(img).toHaveAttribute("loading", "lazy");
    expect(img).not.toHaveAttribute("fetchpriority");
  });

  it("loads the first screen's largest image at once, first", () => {
    render(
      <ResponsivePicture
        src="/media/previews/abcdefgh.jpg"
        sizes="100vw"
        width={640}
        height={640}
        alt="Hero"
        loading="eager"
        highPriority
      />,
    );
    const img = screen.getByRole("img", { name: "Hero" });
    expect(img).toHaveAttribute("loading", "eager");
    expect(img).toHaveAttribute("fetchpriority", "high");
  });
});
