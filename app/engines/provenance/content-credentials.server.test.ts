import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  carriesContentCredentials,
  originalIngredient,
  originalIngredientIn,
  sha256Of,
  signImage,
  styledFileFacts,
  type ManifestFacts,
} from "~/engines/provenance/content-credentials.server";
import {
  identityOf,
  selfMadeCredentials,
  SELF_MADE_ORGANIZATION,
  type SigningIdentity,
} from "~/engines/provenance/signing-identity.server";
import {
  DIGITAL_SOURCE_TYPES,
  digitalSourceTypeOfFile,
  disclosureXmp,
} from "~/engines/styling/ai-disclosure.server";
import { actionsOf, readWithC2paRs } from "#tests/setup/c2pa-reader";

/**
 * The manifests the server writes, read by an independent implementation
 * (c2pa-rs, through @contentauth/c2pa-wasm): every delivered format validates,
 * says what the file's XMP says, names the upload by hash only, and a
 * re-encoded copy has no manifest.
 */

const FORMATS = [
  { format: "jpeg", mimeType: "image/jpeg" },
  { format: "png", mimeType: "image/png" },
  { format: "webp", mimeType: "image/webp" },
] as const;

let dataDir: string;
let identity: SigningIdentity;
let original: Buffer;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-c2pa-"));
  identity = identityOf(await selfMadeCredentials(dataDir), true);
  original = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c08040" } })
    .jpeg()
    .toBuffer();
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A styled-looking image of `format` carrying the disclosure XMP of `sourceType`. */
function styledImage(
  format: "jpeg" | "png" | "webp",
  sourceType: string,
  tool = "fal.ai test-model",
) {
  const image = sharp({
    create: { width: 320, height: 240, channels: 3, background: "#3366aa" },
  }).withXmp(disclosureXmp(tool, sourceType));
  return image[format]().toBuffer();
}

function factsFor(bytes: Buffer, extra: Partial<ManifestFacts> = {}): ManifestFacts {
  return {
    ...styledFileFacts(bytes, {
      original: originalIngredient(original),
      when: new Date("2026-12-01T10:00:00Z"),
    }),
    ...extra,
  };
}

