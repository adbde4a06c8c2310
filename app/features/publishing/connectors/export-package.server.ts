import sharp from "sharp";
import { styleName } from "~/lib/styles";
import { PRODUCT_NAME } from "~/lib/product";
import { csvLine } from "~/lib/csv";
import {
  digitalSourceTypeCode,
  digitalSourceTypeOfFile,
  isGenerativeSourceType,
} from "~/engines/styling/ai-disclosure.server";
import { writeZip } from "~/features/publishing/connectors/zip-archive.server";

/**
 * The stock-photo export package: the full-resolution JPEG with its title,
 * description, keywords, copyright and its IPTC digital source type embedded
 * as XMP (what stock sites read on upload), plus the same metadata as a CSV
 * for sites that take a spreadsheet, and a README. Whether the package calls
 * the image AI generated (a keyword, the CSV's "AI Generated" column, the
 * README's advice) follows the digital source type the file itself declares:
 * yes for what a generative model made (the fal.ai styles), no for the local
 * engine's composites. The price column names the platform's currency.
 */

export interface ExportPackageInput {
  platformName: string;
  title: string;
  description: string;
  style: string;
  tags: string[];
  creatorName: string;
  priceCents: number;
  /** The platform's settlement currency (CURRENCY, lowercase ISO code): the price is in it. */
  currency: string;
  source: Buffer;
  createdAt: Date;
}

export interface ExportPackage {
  jpeg: Buffer;
  csv: string;
  zip: Buffer;
  fileName: string;
  keywords: string[];
  copyright: string;
}

const JPEG_QUALITY = 95;

function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Keywords: the creator's tags, then the style, "AI generated" when the image
 * is (its digital source type says a generative model made it: see
 * isGenerativeSourceType), "portrait" and "selfie" (deduplicated, at most 50).
 */
export function exportKeywords(tags: string[], style: string, aiGenerated: boolean): string[] {
  const seen = new Map<string, string>();
  const disclosure = aiGenerated ? ["AI generated"] : [];
  for (const word of [...tags, styleName(style), ...disclosure, "portrait", "selfie"]) {
    const trimmed = word.trim();
    if (trimmed && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()].slice(0, 50);
}

export function exportXmp(fields: {
  title: string;
  description: string;
  keywords: string[];
  copyright: string;
  creator: string;
  /** The IPTC digital source type of the exported image (digitalSourceTypeOfFile of its bytes). */
  sourceType: string;
}): string {
  const alt = (value: string) =>
    `<rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(value)}</rdf:li></rdf:Alt>`;
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about=""',
    ' xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    ' xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/"',
    ' xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"',
    ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"',
    ` Iptc4xmpExt:DigitalSourceType="${escapeXml(fields.sourceType)}"`,
    ` xmp:CreatorTool="${escapeXml(PRODUCT_NAME)}"`,
    ' xmpRights:Marked="True"',
    ` photoshop:Headline="${escapeXml(fields.title)}">`,
    `<dc:title>${alt(fields.title)}</dc:title>`,
    `<dc:description>${alt(fields.description)}</dc:description>`,
    `<dc:subject><rdf:Bag>${fields.keywords.map((k) => `<rdf:li>${escapeXml(k)}</rdf:li>`).join("")}</rdf:Bag></dc:subject>`,
    `<dc:rights>${alt(fields.copyright)}</dc:rights>`,
    `<dc:creator><rdf:Seq><rdf:li>${escapeXml(fields.creator)}</rdf:li></rdf:Seq></dc:creator>`,
    "</rdf:Description>",
    "</rdf:RDF>",
    "</x:xmpmeta>",
    '<?xpacket end="w"?>',
  ].join("");
}

export function exportCsv(row: Record<string, string>): string {
  const headers = Object.keys(row);
  return csvLine(headers) + csvLine(headers.map((h) => row[h]));
}

function slug(value: string): string {
  const text = value
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return text || "image";
}

function readme(input: ExportPackageInput, fileName: string, sourceType: string): string {
  const disclosure = isGenerativeSourceType(sourceType)
    ? [
        "This image was made by a generative AI model: mark it as AI generated where the site asks.",
        "Keep the disclosure: most stock sites require AI-generated images to be marked as such,",
        "and some do not accept them at all; check their contributor rules first.",
      ]
    : [
        "No generative AI model made this image: it is your photo combined with backgrounds and",
        "effects drawn by code (IPTC: composite). Do not mark it as AI generated; where a site asks",
        "how it was made, say it is an edited photo (a composite). Check its contributor rules first.",
      ];
  return [
    `Export package for ${input.platformName}: "${input.title}"`,
    "",
    "What is inside",
    `- ${fileName}: the image at full resolution. Its title, description, keywords, copyright`,
    `  and how it was made (IPTC Digital Source Type: ${digitalSourceTypeCode(sourceType)}) are embedded as XMP,`,
    "  which stock sites read when you upload.",
    "- metadata.csv: the same metadata, for sites that take a spreadsheet.",
    "",
    `How to publish: sign in to ${input.platformName}, upload ${fileName} and check the prefilled fields.`,
    ...disclosure,
    "",
  ].join("\n");
}

export async function buildExportPackage(input: ExportPackageInput): Promise<ExportPackage> {
  const style = styleName(input.style);
  const sourceType = digitalSourceTypeOfFile(input.source);
  const generative = isGenerativeSourceType(sourceType);
  const description =
    input.description.trim() ||
    `${generative ? "An AI-stylized" : "A stylized"} selfie in the ${style.toLowerCase()} style.`;
  const keywords = exportKeywords(input.tags, input.style, generative);
  const copyright = `© ${input.createdAt.getUTCFullYear()} ${input.creatorName}`;
  const jpeg = await sharp(input.source, { failOn: "error" })
    .rotate()
    .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: "4:4:4" })
    .withXmp(
      exportXmp({
        title: input.title,
        description,
        keywords,
        copyright,
        creator: input.creatorName,
        sourceType,
      }),
    )
    .toBuffer();
  const fileName = `${slug(input.title)}.jpg`;
  const csv = exportCsv({
    Filename: fileName,
    Title: input.title,
    Description: description,
    Keywords: keywords.join(", "),
    Copyright: copyright,
    Creator: input.creatorName,
    "AI Generated": generative ? "Yes" : "No",
    "Digital Source Type": digitalSourceTypeCode(sourceType),
    Style: style,
    [`Price (${input.currency.toUpperCase()})`]: (input.priceCents / 100).toFixed(2),
  });
  const zip = writeZip(
    [
      { name: fileName, data: jpeg },
      { name: "metadata.csv", data: Buffer.from(csv, "utf8") },
      { name: "README.txt", data: Buffer.from(readme(input, fileName, sourceType), "utf8") },
    ],
    input.createdAt,
  );
  return { jpeg, csv, zip, fileName, keywords, copyright };
}
