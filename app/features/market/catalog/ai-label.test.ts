import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { DIGITAL_SOURCE_TYPES, encodeStyledImage } from "~/engines/styling/ai-disclosure.server";
import { listStylizedImage } from "~/features/market/catalog/listings.server";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import { loader as listingLoader } from "~/routes/_market+/marketplace_.$listingId";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";
import { getConfig } from "~/infra/config.server";
import { rowWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { loader: marketplaceApi } = apiRoute("/api/marketplace");

/** A completed style whose file states how it was made, as each engine writes it, listed. */
async function listedStyle(userId: string, engine: "local" | "fal", title: string) {
  const stylized = await createStylizedImage(userId);
  const styled = await encodeStyledImage(
    sharp({ create: { width: 64, height: 64, channels: 3, background: "#456" } }),
    engine === "fal" ? "FLUX.1 Kontext via fal.ai" : "Selfie Studio",
    { sourceType: DIGITAL_SOURCE_TYPES[engine] },
  );
  await getFileStore().write(stylized.file_key!, styled.data);
  const input = listingInputSchema.parse({
    stylizedImageId: stylized.id,
    title,
    description: "",
    price: 25,
    tags: "",
  });
  const { listing } = await listStylizedImage(getDb(), getFileStore(), {
    credentials: contentCredentialsFor(getConfig()),
    userId,
    input,
    now: new Date(),
  });
  return listing;
}

describe("the AI label of a listing", () => {
  it("says AI-generated for a generative engine's file and AI-edited for the built-in engine's, from the file's own metadata, on the API and the listing page", async () => {
    const { user } = await createTestUser();
    const generated = await listedStyle(user.id, "fal", "From fal");
    const edited = await listedStyle(user.id, "local", "From local");
    expect(generated.source_type).toBe("trainedAlgorithmicMedia");
    expect(edited.source_type).toBe("composite");

    const response = await callRoute(marketplaceApi, makeRequest("/api/marketplace"));
    const { items } = (await response.json()) as { items: { title: string; aiLabel: string }[] };
    expect(Object.fromEntries(items.map((item) => [item.title, item.aiLabel]))).toEqual({
      "From fal": "AI-generated",
      "From local": "AI-edited",
    });

    for (const [listing, label] of [
      [generated, "AI-generated"],
      [edited, "AI-edited"],
    ] as const) {
      const page = await callRoute(listingLoader, makeRequest(`/marketplace/${listing.id}`), {
        listingId: listing.id,
      });
      expect(((await page.json()) as { listing: { aiLabel: string } }).listing.aiLabel).toBe(label);
    }
  });

  it("follows the file when a listing's style is made again by the other engine and listed anew", async () => {
    const { user } = await createTestUser();
    const listing = await listedStyle(user.id, "local", "Remade");
    const stylized = await rowWhere("stylized_images", "*", "id", listing.stylized_image_id!);
    const remade = await encodeStyledImage(
      sharp({ create: { width: 64, height: 64, channels: 3, background: "#654" } }),
      "FLUX.1 Kontext via fal.ai",
      { sourceType: DIGITAL_SOURCE_TYPES.fal },
    );
    const newKey = stylized.file_key!.replace(/\.jpg$/, "-again.jpg");
    await getFileStore().write(newKey, remade.data);
    await updateWhere("stylized_images", { file_key: newKey, provider: "fal" }, "id", stylized.id);
    const { listing: updated } = await listStylizedImage(getDb(), getFileStore(), {
      credentials: contentCredentialsFor(getConfig()),
      userId: user.id,
      input: listingInputSchema.parse({
        stylizedImageId: stylized.id,
        title: "Remade",
        description: "",
        price: 25,
        tags: "",
      }),
      now: new Date(),
    });
    expect(updated.id).toBe(listing.id);
    expect(updated.source_type).toBe("trainedAlgorithmicMedia");
  });
});
