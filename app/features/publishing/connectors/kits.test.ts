import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { buildMintKit } from "~/features/publishing/connectors/mint-kit.server";
import type { Erc721Metadata } from "~/features/publishing/connectors/mint-kit.server";
import { buildExportPackage } from "~/features/publishing/connectors/export-package.server";
import { readZip, writeZip } from "~/features/publishing/connectors/zip-archive.server";
import { fixture } from "#tests/setup/studio";
import { DIGITAL_SOURCE_TYPES, disclosureXmp } from "~/engines/styling/ai-disclosure.server";

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";

/** EIP-721's "ERC721 Metadata JSON Schema" (name, description, image), plus the attributes marketplaces read. */
function expectErc721Shape(value: unknown): asserts value is Erc721Metadata {
  expect(value).toBeTypeOf("object");
  const metadata = value as Record<string, unknown>;
  expect(typeof metadata.name).toBe("string");
  expect((metadata.name as string).length).toBeGreaterThan(0);
  expect(typeof metadata.description).toBe("string");
  expect(typeof metadata.image).toBe("string");
  expect(() => new URL(metadata.image as string)).not.toThrow();
  expect(Array.isArray(metadata.attributes)).toBe(true);
  for (const attribute of metadata.attributes as unknown[]) {
    expect(Object.keys(attribute as object).sort()).toEqual(["trait_type", "value"]);
    expect(typeof (attribute as { trait_type: unknown }).trait_type).toBe("string");
    expect(typeof (attribute as { value: unknown }).value).toBe("string");
  }
}

