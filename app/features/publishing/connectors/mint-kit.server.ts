import crypto from "node:crypto";
import { styleName } from "~/lib/styles";
import { PRODUCT_NAME } from "~/lib/product";
import { LICENSE_NAME } from "~/lib/license-terms";
import {
  digitalSourceTypeCode,
  digitalSourceTypeOfFile,
} from "~/engines/styling/ai-disclosure.server";
import { writeZip } from "~/features/publishing/connectors/zip-archive.server";

/**
 * The NFT mint kit: ERC-721 metadata JSON (EIP-721's metadata JSON schema:
 * name, description, image, plus the widely read external_url and
 * attributes) and the image itself, for the creator to mint with their own
 * wallet. The product never holds a private key and never signs anything.
 */

export interface Erc721Attribute {
  trait_type: string;
  value: string;
}

export interface Erc721Metadata {
  name: string;
  description: string;
  /** A URI of the image (ours, absolute; replace it with ipfs:// once pinned). */
  image: string;
  external_url: string;
  attributes: Erc721Attribute[];
  license: string;
  properties: {
    ai_generated: true;
    digital_source_type: string;
    license_name: string;
    license_url: string;
    creator_address: string | null;
    tags: string[];
    files: { uri: string; type: string; sha256: string }[];
  };
}

export interface MintKitInput {
  platformName: string;
  title: string;
  description: string;
  style: string;
  tags: string[];
  image: { data: Buffer; extension: "png" | "jpg"; url: string };
  externalUrl: string;
  licenseUrl: string;
  walletAddress: string | null;
  createdAt: Date;
}

const MIME = { png: "image/png", jpg: "image/jpeg" } as const;

export function mintKitMetadata(input: MintKitInput): Erc721Metadata {
  const fileName = `image.${input.image.extension}`;
  const style = styleName(input.style);
  const sourceType = digitalSourceTypeOfFile(input.image.data);
  const description = [
    input.description.trim() || `An AI-stylized selfie in the ${style.toLowerCase()} style.`,
    `AI-generated with ${PRODUCT_NAME} (${style} style). License: ${LICENSE_NAME}, ${input.licenseUrl}`,
  ].join("\n\n");
  return {
    name: input.title,
    description,
    image: input.image.url,
    external_url: input.externalUrl,
    attributes: [
      { trait_type: "Style", value: style },
      { trait_type: "AI Generated", value: "Yes" },
      { trait_type: "Digital Source Type", value: digitalSourceTypeCode(sourceType) },
      { trait_type: "License", value: LICENSE_NAME },
    ],
    license: input.licenseUrl,
    properties: {
      ai_generated: true,
      digital_source_type: sourceType,
      license_name: LICENSE_NAME,
      license_url: input.licenseUrl,
      creator_address: input.walletAddress,
      tags: input.tags,
      files: [
        {
          uri: fileName,
          type: MIME[input.image.extension],
          sha256: crypto.createHash("sha256").update(input.image.data).digest("hex"),
        },
      ],
    },
  };
}

function readme(input: MintKitInput): string {
  return [
    `Mint kit for ${input.platformName}: "${input.title}"`,
    "",
    "What is inside",
    `- image.${input.image.extension}: the image to mint, at full resolution.`,
    "- metadata.json: ERC-721 metadata (name, description, image, attributes, license).",
    "",
    "How to mint",
    `1. Sign in to ${input.platformName} with your own wallet${input.walletAddress ? ` (${input.walletAddress})` : ""}.`,
    `2. Create a new item, upload image.${input.image.extension}, and copy the name, description and`,
    "   attributes (traits) from metadata.json.",
    '3. If you mint with your own contract, pin the image to IPFS and replace the "image" value',
    "   in metadata.json with its ipfs:// URI (the link in it is ours and expires after a year).",
    "",
    `${PRODUCT_NAME} never holds your keys: you sign and pay any network fee yourself.`,
    'The image is AI-generated; keep the "AI Generated" attribute so collectors know.',
    "",
  ].join("\n");
}

/** The kit as a zip: metadata.json, the image and a README. */
export function buildMintKit(input: MintKitInput): { metadata: Erc721Metadata; zip: Buffer } {
  const metadata = mintKitMetadata(input);
  const zip = writeZip(
    [
      {
        name: "metadata.json",
        data: Buffer.from(JSON.stringify(metadata, null, 2) + "\n", "utf8"),
      },
      { name: `image.${input.image.extension}`, data: input.image.data },
      { name: "README.txt", data: Buffer.from(readme(input), "utf8") },
    ],
    input.createdAt,
  );
  return { metadata, zip };
}
