import zlib from "node:zlib";
import type { Sharp } from "sharp";
import type { StyleResult } from "~/engines/styling/style-engine.server";
import type { AiLabel } from "~/lib/ai-label";

/**
 * Every styled image carries an honest disclosure of how it was made: IPTC's
 * DigitalSourceType in XMP (the value of the engine that made it, see
 * docs/decisions/027-honest-provenance.md), plus the tool that made it.
 * Nothing from the input's metadata is carried over (sharp drops it all
 * unless told otherwise, and we never tell it otherwise).
 */
const IPTC_DIGITAL_SOURCE_TYPE = "http://cv.iptc.org/newscodes/digitalsourcetype/";

/**
 * What each engine's output is, in IPTC's Digital Source Type vocabulary:
 * - local: `composite`, the uploaded photo's own pixels (the person, cut out
 *   where a segmentation model says) combined with hand-made, non-trained
 *   backgrounds, outlines and grades; no model generates a pixel;
 * - fal: `trainedAlgorithmicMedia`, FLUX.1 Kontext re-renders the whole frame
 *   from the photo and an instruction: every pixel comes from a trained model.
 */
export const DIGITAL_SOURCE_TYPES = {
  local: `${IPTC_DIGITAL_SOURCE_TYPE}composite`,
  fal: `${IPTC_DIGITAL_SOURCE_TYPE}trainedAlgorithmicMedia`,
} as const;
export type DigitalSourceType = (typeof DIGITAL_SOURCE_TYPES)[keyof typeof DIGITAL_SOURCE_TYPES];

/** The source type of an image made by the engine recorded as `provider` on its stylized image. */
export function digitalSourceTypeOf(provider: string): DigitalSourceType {
  return provider === "fal" ? DIGITAL_SOURCE_TYPES.fal : DIGITAL_SOURCE_TYPES.local;
}

/**
 * The IPTC terms that say a generative model made the image or an element of
 * it: `trainedAlgorithmicMedia` (made by a model trained on sampled content)
 * and `compositeWithTrainedAlgorithmicMedia` (a composite with generated
 * elements, IPTC's examples being inpainting and outpainting). What stock
 * sites call "AI generated" (Adobe's "Created using generative AI tools");
 * every other term (the local engine's `composite` among them) is not.
 */
const GENERATIVE_SOURCE_TYPES: readonly string[] = [
  `${IPTC_DIGITAL_SOURCE_TYPE}trainedAlgorithmicMedia`,
  `${IPTC_DIGITAL_SOURCE_TYPE}compositeWithTrainedAlgorithmicMedia`,
];

/** Whether an image of this digital source type is AI generated (a generative model made it or part of it). */
export function isGenerativeSourceType(sourceType: string): boolean {
  return GENERATIVE_SOURCE_TYPES.includes(sourceType);
}

/** The built-in (local) engine's value: what encodeStyledImage writes unless told otherwise. */
export const DIGITAL_SOURCE_TYPE: DigitalSourceType = DIGITAL_SOURCE_TYPES.local;

const JPEG_QUALITY = 90;

function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * An XMP packet with the digital source type and the tool that made the image,
 * and, when given, a description (`dc:description`): what was done to the
 * pixels since, e.g. "upscaled with Lanczos ×4.27" (docs/decisions/092).
 */
export function disclosureXmp(
  creatorTool: string,
  sourceType: string,
  description?: string,
): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about=""',
    ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"',
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    ...(description ? [' xmlns:dc="http://purl.org/dc/elements/1.1/"'] : []),
    ` Iptc4xmpExt:DigitalSourceType="${sourceType}"`,
    ` xmp:CreatorTool="${escapeXml(creatorTool)}"`,
    ...(description
      ? [
          ">",
          `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(description)}</rdf:li></rdf:Alt></dc:description>`,
          "</rdf:Description>",
        ]
      : ["/>"]),
    "</rdf:RDF>",
    "</x:xmpmeta>",
    '<?xpacket end="r"?>',
  ].join("");
}

/** The creator tool written in an image's XMP, if any. */
export function creatorToolIn(xmp: string): string | undefined {
  const found =
    /xmp:CreatorTool="([^"]*)"/.exec(xmp)?.[1] ?? /xmp:CreatorTool>([^<]*)</.exec(xmp)?.[1];
  return found?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** The description (`dc:description`, its default language) written in an image's XMP, if any. */