describe("zip archives", () => {
  it("round-trip, and standard unzip accepts them", () => {
    const entries = [
      { name: "a.txt", data: Buffer.from("hello") },
      { name: "dir/b.bin", data: Buffer.from([0, 1, 2, 255]) },
    ];
    const zip = writeZip(entries, new Date("2026-11-22T10:00:00Z"));
    expect(readZip(zip)).toEqual(entries);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zip-"));
    const file = path.join(dir, "t.zip");
    fs.writeFileSync(file, zip);
    let unzip: string | null = null;
    try {
      unzip = execFileSync("unzip", ["-t", file], { encoding: "utf8" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (unzip !== null) expect(unzip).toMatch(/No errors detected/);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(() => writeZip([{ name: "../evil", data: Buffer.alloc(1) }])).toThrow();
  });
});

describe("the NFT mint kit", () => {
  it("holds ERC-721 metadata (style, AI-generated, license) and the image", async () => {
    // As the fal.ai engine writes it: its digital source type in the file's XMP, which the kit carries.
    const image = await sharp(fixture("portrait.png"))
      .png()
      .withXmp(disclosureXmp("fal.ai test", DIGITAL_SOURCE_TYPES.fal))
      .toBuffer();
    const { metadata, zip } = buildMintKit({
      platformName: "OpenSea",
      title: "Anime Style Selfie",
      description: "Me, in anime.",
      style: "anime",
      tags: ["anime", "portrait"],
      image: {
        data: image,
        extension: "png",
        url: "https://selfie.example/media/kits/abc.png?exp=1&sig=x",
      },
      externalUrl: "https://selfie.example/marketplace?listing=L1",
      licenseUrl: "https://selfie.example/license",
      walletAddress: WALLET,
      createdAt: new Date("2026-11-22T10:00:00Z"),
    });
    const entries = readZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual([
      "metadata.json",
      "image.png",
      "README.txt",
    ]);
    const parsed: unknown = JSON.parse(entries[0].data.toString("utf8"));
    expectErc721Shape(parsed);
    expect(parsed).toEqual(metadata);
    expect(parsed.name).toBe("Anime Style Selfie");
    expect(parsed.image).toBe("https://selfie.example/media/kits/abc.png?exp=1&sig=x");
    expect(parsed.external_url).toBe("https://selfie.example/marketplace?listing=L1");
    expect(parsed.attributes).toEqual(
      expect.arrayContaining([
        { trait_type: "Style", value: "Anime" },
        { trait_type: "AI Generated", value: "Yes" },
        { trait_type: "Digital Source Type", value: "trainedAlgorithmicMedia" },
      ]),
    );
    expect(parsed.license).toBe("https://selfie.example/license");
    expect(parsed.description).toContain("https://selfie.example/license");
    expect(parsed.properties.creator_address).toBe(WALLET);
    expect(parsed.properties.ai_generated).toBe(true);
    expect(entries[1].data.equals(image)).toBe(true);
    expect(parsed.properties.files[0]).toMatchObject({ uri: "image.png", type: "image/png" });
    expect(entries[2].data.toString("utf8")).toContain("never holds your keys");
  });
});

describe("the stock export package", () => {
  it("embeds title, description, keywords, copyright and the AI disclosure as XMP in a full-resolution JPEG, plus a CSV", async () => {
    const source = await sharp(fixture("portrait.png"))
      .resize(1024, 1024)
      .png()
      .withXmp(disclosureXmp("fal.ai test", DIGITAL_SOURCE_TYPES.fal))
      .toBuffer();
    const pack = await buildExportPackage({
      platformName: "EyeEm",
      title: 'Fantasy "Hero" Selfie',
      description: "A dramatic portrait & more",
      style: "fantasy",
      tags: ["hero", "=cmd", "portrait"],
      creatorName: "Ada Lovelace",
      priceCents: 4250,
      currency: "usd",
      source,
      createdAt: new Date("2026-11-22T10:00:00Z"),
    });
    const entries = readZip(pack.zip);
    expect(entries.map((entry) => entry.name)).toEqual([
      "fantasy-hero-selfie.jpg",
      "metadata.csv",
      "README.txt",
    ]);
    const jpeg = entries[0].data;

    const metadata = await sharp(jpeg).metadata();
    expect(metadata.format).toBe("jpeg");
    expect([metadata.width, metadata.height]).toEqual([1024, 1024]);
    const xmp = metadata.xmp!.toString("utf8");
    expect(xmp).toContain(
      'Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"',
    );
    expect(xmp).toMatch(
      /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Fantasy &#34;Hero&#34; Selfie<\/rdf:li>/,
    );
    expect(xmp).toMatch(
      /<dc:description><rdf:Alt><rdf:li xml:lang="x-default">A dramatic portrait &#38; more<\/rdf:li>/,
    );
    expect(xmp).toContain("<rdf:li>hero</rdf:li>");
    expect(xmp).toContain("<rdf:li>Fantasy</rdf:li>");
    expect(xmp).toContain("<rdf:li>AI generated</rdf:li>");
    expect(xmp).toMatch(
      /<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">© 2026 Ada Lovelace<\/rdf:li>/,
    );
    expect(xmp).toContain("<dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li>");

    const csv = entries[1].data.toString("utf8");
    const [header, row] = csv.trim().split("\r\n");
    expect(header).toBe(
      '"Filename","Title","Description","Keywords","Copyright","Creator","AI Generated","Digital Source Type","Style","Price (USD)"',
    );
    expect(row).toContain('"Fantasy ""Hero"" Selfie"');
    expect(row).toContain('"trainedAlgorithmicMedia"');

    // A file the local engine made (a composite) is exported as one.
    const local = await buildExportPackage({
      platformName: "EyeEm",
      title: "Local",
      description: "",
      style: "cartoon",
      tags: [],
      creatorName: "Ada Lovelace",
      priceCents: 2500,
      currency: "usd",
      source: await sharp(fixture("portrait.png"))
        .png()
        .withXmp(disclosureXmp("local test", DIGITAL_SOURCE_TYPES.local))
        .toBuffer(),
      createdAt: new Date("2026-11-22T10:00:00Z"),
    });
    expect((await sharp(local.jpeg).metadata()).xmp!.toString("utf8")).toContain(
      'Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/composite"',
    );
    expect(local.csv).toContain('"composite"');
    expect(row).toContain('"42.50"');
    // A keyword that looks like a spreadsheet formula is defused in the CSV.
    expect(row).toContain('"hero, =cmd');
    expect(pack.keywords).toContain("=cmd");
    expect(csv).not.toMatch(/","=cmd/);
  });
});
