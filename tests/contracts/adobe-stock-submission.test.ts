import fs from "node:fs";
import ExifReader from "exifreader";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createLocalEngine } from "~/engines/styling/local-engine.server";
import { buildStockSubmission } from "~/features/publishing/connectors/stock-submission.server";
import { withIptcIim } from "~/features/publishing/connectors/iptc-iim.server";

/**
 * Adobe Stock's contract for a photo or illustration, checked offline by a
 * reader that is not ours (exifreader): a JPEG, in sRGB with its ICC profile,
 * at least 4 MP of pixels the style engine really made (never enlarged), at
 * most 45 MB, at most 49 keywords, one title (the same in XMP and IPTC IIM),
 * and no "AI" keyword. The file is made the way the publishing job makes it:
 * a realistic upload styled by the local engine, then the submission. The
 * second half breaks the file on purpose, one rule at a time, and checks that
 * the reading notices each.
 */

const MIN_PIXELS = 4_000_000;
const MAX_BYTES = 45 * 1024 * 1024;
const MAX_KEYWORDS = 49;

/** What a third-party reader finds wrong with a file Adobe Stock would review (empty when nothing). */
function adobeContractViolations(
  jpeg: Buffer,
  madeBy: { width: number; height: number },
): string[] {
  const problems: string[] = [];
  let tags: ExifReader.ExpandedTags;
  try {
    tags = ExifReader.load(jpeg, { expanded: true });
  } catch (error) {
    return [`unreadable: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (tags.file?.FileType?.value !== "jpeg")
    problems.push(`not a JPEG (${tags.file?.FileType?.value ?? "unknown"})`);
  const width = Number(tags.file?.["Image Width"]?.value);
  const height = Number(tags.file?.["Image Height"]?.value);
  if (tags.file?.["Color Components"]?.value !== 3)
    problems.push("not three colour components (RGB)");
  if (
    tags.icc?.["Color Space"]?.value?.toString().trim() !== "RGB" ||
    !/sRGB/.test(String(tags.icc?.["ICC Description"]?.value ?? ""))
  ) {
    problems.push("no sRGB ICC profile");
  }
  if (!(width * height >= MIN_PIXELS)) problems.push(`under 4 MP (${width}×${height})`);
  if (width !== madeBy.width || height !== madeBy.height) {
    problems.push(
      `not the pixels the engine made (${width}×${height}, made ${madeBy.width}×${madeBy.height})`,
    );
  }
  if (jpeg.length > MAX_BYTES) problems.push(`over 45 MB (${jpeg.length} bytes)`);

  const xmpKeywords = (
    (tags.xmp?.subject?.value as Array<{ description: string }> | undefined) ?? []
  ).map((k) => k.description);
  const iptcKeywordTags = tags.iptc?.Keywords as unknown;
  const iimKeywords = (
    Array.isArray(iptcKeywordTags) ? iptcKeywordTags : iptcKeywordTags ? [iptcKeywordTags] : []
  ).map((k: { description: string }) => k.description);
  if (xmpKeywords.length > MAX_KEYWORDS || iimKeywords.length > MAX_KEYWORDS) {
    problems.push(`more than 49 keywords (${xmpKeywords.length} XMP, ${iimKeywords.length} IIM)`);
  }
  if (xmpKeywords.join("\n") !== iimKeywords.join("\n"))
    problems.push("the XMP and IIM keywords differ");
  const ai = [...xmpKeywords, ...iimKeywords].filter((keyword) =>
    /\bai\b|generative|artificial intelligence/i.test(keyword),
  );
  if (ai.length) problems.push(`an AI keyword (${ai.join(", ")})`);

  const xmpTitles = (
    (tags.xmp?.title?.value as Array<{ description: string }> | undefined) ?? []
  ).map((t) => t.description);
  const headline = tags.xmp?.Headline?.description;
  const iimTitle = tags.iptc?.["Object Name"]?.description;
  const iimHeadline = tags.iptc?.Headline?.description;
  const titles = new Set([...xmpTitles, headline, iimTitle, iimHeadline]);
  if (xmpTitles.length !== 1 || titles.size !== 1 || !iimTitle)
    problems.push(`not one title (${[...titles].join(" | ")})`);
  if (
    /\bai\b|generative/i.test(iimTitle ?? "") ||
    /\bai\b|generative/i.test(tags.xmp?.description?.description ?? "")
  ) {
    problems.push("AI wording in the title or description");
  }
  return problems;
}

/** A 12 MP phone selfie (4032×3024, the fixture portrait enlarged), as an upload arrives. */
const upload = () =>
  sharp(fs.readFileSync("tests/fixtures/portrait.png"))
    .resize(3024, 4032, { fit: "fill" })
    .jpeg({ quality: 90 })
    .toBuffer();

const manyTags = [
  "AI generated",
  "generative AI",
  "AI-stylized",
  "ai",
  ...Array.from({ length: 60 }, (_, i) => `tag ${i + 1}`),
];

let file: Buffer;
let madeBy: { width: number; height: number };

beforeAll(async () => {
  const styled = await createLocalEngine().stylize(await upload(), "cartoon");
  madeBy = styled.native!;
  const submission = await buildStockSubmission({
    title:
      "AI generated cartoon portrait of a smiling woman in a red coat — ünïcödé and a very long title that goes on",
    description: "An AI-stylized selfie in the cartoon style.",
    style: "cartoon",
    tags: manyTags,
    creatorName: "Zoë Example",
    source: styled.data,
    native: madeBy,
    createdAt: new Date("2026-11-26T12:00:00Z"),
  });
  file = submission.jpeg;
}, 180_000);

describe("the Adobe Stock submission file, read back by exifreader", () => {
  it("meets Adobe's contract: JPEG, sRGB with its profile, ≥ 4 MP the engine made, ≤ 45 MB, ≤ 49 keywords, one title, no AI keyword", () => {
    expect(madeBy.width * madeBy.height).toBeGreaterThanOrEqual(MIN_PIXELS);
    expect(adobeContractViolations(file, madeBy)).toEqual([]);
    const tags = ExifReader.load(file, { expanded: true });
    // The one title, cut at a word within IIM's 64 bytes, without its AI wording.
    // ("… red coat — ünïcödé" would be 65 bytes: the cut ends at the word before, without the dash.)
    expect(tags.iptc?.["Object Name"]?.description).toBe(
      "cartoon portrait of a smiling woman in a red coat",
    );
  });
});

describe("the contract check notices a broken file", () => {
  it("a file without its ICC profile", async () => {
    // The same pixels and XMP, re-encoded without the profile (sharp drops it unless asked to keep it).
    const bare = await sharp(file).keepXmp().jpeg({ quality: 95 }).toBuffer();
    expect(ExifReader.load(bare, { expanded: true }).icc).toBeUndefined();
    expect(adobeContractViolations(bare, madeBy)).toContain("no sRGB ICC profile");
  });

  it("an enlarged file, a small file, and a PNG", async () => {
    const enlarged = await sharp(file)
      .resize(madeBy.width * 2, madeBy.height * 2)
      .withIccProfile("srgb")
      .jpeg()
      .toBuffer();
    expect(adobeContractViolations(enlarged, madeBy).join()).toContain(
      "not the pixels the engine made",
    );
    const small = await sharp(file).resize(1000, 1000).withIccProfile("srgb").jpeg().toBuffer();
    expect(adobeContractViolations(small, { width: 1000, height: 1000 }).join()).toContain(
      "under 4 MP",
    );
    const png = await sharp(file).withIccProfile("srgb").png().toBuffer();
    expect(adobeContractViolations(png, madeBy).join()).toContain("not a JPEG");
  });

  it("two titles, 50 keywords, and an AI keyword", async () => {
    const base = await sharp(file).withIccProfile("srgb").keepXmp().jpeg().toBuffer();
    const fields = { headline: "x", caption: "A caption", byline: "Zoë", copyright: "© Zoë" };
    const tags = ExifReader.load(file, { expanded: true });
    const keywords = ((tags.xmp?.subject?.value as Array<{ description: string }>) ?? []).map(
      (k) => k.description,
    );
    const title = tags.xmp!.Headline!.description;
    const otherTitle = withIptcIim(base, {
      ...fields,
      headline: title,
      title: "Another title",
      keywords,
    });
    expect(adobeContractViolations(otherTitle, madeBy).join()).toContain("not one title");
    const fifty = withIptcIim(base, {
      ...fields,
      headline: title,
      title,
      keywords: Array.from({ length: 50 }, (_, i) => `k${i}`),
    });
    expect(adobeContractViolations(fifty, madeBy).join()).toContain("more than 49 keywords");
    const ai = withIptcIim(base, {
      ...fields,
      headline: title,
      title,
      keywords: [...keywords.slice(0, -1), "AI generated"],
    });
    expect(adobeContractViolations(ai, madeBy).join()).toContain("an AI keyword");
  });
});
