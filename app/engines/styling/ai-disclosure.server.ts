import type { Sharp } from "sharp";
import type { StyleResult } from "~/engines/styling/style-engine.server";

/**
 * Every styled image carries an honest disclosure that it was made by
 * software: IPTC's DigitalSourceType in XMP, plus the tool that made it.
 * Nothing from the input's metadata is carried over (sharp drops it all
 * unless told otherwise, and we never tell it otherwise).
 */
export const DIGITAL_SOURCE_TYPE =
  "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia";

/** The long edge of every styled image, in pixels, at most. */
export const STYLED_MAX_EDGE = 1024;

const JPEG_QUALITY = 90;

function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** An XMP packet with the digital source type and the tool that made the image. */
export function disclosureXmp(creatorTool: string): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about=""',
    ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"',
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    ` Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPE}"`,
    ` xmp:CreatorTool="${escapeXml(creatorTool)}"/>`,
    "</rdf:RDF>",
    "</x:xmpmeta>",
    '<?xpacket end="r"?>',
  ].join("");
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
  options: { optimiseCoding?: boolean } = {},
): Promise<StyleResult> {
  const { data, info } = await pipeline
    .jpeg({ quality: JPEG_QUALITY, optimiseCoding: options.optimiseCoding ?? true })
    .withXmp(disclosureXmp(creatorTool))
    .toBuffer({ resolveWithObject: true });
  return { data, format: "jpg", width: info.width, height: info.height };
}
