import sharp from "sharp";
import { styleName } from "~/lib/styles";
import { exportKeywords, exportXmp } from "~/features/publishing/connectors/export-package.server";
import { digitalSourceTypeOfFile } from "~/engines/styling/ai-disclosure.server";
import { withIptcIim } from "~/features/publishing/connectors/iptc-iim.server";
import type { Upscaler } from "~/engines/upscaling/upscaler.server";
import { localUpscaler, sizeForMinimumPixels } from "~/engines/upscaling/upscaler.server";

/**
 * The file a stock agency reviews (Adobe Stock's rules): a JPEG at quality 95
 * in sRGB, at least 4 megapixels (enlarged by the best upscaler available when
 * the image is smaller, and the method said), made from the clean file the
 * marketplace sells (never a watermarked preview), with the title, caption,
 * keywords, copyright and the AI disclosure (IPTC Digital Source Type)
 * embedded as XMP (the export package's) and as IPTC IIM. The agency reads
 * the title and keywords from these; its "Created using generative AI tools"
 * box is still ticked by the creator in its portal.
 */

/** Adobe Stock refuses photos and illustrations under 4 MP. */
export const MIN_SUBMISSION_PIXELS = 4_000_000;
/** Adobe Stock keeps at most 49 keywords. */
export const MAX_SUBMISSION_KEYWORDS = 49;
const JPEG_QUALITY = 95;

export interface StockSubmissionInput {
  title: string;
  description: string;
  style: string;
  tags: string[];
  creatorName: string;
  source: Buffer;
  createdAt: Date;
  upscaler: Upscaler;
  signal?: AbortSignal;
}

export interface SubmissionUpscale {
  engine: "fal" | "lanczos3";
  method: string;
  from: { width: number; height: number };
}

export interface StockSubmission {
  jpeg: Buffer;
  width: number;
  height: number;
  keywords: string[];
  /** How the file was enlarged to reach 4 MP; null when it was big enough. */
  upscale: SubmissionUpscale | null;
}

export async function buildStockSubmission(input: StockSubmissionInput): Promise<StockSubmission> {
  const meta = await sharp(input.source, { failOn: "error" }).metadata();
  const oriented = meta.autoOrient ?? { width: meta.width!, height: meta.height! };
  const from = { width: oriented.width, height: oriented.height };
  const target = sizeForMinimumPixels(from.width, from.height, MIN_SUBMISSION_PIXELS);

  let pixels = input.source;
  let upscale: SubmissionUpscale | null = null;
  if (target.width !== from.width || target.height !== from.height) {
    try {
      const result = await input.upscaler.upscale(input.source, target, { signal: input.signal });
      pixels = result.data;
      upscale = { engine: result.engine, method: result.method, from };
    } catch (error) {
      if (input.upscaler === localUpscaler || input.signal?.aborted) throw error;
      // The better upscaler failed: the file is still made, and says how.
      const result = await localUpscaler.upscale(input.source, target);
      const reason = error instanceof Error ? error.message : "it failed";
      pixels = result.data;
      upscale = {
        engine: result.engine,
        method: `${result.method} (fal.ai's upscaler was not used: ${reason})`,
        from,
      };
    }
  }

  const style = styleName(input.style);
  const description =
    input.description.trim() || `An AI-stylized portrait in the ${style.toLowerCase()} style.`;
  const keywords = exportKeywords(input.tags, input.style).slice(0, MAX_SUBMISSION_KEYWORDS);
  const copyright = `© ${input.createdAt.getUTCFullYear()} ${input.creatorName}`;
  const { data, info } = await sharp(pixels, { failOn: "error" })
    .rotate()
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: "4:4:4" })
    .withIccProfile("srgb")
    .withXmp(
      exportXmp({
        title: input.title,
        description,
        keywords,
        copyright,
        creator: input.creatorName,
        sourceType: digitalSourceTypeOfFile(input.source),
      }),
    )
    .toBuffer({ resolveWithObject: true });
  const jpeg = withIptcIim(data, {
    title: input.title,
    headline: input.title,
    caption: description,
    keywords,
    byline: input.creatorName,
    copyright,
  });
  return { jpeg, width: info.width, height: info.height, keywords, upscale };
}
