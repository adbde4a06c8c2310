import { describe, expect, it } from "vitest";
import type { ImageLikeness } from "#db/schema";
import { getDb } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { invoke } from "~/infra/procedure.server";
import { plainContext } from "~/infra/call-context.server";
import { listOnMarketplace } from "~/features/market/catalog/creator-listings.procedures.server";
import {
  FACE_NOT_VERIFIED,
  listingsAwaitingConsent,
  otherFaceNeedsRelease,
} from "~/features/market/catalog/sale-consent.server";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing, createStylizedImage } from "#tests/setup/market";
import { apiRoutes } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { launch, post } = apiRoutes({
  launch: "/api/marketplace/launch",
  post: "/api/marketplace/post",
});

/** A model release on file for the image (its PDF is not read by the rule). */
async function releaseOnFile(userId: string, stylizedImageId: string) {
  await getDb()
    .insertInto("model_releases")
    .values({
      id: newId(),
      user_id: userId,
      stylized_image_id: stylizedImageId,
      kind: "uploaded",
      model_name: null,
      signed_on: null,
      signature: null,
      file_key: `releases/${newId()}.pdf`,
      bytes: 1,
      created_at: new Date().toISOString(),
    })
    .execute();
}

function postRequest(token: string, imageId: string, platforms: string[]) {
  return makeRequest("/api/marketplace/post", {
    token,
    json: { imageId, title: "Portrait", description: "", price: "20", platforms },
  });
}

function launchRequest(token: string, imageId: string, platforms: string[]) {
  return makeRequest("/api/marketplace/launch", {
    token,
    json: {
      imageId,
      title: "Portrait",
      description: "",
      price: "20",
      tags: "portrait",
      enableLicensing: true,
      enableNFT: false,
      platforms,
    },
  });
}

async function creatorWith(likeness: ImageLikeness | null) {
  const creator = await createTestUser();
  const image = await createStylizedImage(creator.user.id, { likeness });
  return { creator, image };
}

describe("only faces that agreed are sold", () => {
  it("refuses another person's face without a release, 409, on post, launch, an external platform and /listings", async () => {
    const { creator, image } = await creatorWith("other");
    const expected = { message: otherFaceNeedsRelease(image.id) };
    for (const [handler, request] of [
      [post.action, postRequest(creator.token, image.id, ["marketplace"])],
      [launch.action, launchRequest(creator.token, image.id, ["marketplace"])],
      [post.action, postRequest(creator.token, image.id, ["opensea"])],
      [launch.action, launchRequest(creator.token, image.id, ["shopify", "eyeem"])],
    ] as const) {
      const response = await callRoute(handler, request);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual(expected);
    }
    expect(otherFaceNeedsRelease(image.id)).toContain(`/studio/release?image=${image.id}`);
    await expect(
      invoke(
        listOnMarketplace,
        creator.user,
        { stylizedImageId: image.id, title: "Portrait", price: 20 },
        plainContext(ORIGIN, { db: getDb(), clientIp: "test", now: new Date(), ties: testTies }),
      ),
    ).rejects.toMatchObject({ status: 409, message: expected.message });
    const publications = await selectWhere(
      "listing_platforms",
      "id",
      "stylized_image_id",
      image.id,
    );
    expect(publications).toEqual([]);
  });

  it("lists another person's face once a model release is on file", async () => {
    const { creator, image } = await creatorWith("other");
    await releaseOnFile(creator.user.id, image.id);
    const response = await callRoute(
      post.action,
      postRequest(creator.token, image.id, ["marketplace"]),
    );
    expect(response.status).toBe(200);
  });

  it("refuses an unverified photo with the sentence that leads to Settings, Privacy", async () => {
    const { creator, image } = await creatorWith(null);
    for (const response of [
      await callRoute(post.action, postRequest(creator.token, image.id, ["marketplace"])),
      await callRoute(launch.action, launchRequest(creator.token, image.id, ["marketplace"])),
    ]) {
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ message: FACE_NOT_VERIFIED });
    }
    expect(FACE_NOT_VERIFIED).toContain("/settings/privacy");
  });

  it("lists the creator's own face and a picture without a face as before", async () => {
    for (const likeness of ["self", "none"] as const) {
      const { creator, image } = await creatorWith(likeness);
      const response = await callRoute(
        post.action,
        postRequest(creator.token, image.id, ["marketplace"]),
      );
      expect(response.status, likeness).toBe(200);
    }
  });

  it("flags for the admin the listings made before the rule by unverified creators or of other faces without a release", async () => {
    const before = await listingsAwaitingConsent(getDb());
    const unverified = await createTestUser();
    const other = await createTestUser();
    const fine = await createTestUser();
    const { listing: old } = await createListing(unverified.user.id, { title: "Old unverified" });
    const { listing: others, stylized } = await createListing(other.user.id, {
      title: "Other face",
    });
    const { listing: released, stylized: releasedImage } = await createListing(other.user.id, {
      title: "Released",
    });
    await createListing(fine.user.id, { title: "Own face" });
    // Listed before the rule: their likeness was not known, or was another person's.
    const setLikeness = (userId: string, likeness: ImageLikeness | null) =>
      updateWhere("images", { likeness }, "user_id", userId);
    await setLikeness(unverified.user.id, null);
    await setLikeness(other.user.id, "other");
    await releaseOnFile(other.user.id, releasedImage.id);

    const after = await listingsAwaitingConsent(getDb());
    expect(after.count).toBe(before.count + 2);
    expect(after.listings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ listingId: old.id, reason: "unverified" }),
        expect.objectContaining({
          listingId: others.id,
          reason: "other",
          stylizedImageId: stylized.id,
        }),
      ]),
    );
    expect(after.listings.map((row) => row.listingId)).not.toContain(released.id);
    // They stay up.
    const still = await getDb()
      .selectFrom("listings")
      .select("status")
      .where("id", "in", [old.id, others.id])
      .execute();
    expect(still.map((row) => row.status)).toEqual(["active", "active"]);
  });
});
