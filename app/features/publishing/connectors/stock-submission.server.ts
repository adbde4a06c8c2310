import sharp from "sharp";
import { styleName } from "~/lib/styles";
import { exportKeywords, exportXmp } from "~/features/publishing/connectors/export-package.server";
import { digitalSourceTypeOfFile } from "~/engines/styling/ai-disclosure.server";
import { IIM_LIMITS, withIptcIim } from "~/features/publishing/connectors/iptc-iim.server";

/**
 * The file a stock agency reviews (Adobe Stock's rules): a JPEG at quality 95
 * in sRGB with the sRGB profile, made from the styled image the engine made
 * (never a watermarked preview, never an enlarged copy: Adobe's photo rules
 * say "do not upsample"), at the pixels the engine really made, which must
 * reach 4 megapixels (stockSizeRefusal says why and how big the upload must
 * be when they do not). The title, caption, keywords, copyright and the IPTC
 * Digital Source Type are embedded as XMP (the export package's) and as IPTC
 * IIM, with one title in both: the text is cut at a word boundary within
 * IIM's byte limits first. No "AI" wording goes into the title, the caption
 * or the keywords: Adobe keeps those for what a generative model made, and
 * says it with its own label, which the creator ticks in its portal.
 */

/** Adobe Stock refuses photos and illustrations under 4 MP. */
export const MIN_SUBMISSION_PIXELS = 4_000_000;
/** Adobe Stock keeps at most 49 keywords. */
export const MAX_SUBMISSION_KEYWORDS = 49;
/** Adobe Stock refuses files over 45 MB. */
export const MAX_SUBMISSION_BYTES = 45 * 1024 * 1024;
const JPEG_QUALITY = 95;

export interface StockSubmissionInput {
  title: string;
  description: string;
  style: string;
  tags: string[];
  creatorName: string;
  /** The styled image as the engine stored it. */
  source: Buffer;
  /** The pixels the engine really made (smaller than the stored file when the engine enlarged it). */
  native: { width: number; height: number };
  createdAt: Date;
}

export interface StockSubmission {
  jpeg: Buffer;
  width: number;
  height: number;
  title: string;
  keywords: string[];
}

/** "AI" wording Adobe keeps out of titles, descriptions and keywords (whole words, any case). */
const AI_WORDING =
  /\b(?:generative[\s-]+ai|ai[\s-]+(?:generated|stylized|stylised|styled|created|art|made|assisted|enhanced|edited|image|portrait)|artificial[\s-]+intelligence|ai)\b/gi;

/** Whether a text names AI (a keyword that does is left out of a submission). */
export function mentionsAi(text: string): boolean {
  AI_WORDING.lastIndex = 0;
  const found = AI_WORDING.test(text);
  AI_WORDING.lastIndex = 0;
  return found;
}

/** A sentence without its "AI" wording: "An AI-stylized selfie" → "A stylized selfie". */
export function withoutAiWording(text: string): string {
  const cut = text
    .replace(AI_WORDING, (match) => {
      // "AI-stylized portrait" keeps "stylized"; "AI generated", "generative AI" and "AI" go whole.
      const rest = match.replace(/^(?:generative[\s-]+ai|ai)[\s-]*/i, "");
      return /^(?:stylized|stylised|styled|art|image|portrait)$/i.test(rest) ? rest : "";
    })
    .replace(/\s{2,}/g, " ")
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim();
  // Articles that now stand before a different sound.
  return cut
    .replace(/\b([Aa])n ([b-df-hj-np-tv-z])/g, "$1 $2")
    .replace(/\b([Aa]) ([aeiou])/g, "$1n $2");
}

/** The longest start of `text` within `maxBytes` of UTF-8 that ends at a word boundary (a single overlong word is cut within a character). */
export function cutAtWord(text: string, maxBytes: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (Buffer.byteLength(clean, "utf8") <= maxBytes) return clean;
  let end = 0;
  let bytes = 0;
  for (const char of clean) {
    bytes += Buffer.byteLength(char, "utf8");
    if (bytes > maxBytes) break;
    end += char.length;
  }
  const head = clean.slice(0, end);
  const space = head.lastIndexOf(" ");
  const cut = space > 0 ? head.slice(0, space) : head;
  return cut.replace(/[\s,;:–—-]+$/, "");
}