export function descriptionIn(xmp: string): string | undefined {
  const found = /<dc:description>\s*<rdf:Alt>\s*<rdf:li[^>]*>([^<]*)<\/rdf:li>/.exec(xmp)?.[1];
  return found?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/**
 * The disclosure written into a pipeline's output: the XMP packet above and,
 * with a description, the same words as EXIF's ImageDescription (which image
 * viewers show; EXIF text is ASCII, so "×" is written "x" there).
 */
export function withDisclosure(
  pipeline: Sharp,
  disclosure: { creatorTool: string; sourceType: string; description?: string },
): Sharp {
  const { creatorTool, sourceType, description } = disclosure;
  const withXmp = pipeline.withXmp(disclosureXmp(creatorTool, sourceType, description));
  return description ? withXmp.withExif({ IFD0: { ImageDescription: description } }) : withXmp;
}

/** The digital source type written in an image's XMP, if any. */
export function digitalSourceTypeIn(xmp: Buffer | string | undefined): string | undefined {
  const text = typeof xmp === "string" ? xmp : xmp?.toString("utf8");
  if (!text) return undefined;
  return (
    /Iptc4xmpExt:DigitalSourceType="([^"]*)"/.exec(text)?.[1] ??
    /Iptc4xmpExt:DigitalSourceType>([^<]*)</.exec(text)?.[1]
  );
}

/**
 * The digital source type an image file's own XMP declares, found in its bytes
 * without decoding (XMP is plain text in JPEG, PNG and WebP files): exports and
 * kits carry the value of the engine that made the file. A file without one is
 * taken as the built-in engine's.
 */
export function digitalSourceTypeOfFile(bytes: Buffer): string {
  const xmp = compressedPngXmp(bytes) ?? bytes;
  const at = xmp.indexOf("Iptc4xmpExt:DigitalSourceType");
  if (at < 0) return DIGITAL_SOURCE_TYPE;
  const found = digitalSourceTypeIn(xmp.subarray(at, at + 200).toString("latin1"));
  return found && found.startsWith(IPTC_DIGITAL_SOURCE_TYPE) ? found : DIGITAL_SOURCE_TYPE;
}

/** The tool an image file's own XMP names (xmp:CreatorTool), found in its bytes as the source type is; undefined without one. */
export function creatorToolOfFile(bytes: Buffer): string | undefined {
  const xmp = compressedPngXmp(bytes) ?? bytes;
  const at = xmp.indexOf("xmp:CreatorTool");
  if (at < 0) return undefined;
  const text = xmp.subarray(at, at + 2000).toString("utf8");
  const found =
    /^xmp:CreatorTool="([^"]*)"/.exec(text)?.[1] ?? /^xmp:CreatorTool>([^<]*)</.exec(text)?.[1];
  return found?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const XMP_KEYWORD = "XML:com.adobe.xmp";

/** A PNG's XMP when it is stored deflated (libvips writes it as a zTXt chunk); undefined otherwise. */
function compressedPngXmp(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    const data = bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + length));
    if (type === "IDAT" || type === "IEND") return undefined; // text chunks that matter come first
    const keywordEnd = data.indexOf(0);
    if (keywordEnd > 0 && data.toString("latin1", 0, keywordEnd) === XMP_KEYWORD) {
      try {
        if (type === "zTXt") return zlib.inflateSync(data.subarray(keywordEnd + 2));
        if (type === "iTXt" && data[keywordEnd + 1] === 1) {
          // keyword, 0, flag, method, language tag, 0, translated keyword, 0, text
          const language = data.indexOf(0, keywordEnd + 3);
          const translated = data.indexOf(0, language + 1);
          return zlib.inflateSync(data.subarray(translated + 1));
        }
      } catch {
        return undefined;
      }
    }
    at += 12 + length;
  }
  return undefined;
}

/** A digital source type URI's code, e.g. "composite" (what metadata spreadsheets show). */
export function digitalSourceTypeCode(uri: string): string {
  return uri.slice(uri.lastIndexOf("/") + 1);
}

/** The visible label of an image whose digital source type has this code (see digitalSourceTypeCode). */
export function aiLabelOf(sourceTypeCode: string): AiLabel {
  return isGenerativeSourceType(`${IPTC_DIGITAL_SOURCE_TYPE}${sourceTypeCode}`)
    ? "AI-generated"
    : "AI-edited";
}

/**
 * Encodes a finished pipeline as the stored styled image: JPEG (photographic
 * content, a fraction of PNG's size and encode time; the optimizer makes
 * PNG/WebP variants on request) with the disclosure and no other metadata.
 *
 * `optimiseCoding: false` skips the encoder's second, Huffman-table pass: the
 * same pixels, a file about 2-3% larger, in well under half the encode time.
 */
export async function encodeStyledImage(
  pipeline: Sharp,
  creatorTool: string,
  options: {
    optimiseCoding?: boolean;
    sourceType?: DigitalSourceType;
    /** What was done to the pixels since they were made (e.g. "upscaled with ESRGAN ×2"). */
    description?: string;
  } = {},
): Promise<StyleResult> {
  const { data, info } = await withDisclosure(
    pipeline.jpeg({ quality: JPEG_QUALITY, optimiseCoding: options.optimiseCoding ?? true }),
    {
      creatorTool,
      sourceType: options.sourceType ?? DIGITAL_SOURCE_TYPE,
      description: options.description,
    },
  ).toBuffer({ resolveWithObject: true });
  return { data, format: "jpg", width: info.width, height: info.height };
}
