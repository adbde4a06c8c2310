import { describe, expect, it } from "vitest";
import {
  cutAtWord,
  mentionsAi,
  neededSize,
  stockSizeRefusal,
  submissionText,
  withoutAiWording,
} from "~/features/publishing/connectors/stock-submission.server";

describe("a stock submission's text", () => {
  it("cuts at a word boundary within the byte limit, never inside a word or a character", () => {
    expect(cutAtWord("Anime portrait with soft light", 64)).toBe("Anime portrait with soft light");
    expect(cutAtWord("one two three", 9)).toBe("one two");
    expect(cutAtWord("ééééé ééééé", 12)).toBe("ééééé");
    expect(Buffer.byteLength(cutAtWord("é".repeat(40), 64))).toBe(64);
    expect(cutAtWord("a red coat — and more", 13)).toBe("a red coat");
  });

  it("drops AI wording and mends the article", () => {
    expect(withoutAiWording("An AI-stylized selfie in the anime style.")).toBe(
      "A stylized selfie in the anime style.",
    );
    expect(withoutAiWording("AI generated portrait")).toBe("portrait");
    expect(withoutAiWording("Made with generative AI, an image")).toBe("Made with, an image");
    expect(withoutAiWording("A hair portrait")).toBe("A hair portrait");
    expect(mentionsAi("AI art")).toBe(true);
    expect(mentionsAi("Artificial Intelligence")).toBe(true);
    expect(mentionsAi("hair")).toBe(false);
  });

  it("one title for XMP and IIM, at most 49 keywords, none about AI", () => {
    const text = submissionText({
      title: "AI",
      description: "",
      style: "anime",
      tags: ["AI generated", ...Array.from({ length: 60 }, (_, i) => `tag${i}`)],
    });
    expect(text.title).toBe("Anime style portrait");
    expect(text.description).toBe("A portrait in the anime style.");
    expect(text.keywords).toHaveLength(49);
    expect(text.keywords.some(mentionsAi)).toBe(false);
  });
});

describe("the size Adobe Stock takes", () => {
  it("refuses under 4 MP with the size the upload needs, and takes 4 MP and more", () => {
    expect(stockSizeRefusal({ width: 2000, height: 2000 })).toBeNull();
    expect(stockSizeRefusal({ width: 3024, height: 4032 })).toBeNull();
    expect(neededSize(1000, 1000)).toEqual({ width: 2000, height: 2000 });
    const size = neededSize(768, 1024);
    expect(size.width * size.height).toBeGreaterThanOrEqual(4_000_000);
    expect(size.width / size.height).toBeCloseTo(0.75, 2);
    expect(stockSizeRefusal({ width: 768, height: 1024 })).toContain(
      `at least ${size.width} × ${size.height} px`,
    );
    expect(stockSizeRefusal(null)).toContain("its real size is not known");
  });
});
