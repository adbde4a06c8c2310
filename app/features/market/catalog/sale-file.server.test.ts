import crypto from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { StylizedImageRow } from "#db/schema";
import { getDb } from "~/infra/db.server";
import { getConfig } from "~/infra/config.server";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import { invoke } from "~/infra/procedure.server";
import { plainContext } from "~/infra/call-context.server";
import {
  creatorToolIn,
  descriptionIn,
  DIGITAL_SOURCE_TYPES,
  digitalSourceTypeIn,
  encodeStyledImage,
} from "~/engines/styling/ai-disclosure.server";
import { createFalUpscaler } from "~/engines/upscaling/fal-upscaler.server";
import { localUpscaler } from "~/engines/upscaling/upscaler.server";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import { listStylizedImage } from "~/features/market/catalog/listings.server";
import { listOnMarketplace } from "~/features/market/catalog/creator-listings.procedures.server";
import { previewWidthOf } from "~/features/market/catalog/listing-preview.server";
import { enlargeUndersizedListings } from "~/features/market/catalog/sale-file.server";
import { SALE_MIN_LONG_EDGE } from "~/lib/sale-size";
import { createTestUser } from "#tests/setup/accounts";
import { testTies } from "#tests/setup/ties";
import {
  carriesContentCredentials,
  contentCredentialsFor,
  originalIngredient,
  sha256Of,
  styledFileFacts,
} from "~/engines/provenance/content-credentials.server";
import { actionsOf, readWithC2paRs } from "#tests/setup/c2pa-reader";
import { rowWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";
import { imageRow } from "#tests/setup/table-rows";
import { serveFalMock } from "#tests/setup/fal-mock-server";

const { fal } = serveFalMock();

const id = () => crypto.randomBytes(9).toString("base64url");
const CREATOR_TOOL = "Selfie Studio local style engine v4 (anime)";
const credentials = () => contentCredentialsFor(getConfig());
/** The upload the signed styled files are made from (named by hash in their Content Credentials). */
const UPLOAD = Buffer.from("an uploaded photo's bytes");

/** A styled JPEG of `width`×`height` with the engine's disclosure, as the style engines write it. */
async function styledFile(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    const x = (i / 3) % width;
    const y = Math.floor(i / 3 / width);
    pixels[i] = (x * 255) / width;
    pixels[i + 1] = (y * 255) / height;
    pixels[i + 2] = ((x ^ y) * 7) & 255;
  }
  const { data } = await encodeStyledImage(
    sharp(pixels, { raw: { width, height, channels: 3 } }),
    CREATOR_TOOL,
  );
  return data;
}