describe("signImage, read by c2pa-rs", () => {
  for (const { format, mimeType } of FORMATS) {
    it(`${format}: validates, with the XMP's source type, the upload by hash only and the product as generator`, async () => {
      const unsigned = await styledImage(format, DIGITAL_SOURCE_TYPES.fal);
      const signed = await signImage(unsigned, factsFor(unsigned), identity);

      const reading = await readWithC2paRs(signed, mimeType);
      expect(reading).not.toBeNull();
      // Valid: well-formed and unchanged; the self-made signer is on no trust list, and that is its only failure.
      expect(reading!.state).toBe("Valid");
      expect(reading!.failures).toEqual(["signingCredential.untrusted"]);
      expect(reading!.manifest.claim_generator_info?.[0]?.name).toBe("Selfie Studio");
      expect(reading!.manifest.signature_info).toMatchObject({
        issuer: SELF_MADE_ORGANIZATION,
        common_name: "Selfie Studio content signer",
      });

      const [created] = actionsOf(reading!);
      expect(created).toMatchObject({
        action: "c2pa.created",
        digitalSourceType: digitalSourceTypeOfFile(unsigned),
        softwareAgent: { name: "fal.ai test-model" },
        when: "2026-12-01T10:00:00.000Z",
      });
      expect(reading!.manifest.ingredients).toEqual([
        expect.objectContaining({
          relationship: "inputTo",
          instance_id: `sha256:${sha256Of(original)}`,
          format: "image/jpeg",
        }),
      ]);
      // By hash only: no thumbnail, no data, no copy of the selfie.
      expect(reading!.manifest.ingredients![0]).not.toHaveProperty("thumbnail");
      expect(reading!.manifest.ingredients![0]).not.toHaveProperty("data");
      expect(reading!.manifest).not.toHaveProperty("thumbnail");

      // Still the same picture, with the same disclosure, for sharp and for the XMP reader.
      const metadata = await sharp(signed).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual([format, 320, 240]);
      expect(digitalSourceTypeOfFile(signed)).toBe(DIGITAL_SOURCE_TYPES.fal);
      await sharp(signed).raw().toBuffer(); // decodes whole
    });

    it(`${format}: a re-encoded copy carries no manifest`, async () => {
      const unsigned = await styledImage(format, DIGITAL_SOURCE_TYPES.local);
      const signed = await signImage(unsigned, factsFor(unsigned), identity);
      expect(carriesContentCredentials(signed)).toBe(true);

      const resaved = await sharp(signed).keepMetadata()[format]().toBuffer();
      expect(carriesContentCredentials(resaved)).toBe(false);
      expect(await readWithC2paRs(resaved, mimeType)).toBeNull();
    });
  }

  it("a byte changed after signing fails c2pa-rs's validation", async () => {
    const unsigned = await styledImage("png", DIGITAL_SOURCE_TYPES.fal);
    const signed = await signImage(unsigned, factsFor(unsigned), identity);
    const changed = Buffer.from(signed);
    changed[changed.length - 1] ^= 0xff; // the last byte: IEND's checksum, after the manifest
    const reading = await readWithC2paRs(changed, "image/png");
    expect(reading?.state).toBe("Invalid");
    expect(reading?.failures).toContain("assertion.dataHash.mismatch");
  });

  it("the local engine's composite names the photo as a component, and an optimized copy adds what it did", async () => {
    const unsigned = await styledImage(
      "webp",
      DIGITAL_SOURCE_TYPES.local,
      "Selfie Studio local style engine",
    );
    const signed = await signImage(
      unsigned,
      factsFor(unsigned, { edited: "Optimized for delivery: WebP at quality 80, watermarked." }),
      identity,
    );
    const reading = await readWithC2paRs(signed, "image/webp");
    expect(reading?.state).toBe("Valid");
    expect(actionsOf(reading!)).toEqual([
      expect.objectContaining({
        action: "c2pa.created",
        digitalSourceType: DIGITAL_SOURCE_TYPES.local,
      }),
      expect.objectContaining({
        action: "c2pa.edited",
        description: "Optimized for delivery: WebP at quality 80, watermarked.",
      }),
    ]);
    expect(reading!.manifest.ingredients).toEqual([
      expect.objectContaining({ relationship: "componentOf" }),
    ]);
  });

  it("signing again replaces the manifest, and a file made without a known upload has no ingredient", async () => {
    const unsigned = await styledImage("jpeg", DIGITAL_SOURCE_TYPES.local);
    const once = await signImage(unsigned, factsFor(unsigned), identity);
    const twice = await signImage(once, factsFor(unsigned, { original: null }), identity);
    const reading = await readWithC2paRs(twice, "image/jpeg");
    expect(reading?.state).toBe("Valid");
    expect(reading!.manifest.ingredients ?? []).toEqual([]);
    expect(originalIngredientIn(twice)).toBeNull();
  });

  it("reads back the upload an own file names (for the optimized copy made from it)", async () => {
    const unsigned = await styledImage("jpeg", DIGITAL_SOURCE_TYPES.fal);
    const signed = await signImage(unsigned, factsFor(unsigned), identity);
    expect(originalIngredientIn(signed)).toEqual({
      sha256: sha256Of(original),
      mimeType: "image/jpeg",
    });
    expect(originalIngredientIn(unsigned)).toBeNull();
    expect(originalIngredientIn(Buffer.from("not an image"))).toBeNull();
  });

  it("refuses a format it cannot write into", async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    await expect(signImage(gif, factsFor(gif), identity)).rejects.toThrow(/JPEG, PNG and WebP/);
  });
});