/** The smallest size at least MIN_SUBMISSION_PIXELS with the shape of `width`×`height`. */
export function neededSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.sqrt(MIN_SUBMISSION_PIXELS / (width * height));
  let w = Math.ceil(width * scale);
  let h = Math.ceil(height * scale);
  while (w * h < MIN_SUBMISSION_PIXELS) {
    if (w / width <= h / height) w += 1;
    else h += 1;
  }
  return { width: w, height: h };
}

const megapixels = (width: number, height: number) => ((width * height) / 1_000_000).toFixed(1);

/**
 * Why an image this size cannot go to Adobe Stock, with how big the upload
 * must be; null when it is big enough. `native` is null when the pixels the
 * engine made are not known (something enlarged the image without saying by
 * how much).
 */
export function stockSizeRefusal(
  native: { width: number; height: number } | null,
  platformName = "Adobe Stock",
): string | null {
  if (!native) {
    return `${platformName} takes no enlarged images (its rule: do not upsample), and this style was enlarged after it was made, so its real size is not known. Style a photo of at least 4 megapixels (for example 2448 × 1632 px) with the built-in engine to submit it.`;
  }
  if (native.width * native.height >= MIN_SUBMISSION_PIXELS) return null;
  const needed = neededSize(native.width, native.height);
  return (
    `${platformName} takes only images of at least 4 megapixels that were not enlarged (its rule: do not upsample), ` +
    `and this style is ${native.width} × ${native.height} px (${megapixels(native.width, native.height)} MP) as the style engine made it. ` +
    `Upload a photo of at least ${needed.width} × ${needed.height} px and style it again to submit it; it is not enlarged for you.`
  );
}

/** Title, caption and keywords as they go into both the XMP and the IIM (the same text in each). */
export function submissionText(
  input: Pick<StockSubmissionInput, "title" | "description" | "style" | "tags">,
) {
  const style = styleName(input.style);
  const title =
    cutAtWord(withoutAiWording(input.title), IIM_LIMITS.title) ||
    cutAtWord(`${style} style portrait`, IIM_LIMITS.title);
  const description =
    cutAtWord(withoutAiWording(input.description), IIM_LIMITS.caption) ||
    `A portrait in the ${style.toLowerCase()} style.`;
  // Adobe labels generative AI with its own checkbox, never by keyword: no "AI generated" keyword here.
  const keywords = exportKeywords(input.tags, input.style, false)
    .filter((keyword) => !mentionsAi(keyword))
    .map((keyword) => cutAtWord(keyword, IIM_LIMITS.keyword))
    .filter(Boolean)
    .slice(0, MAX_SUBMISSION_KEYWORDS);
  return { title, description, keywords };
}

export class StockSubmissionRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StockSubmissionRefused";
  }
}

export async function buildStockSubmission(input: StockSubmissionInput): Promise<StockSubmission> {
  const refusal = stockSizeRefusal(input.native);
  if (refusal) throw new StockSubmissionRefused(refusal);
  const meta = await sharp(input.source, { failOn: "error" }).metadata();
  const stored = meta.autoOrient ?? { width: meta.width!, height: meta.height! };

  let pipeline = sharp(input.source, { failOn: "error" }).rotate();
  // The engine enlarged what it made: back to the pixels it made (a reduction, never an enlargement).
  if (input.native.width < stored.width || input.native.height < stored.height) {
    pipeline = pipeline.resize(input.native.width, input.native.height, {
      fit: "fill",
      kernel: "lanczos3",
    });
  }

  const { title, description, keywords } = submissionText(input);
  const creator = cutAtWord(input.creatorName, IIM_LIMITS.byline);
  const copyright = cutAtWord(
    `© ${input.createdAt.getUTCFullYear()} ${input.creatorName}`,
    IIM_LIMITS.copyright,
  );
  const { data, info } = await pipeline
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: "4:4:4" })
    .withIccProfile("srgb")
    .withXmp(
      exportXmp({
        title,
        description,
        keywords,
        copyright,
        creator,
        sourceType: digitalSourceTypeOfFile(input.source),
      }),
    )
    .toBuffer({ resolveWithObject: true });
  const jpeg = withIptcIim(data, {
    title,
    headline: title,
    caption: description,
    keywords,
    byline: creator,
    copyright,
  });
  if (jpeg.length > MAX_SUBMISSION_BYTES) {
    throw new StockSubmissionRefused(
      `The file for Adobe Stock would be ${(jpeg.length / 1024 ** 2).toFixed(0)} MB, over its 45 MB limit.`,
    );
  }
  return { jpeg, width: info.width, height: info.height, title, keywords };
}