/** A completed stylized image of `styled` px made from an upload of `upload` px (likeness self: it may be sold). */
async function stylizedOfSize(
  userId: string,
  sizes: { upload: [number, number]; styled: [number, number] },
  fields: Partial<StylizedImageRow> = {},
  options: { signed?: boolean } = {},
): Promise<StylizedImageRow> {
  const now = new Date().toISOString();
  const imageId = id();
  await getDb()
    .insertInto("images")
    .values(
      imageRow({ id: imageId, user_id: userId }, now, {
        file_key: newFileKey("originals", "png"),
        width: sizes.upload[0],
        height: sizes.upload[1],
        likeness: "self",
      }),
    )
    .execute();
  const unsigned = await styledFile(...sizes.styled);
  // Signed as the styling job signs it (naming UPLOAD by hash), or as a file styled before that.
  const bytes = options.signed
    ? await credentials().sign(
        unsigned,
        styledFileFacts(unsigned, { original: originalIngredient(UPLOAD), when: new Date(now) }),
      )
    : unsigned;
  const key = newFileKey("styled", "jpg");
  await getFileStore().write(key, bytes);
  return getDb()
    .insertInto("stylized_images")
    .values({
      id: id(),
      image_id: imageId,
      user_id: userId,
      style: "anime",
      status: "completed",
      provider: "local",
      file_key: key,
      width: sizes.styled[0],
      height: sizes.styled[1],
      bytes: bytes.length,
      created_at: now,
      updated_at: now,
      completed_at: now,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const input = (stylizedImageId: string) =>
  listingInputSchema.parse({ stylizedImageId, title: "Portrait", price: "35", tags: "portrait" });

/** `userId` lists the stylized image `stylizedImageId` (with `extra` options of listStylizedImage's) on the test file store. */
function listAs(
  userId: string,
  stylizedImageId: string,
  extra: Partial<Parameters<typeof listStylizedImage>[2]> = {},
) {
  return listStylizedImage(getDb(), getFileStore(), {
    userId,
    input: input(stylizedImageId),
    now: new Date(),
    credentials: credentials(),
    ...extra,
  });
}

async function soldFile(fileKey: string) {
  const bytes = await getFileStore().read(fileKey);
  const meta = await sharp(bytes).metadata();
  const xmp = meta.xmp?.toString("utf8") ?? "";
  return { bytes, meta, xmp, exif: meta.exif?.toString("latin1") ?? "" };
}

describe("the file a listing sells", () => {
  it("upscales a 480×600 style to 2048 px on its long edge with the local Lanczos, and says so", async () => {
    const { user } = await createTestUser();
    const stylized = await stylizedOfSize(user.id, { upload: [480, 600], styled: [480, 600] });
    const { listing } = await listAs(user.id, stylized.id);
    const file = await soldFile(listing.file_key);
    // At least 2048 px on its long edge and at least the upload's size, with the same shape.
    expect([file.meta.width, file.meta.height]).toEqual([1638, 2048]);
    expect([listing.width, listing.height]).toEqual([1638, 2048]);
    expect(file.meta.format).toBe("jpeg");
    expect(listing.file_mime_type).toBe("image/jpeg");
    // How it was made stays; how it was enlarged is added, in XMP and in EXIF's ImageDescription.
    expect(digitalSourceTypeIn(file.xmp)).toBe(DIGITAL_SOURCE_TYPES.local);
    expect(creatorToolIn(file.xmp)).toBe(CREATOR_TOOL);
    expect(descriptionIn(file.xmp)).toBe("upscaled with Lanczos ×3.41");
    expect(file.exif).toContain("upscaled with Lanczos x3.41");
    expect([listing.upscaled_by, listing.native_width, listing.native_height]).toEqual([
      "lanczos3",
      480,
      600,
    ]);
    expect(listing.source_type).toBe("composite");
    // The preview is drawn from the same pixels: the size the marketplace says it is.
    const preview = await sharp(await getFileStore().read(listing.preview_key)).metadata();
    expect(preview.width).toBe(previewWidthOf(listing.width, listing.height));
    // The styled image itself is left as it was.
    const styled = await sharp(await getFileStore().read(stylized.file_key!)).metadata();
    expect([styled.width, styled.height]).toEqual([480, 600]);
  });

  it("signs an upscaled file anew: made as the styled file says, from the upload its manifest names, then upscaled", async () => {
    const { user } = await createTestUser();
    const stylized = await stylizedOfSize(
      user.id,
      { upload: [480, 600], styled: [480, 600] },
      {},
      { signed: true },
    );
    const now = new Date("2026-12-02T09:30:00.000Z");
    const { listing } = await listAs(user.id, stylized.id, { now });
    const file = await soldFile(listing.file_key);
    // c2pa-rs, the standard's own reader: well-formed and unchanged (the self-made signer is trusted by no list).
    const reading = await readWithC2paRs(file.bytes, "image/jpeg");
    expect(reading?.state).toBe("Valid");
    expect(actionsOf(reading!)).toEqual([
      expect.objectContaining({
        action: "c2pa.created",
        digitalSourceType: DIGITAL_SOURCE_TYPES.local,
        softwareAgent: { name: CREATOR_TOOL },
      }),
      expect.objectContaining({
        action: "c2pa.edited",
        description:
          "Enlarged to 1638 × 2048 px for sale by Selfie Studio: upscaled with Lanczos ×3.41.",
        when: now.toISOString(),
      }),
    ]);
    expect(reading!.manifest.ingredients).toEqual([
      expect.objectContaining({ instance_id: `sha256:${sha256Of(UPLOAD)}` }),
    ]);
    // By hash only: no thumbnail of the upload travels with the file.
    expect(reading!.manifest.ingredients![0]).not.toHaveProperty("thumbnail");
  });

  it("is never smaller than an upload larger than 2048 px", async () => {
    const { user } = await createTestUser();
    const stylized = await stylizedOfSize(user.id, { upload: [2400, 1800], styled: [1200, 900] });
    const { listing } = await listAs(user.id, stylized.id);
    const file = await soldFile(listing.file_key);
    expect([file.meta.width, file.meta.height]).toEqual([2400, 1800]);
    expect(descriptionIn(file.xmp)).toBe("upscaled with Lanczos ×2");
  });

  it("sells a file already large enough byte for byte, with what its engine recorded of its enlargement", async () => {
    const { user } = await createTestUser();
    const plain = await stylizedOfSize(
      user.id,
      { upload: [512, 512], styled: [2048, 1536] },
      {},
      { signed: true },
    );
    const enlarged = await stylizedOfSize(
      user.id,
      { upload: [512, 512], styled: [2048, 1536] },
      { provider: "fal", upscaled_by: "fal-ai/esrgan", native_width: 768, native_height: 576 },
      { signed: true },
    );
    for (const stylized of [plain, enlarged]) {
      const { listing } = await listAs(user.id, stylized.id);
      const sold = await getFileStore().read(listing.file_key);
      // Its Content Credentials included: the manifest the styling job signed still binds these bytes.
      expect(sold.equals(await getFileStore().read(stylized.file_key!))).toBe(true);
      expect(carriesContentCredentials(sold)).toBe(true);
      expect([listing.width, listing.height]).toEqual([2048, 1536]);
      expect([listing.upscaled_by, listing.native_width, listing.native_height]).toEqual(
        stylized === plain ? [null, null, null] : ["fal-ai/esrgan", 768, 576],
      );
    }
  });

  it("upscales with fal.ai's Real-ESRGAN when the server has FAL_KEY (the listing procedure)", async () => {
    const { user } = await createTestUser();
    const stylized = await stylizedOfSize(user.id, { upload: [480, 600], styled: [480, 600] });
    fal.setResultSize(480, 600); // the upscaler answers `scale` times this
    const config = { ...getConfig(), FAL_KEY: "key-id:key-secret", FAL_TIMEOUT_SECONDS: 30 };
    const { listing } = await invoke(
      listOnMarketplace,
      user,
      { stylizedImageId: stylized.id, title: "Portrait", price: "35", tags: "portrait" },
      plainContext("http://localhost:3000", { ties: testTies, config }),
    );
    // The file went to fal's storage and through fal-ai/esrgan, asked for ×4 (the least that reaches 2048).
    expect(fal.state.uploads).toHaveLength(1);
    expect(fal.state.requests.map((request) => [request.model, request.input.scale])).toEqual([
      ["fal-ai/esrgan", 4],
    ]);
    expect(fal.state.requests[0].authorization).toBe("Key key-id:key-secret");
    const row = await rowWhere("listings", "*", "id", listing.id);
    const file = await soldFile(row.file_key);
    expect([file.meta.width, file.meta.height]).toEqual([1638, 2048]);
    expect(descriptionIn(file.xmp)).toBe("upscaled with ESRGAN ×3.41");
    expect(file.exif).toContain("upscaled with ESRGAN x3.41");
    expect(digitalSourceTypeIn(file.xmp)).toBe(DIGITAL_SOURCE_TYPES.local);
    expect(row.upscaled_by).toBe("fal-ai/esrgan");
  });

  it("falls back to the local Lanczos when fal.ai's upscaler fails, and records that", async () => {
    const { user } = await createTestUser();
    const stylized = await stylizedOfSize(user.id, { upload: [480, 600], styled: [480, 600] });
    fal.failUpscaler();
    const { listing } = await listAs(user.id, stylized.id, {
      upscaler: createFalUpscaler({ credentials: "k", timeoutMs: 10_000, pollIntervalMs: 5 }),
    });
    expect(fal.state.uploads).toHaveLength(1); // it was asked
    const file = await soldFile(listing.file_key);
    expect([file.meta.width, file.meta.height]).toEqual([1638, 2048]);
    expect(descriptionIn(file.xmp)).toBe("upscaled with Lanczos ×3.41");
    expect(listing.upscaled_by).toBe("lanczos3");
  });
});

describe("listings made before sold files had a size", () => {
  /** An active listing as an older version made it: the styled file's 480×600 bytes, as they were. */
  async function oldListing(userId: string) {
    const stylized = await stylizedOfSize(userId, { upload: [480, 600], styled: [480, 600] });
    const store = getFileStore();
    const fileKey = newFileKey("listings", "jpg");
    const previewKey = newFileKey("previews", "jpg");
    const bytes = await store.read(stylized.file_key!);
    await store.write(fileKey, bytes);
    await store.write(previewKey, await sharp(bytes).jpeg().toBuffer());
    const now = new Date().toISOString();
    return getDb()
      .insertInto("listings")
      .values({
        id: id(),
        user_id: userId,
        stylized_image_id: stylized.id,
        title: "Old portrait",
        description: "",
        price_cents: 3500,
        style: "anime",
        status: "active",
        file_key: fileKey,
        file_mime_type: "image/jpeg",
        source_file_key: stylized.file_key!,
        width: 480,
        height: 600,
        preview_key: previewKey,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  it("are enlarged by the periodic sweep, a few at a time, withdrawn ones left alone", async () => {
    const { user } = await createTestUser();
    const old = await oldListing(user.id);
    const withdrawn = await oldListing(user.id);
    await updateWhere("listings", { status: "withdrawn" }, "id", withdrawn.id);
    const now = new Date("2026-12-01T10:00:00.000Z");
    // Undersized listings of other tests may come first: it runs until none is left.
    const sweep = () =>
      enlargeUndersizedListings(getDb(), getFileStore(), {
        upscaler: localUpscaler,
        credentials: credentials(),
        now,
      });
    let runs = 1;
    while ((await sweep()) > 0) runs += 1;
    expect(runs).toBeLessThan(10);
    const rows = await getDb()
      .selectFrom("listings")
      .selectAll()
      .where("id", "in", [old.id, withdrawn.id])
      .execute();
    const enlarged = rows.find((row) => row.id === old.id)!;
    expect([enlarged.width, enlarged.height]).toEqual([1638, 2048]);
    expect(enlarged.file_key).not.toBe(old.file_key);
    expect(enlarged.preview_key).not.toBe(old.preview_key);
    expect(enlarged.updated_at).toBe(now.toISOString());
    expect([enlarged.upscaled_by, enlarged.native_width, enlarged.native_height]).toEqual([
      "lanczos3",
      480,
      600,
    ]);
    const file = await soldFile(enlarged.file_key);
    expect(Math.max(file.meta.width!, file.meta.height!)).toBeGreaterThanOrEqual(
      SALE_MIN_LONG_EDGE,
    );
    expect(descriptionIn(file.xmp)).toBe("upscaled with Lanczos ×3.41");
    expect(creatorToolIn(file.xmp)).toBe(CREATOR_TOOL);
    // The old file had no Content Credentials; the enlarged one is signed, saying it was upscaled.
    const reading = await readWithC2paRs(file.bytes, "image/jpeg");
    expect(reading?.state).toBe("Valid");
    expect(actionsOf(reading!).map((action) => action.action)).toEqual([
      "c2pa.created",
      "c2pa.edited",
    ]);
    // The replaced files go (no order names them); the withdrawn listing is as it was.
    expect(await getFileStore().exists(old.file_key)).toBe(false);
    expect(await getFileStore().exists(old.preview_key)).toBe(false);
    const untouched = rows.find((row) => row.id === withdrawn.id)!;
    expect([untouched.width, untouched.file_key]).toEqual([480, withdrawn.file_key]);
  });

  it("are enlarged when their creator saves them again", async () => {
    const { user } = await createTestUser();
    const old = await oldListing(user.id);
    const { listing, created } = await listAs(user.id, old.stylized_image_id!);
    expect(created).toBe(false);
    expect(listing.id).toBe(old.id);
    expect([listing.width, listing.height]).toEqual([1638, 2048]);
    expect(listing.upscaled_by).toBe("lanczos3");
  });
});
