import { beforeEach, describe, expect, it } from "vitest";
import * as media from "~/routes/_resources+/media.$";
import { loader as downloadRoute } from "~/routes/_resources+/downloads.$token";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { getConfig } from "~/infra/config.server";
import { DIGITAL_SOURCE_TYPES, disclosureXmp } from "~/engines/styling/ai-disclosure.server";
import { contentCredentialsFor, sha256Of } from "~/engines/provenance/content-credentials.server";
import { listStylizedImage } from "~/features/market/catalog/listings.server";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { studioWorker, testStyleEngine } from "#tests/setup/studio";
import { stylizeRequest, uploadedImage } from "#tests/setup/studio-api";
import { apiRoute } from "#tests/setup/api-routes";
import { buyAtTestCheckout, paymentStatusOf } from "#tests/setup/test-checkout";
import { actionsOf, readWithC2paRs } from "#tests/setup/c2pa-reader";
import { updateWhere } from "#tests/setup/update-where";

/**
 * Every file the product delivers carries Content Credentials that an
 * independent reader (c2pa-rs) validates: the styled file the styling job
 * stores, each optimized copy (JPEG, PNG, WebP), and the file a buyer
 * downloads (here upscaled to its sale size); each says what the file's XMP
 * says and names the same upload by its hash.
 */

const optimize = apiRoute("/api/images/optimize");

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

async function mediaBytes(url: string): Promise<Buffer> {
  const key = url.split("?")[0].replace("/media/", "");
  const response = await callRoute(media.loader, makeRequest(url), { "*": key });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe("Content Credentials on every delivered file", () => {
  it("the styled file, its optimized copies and the purchased download validate and name the upload by hash", async () => {
    const { user, token } = await createTestUser();
    const image = await uploadedImage(token);
    const stylize = await stylizeRequest(image.id, { style: "anime" }, { token });
    const { id } = (await stylize.json()) as { id: string };
    const engine = testStyleEngine({
      id: "fal",
      xmp: disclosureXmp("fal.ai fal-ai/flux-pro/kontext", DIGITAL_SOURCE_TYPES.fal),
    });
    await studioWorker(engine).drain();

    const db = getDb();
    const store = getFileStore();
    const row = await db
      .selectFrom("stylized_images")
      .innerJoin("images", "images.id", "stylized_images.image_id")
      .select(["stylized_images.file_key", "stylized_images.bytes", "images.file_key as original"])
      .where("stylized_images.id", "=", id)
      .executeTakeFirstOrThrow();
    const uploadHash = sha256Of(await store.read(row.original));

    // The styled file, as the styling job stored it.
    const styled = await store.read(row.file_key!);
    expect(row.bytes).toBe(styled.length);
    const styledReading = await readWithC2paRs(styled, "image/jpeg");
    expect(styledReading?.state).toBe("Valid");
    expect(actionsOf(styledReading!)).toEqual([
      expect.objectContaining({
        action: "c2pa.created",
        digitalSourceType: DIGITAL_SOURCE_TYPES.fal,
        softwareAgent: { name: "fal.ai fal-ai/flux-pro/kontext" },
      }),
    ]);
    expect(styledReading!.manifest.ingredients).toEqual([
      expect.objectContaining({ instance_id: `sha256:${uploadHash}`, relationship: "inputTo" }),
    ]);

    // Each optimized copy, in every delivered format.
    for (const [format, mimeType] of [
      ["jpg", "image/jpeg"],
      ["png", "image/png"],
      ["webp", "image/webp"],
    ] as const) {
      const response = await callRoute(
        optimize.action,
        makeRequest("/api/images/optimize", {
          token,
          json: {
            imageId: id,
            format,
            quality: 80,
            resolution: "original",
            watermark: true,
            socialOptimized: false,
          },
        }),
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { optimizedUrl: string; bytes: number };
      const copy = await mediaBytes(body.optimizedUrl);
      expect(copy.length).toBe(body.bytes);
      const reading = await readWithC2paRs(copy, mimeType);
      expect(reading?.state, format).toBe("Valid");
      expect(actionsOf(reading!)).toEqual([
        expect.objectContaining({
          action: "c2pa.created",
          digitalSourceType: DIGITAL_SOURCE_TYPES.fal,
        }),
        expect.objectContaining({
          action: "c2pa.edited",
          description: expect.stringContaining("watermarked"),
        }),
      ]);
      expect(reading!.manifest.ingredients).toEqual([
        expect.objectContaining({ instance_id: `sha256:${uploadHash}` }),
      ]);
    }

    // The purchased download: the listing's sold file.
    await updateWhere("images", { likeness: "self" }, "user_id", user.id);
    const { listing } = await listStylizedImage(db, store, {
      userId: user.id,
      input: listingInputSchema.parse({
        stylizedImageId: id,
        title: "Signed portrait",
        description: "",
        price: 20,
        tags: "",
      }),
      now: new Date(),
      credentials: contentCredentialsFor(getConfig()),
    });
    const sessionId = await buyAtTestCheckout([listing.id], {
      name: "Bea Buyer",
      email: "bea@example.com",
    });
    const status = (await (await paymentStatusOf(sessionId)).json()) as {
      downloads: { downloadUrl: string }[];
    };
    const downloadToken = status.downloads[0].downloadUrl.split("/").pop()!;
    const download = await callRoute(downloadRoute, makeRequest(`/downloads/${downloadToken}`), {
      token: downloadToken,
    });
    expect(download.status).toBe(200);
    const bought = Buffer.from(await download.arrayBuffer());
    // Smaller than a sold file must be, so upscaled for sale: signed anew, saying so, naming the same upload.
    const boughtReading = await readWithC2paRs(bought, "image/jpeg");
    expect(boughtReading?.state).toBe("Valid");
    expect(actionsOf(boughtReading!)).toEqual([
      expect.objectContaining({
        action: "c2pa.created",
        digitalSourceType: DIGITAL_SOURCE_TYPES.fal,
        softwareAgent: { name: "fal.ai fal-ai/flux-pro/kontext" },
      }),
      expect.objectContaining({
        action: "c2pa.edited",
        description: expect.stringContaining("for sale by Selfie Studio: upscaled with"),
      }),
    ]);
    expect(boughtReading!.manifest.ingredients).toEqual([
      expect.objectContaining({ instance_id: `sha256:${uploadHash}` }),
    ]);
  });
});
