import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import { listOnMarketplace } from "~/features/market/catalog/creator-listings.procedures.server";
import {
  listStylizedImage,
  withdrawListingsForStylizedImage,
} from "~/features/market/catalog/listings.server";
import { PREVIEW_MAX_EDGE } from "~/features/market/catalog/listing-preview.server";
import { enableVariantWarmUp } from "~/infra/image-variants.server";
import { pictureVariants, variantKey } from "~/lib/image-variants";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing, createStylizedImage } from "#tests/setup/market";
import { invoke } from "~/infra/procedure.server";
import { callContext } from "~/web/request-context.server";
import { action as listingsAction, loader as listingsPage } from "~/routes/_studio+/listings";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import {
  carriesContentCredentials,
  contentCredentialsFor,
} from "~/engines/provenance/content-credentials.server";
import { digitalSourceTypeOfFile } from "~/engines/styling/ai-disclosure.server";
import { actionsOf, readWithC2paRs } from "#tests/setup/c2pa-reader";
import { getConfig } from "~/infra/config.server";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { loader: listingsApi } = apiRoute("/api/marketplace-listings");
const { loader: tokenListingsApi } = apiRoute("/api/token-marketplace-listings");

const db = () => getDb();

async function meanAbsoluteDifference(a: Buffer, b: Buffer): Promise<number> {
  const size = { width: 256, height: 256, fit: "fill" as const };
  const [x, y] = await Promise.all([
    sharp(a).resize(size).removeAlpha().raw().toBuffer(),
    sharp(b).resize(size).removeAlpha().raw().toBuffer(),
  ]);
  let total = 0;
  for (let i = 0; i < x.length; i++) total += Math.abs(x[i] - y[i]);
  return total / x.length;
}

describe("listing a stylized image on the marketplace", () => {
  it("snapshots the clean file byte for byte and makes a downscaled, visibly watermarked preview", async () => {
    const { user } = await createTestUser();
    const { listing, stylized } = await createListing(user.id, {
      price: "12.5",
      tags: "cat, anime , ,cat",
    });
    const store = getFileStore();
    expect(listing.file_key).toMatch(/^listings\//);
    expect(listing.preview_key).toMatch(/^previews\//);
    expect(listing.price_cents).toBe(1250);
    expect(JSON.parse(listing.tags)).toEqual(["cat", "anime"]);
    expect(listing.status).toBe("active");
    const clean = await store.read(listing.file_key);
    expect(clean.equals(await store.read(stylized.file_key!))).toBe(true);
    const preview = await store.read(listing.preview_key);
    const meta = await sharp(preview).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(PREVIEW_MAX_EDGE);
    expect(meta.format).toBe("jpeg");
    // The watermark changes the picture visibly, far beyond JPEG noise.
    const downscaledClean = await sharp(clean)
      .resize(PREVIEW_MAX_EDGE)
      .jpeg({ quality: 72 })
      .toBuffer();
    expect(await meanAbsoluteDifference(preview, downscaledClean)).toBeGreaterThan(8);
  });

  it("sells the full-size styled image even when the creator made an unmarked optimized copy (that copy is theirs)", async () => {
    const { user } = await createTestUser();
    const stylized = await createStylizedImage(user.id, { size: 2048 });
    const store = getFileStore();
    const optimizedKey = `optimized/${stylized.id}.webp`;
    await store.write(
      optimizedKey,
      await sharp(await store.read(stylized.file_key!))
        .resize(800)
        .webp()
        .toBuffer(),
    );
    await updateWhere(
      "stylized_images",
      { optimized_file_key: optimizedKey, watermark: 0 },
      "id",
      stylized.id,
    );
    const input = listingInputSchema.parse({
      stylizedImageId: stylized.id,
      title: "Own copy",
      description: "",
      price: 20,
      tags: "",
    });
    const { listing } = await listStylizedImage(db(), store, {
      credentials: contentCredentialsFor(getConfig()),
      userId: user.id,
      input,
      now: new Date(),
    });
    expect((await store.read(listing.file_key)).equals(await store.read(stylized.file_key!))).toBe(
      true,
    );
    expect(listing.source_file_key).toBe(stylized.file_key);
  });

  it("a clean file styled before the server signed its files gets its Content Credentials when listed", async () => {
    const { user } = await createTestUser();
    // Already a sold file's size: copied, not upscaled (an upscaled file is signed anew: sale-file.server.test.ts).
    const stylized = await createStylizedImage(user.id, { signed: false, size: 2048 });
    const store = getFileStore();
    const unsigned = await store.read(stylized.file_key!);
    expect(carriesContentCredentials(unsigned)).toBe(false);
    const { listing } = await listStylizedImage(db(), store, {
      credentials: contentCredentialsFor(getConfig()),
      userId: user.id,
      input: listingInputSchema.parse({
        stylizedImageId: stylized.id,
        title: "Older style",
        description: "",
        price: 20,
        tags: "",
      }),
      now: new Date(),
    });
    const sold = await store.read(listing.file_key);
    const reading = await readWithC2paRs(sold, "image/jpeg");
    expect(reading?.state).toBe("Valid");
    expect(actionsOf(reading!)[0]).toMatchObject({
      action: "c2pa.created",
      digitalSourceType: digitalSourceTypeOfFile(unsigned),
    });
    // The pixels are the styled file's: only the manifest was added.
    expect(await meanAbsoluteDifference(sold, unsigned)).toBe(0);
  });

  it("makes every variant of the preview its picture asks for before listing answers", async () => {
    const { user } = await createTestUser();
    enableVariantWarmUp();
    try {
      const { listing } = await createListing(user.id);
      const store = getFileStore();
      const wanted = pictureVariants(listing.preview_key, PREVIEW_MAX_EDGE);
      expect(wanted).toHaveLength(8); // AVIF and WebP at 320, 480 and 640 px, JPEG at 320 and 480
      for (const { width, format } of wanted) {
        const key = variantKey(listing.preview_key, width, format);
        expect(await store.exists(key), key).toBe(true);
        expect((await sharp(await store.read(key)).metadata()).width).toBe(width);
      }
    } finally {
      enableVariantWarmUp(false);
    }
  });

  it("updates the one active listing in place and keeps its files while the source is unchanged", async () => {
    const { user } = await createTestUser();
    const { listing, stylized } = await createListing(user.id, { price: 20 });
    const input = listingInputSchema.parse({
      stylizedImageId: stylized.id,
      title: "Renamed",
      price: "30",
    });
    const again = await listStylizedImage(db(), getFileStore(), {
      credentials: contentCredentialsFor(getConfig()),
      userId: user.id,
      input,
      now: new Date(),
    });
    expect(again.created).toBe(false);
    expect(again.listing.id).toBe(listing.id);
    expect(again.listing.title).toBe("Renamed");
    expect(again.listing.price_cents).toBe(3000);
    expect(again.listing.file_key).toBe(listing.file_key);
    expect(await selectWhere("listings", "id", "stylized_image_id", stylized.id)).toHaveLength(1);
  });

  it("listing one image twice at once makes one listing, and both calls answer it", async () => {
    const { user } = await createTestUser();
    const stylized = await createStylizedImage(user.id);
    const list = (title: string) =>
      listStylizedImage(db(), getFileStore(), {
        credentials: contentCredentialsFor(getConfig()),
        userId: user.id,
        input: listingInputSchema.parse({ stylizedImageId: stylized.id, title, price: "30" }),
        now: new Date(),
      });
    const [one, two] = await Promise.all([list("First"), list("Second")]);
    expect(one.listing.id).toBe(two.listing.id);
    expect([one.created, two.created].sort()).toEqual([false, true]);
    const rows = await selectWhere(
      "listings",
      ["id", "preview_key", "file_key"],
      "stylized_image_id",
      stylized.id,
    );
    expect(rows).toHaveLength(1);
    const store = getFileStore();
    expect(await store.exists(rows[0].file_key)).toBe(true);
    expect(await store.exists(rows[0].preview_key!)).toBe(true);
  });

  it("prices a listing without a price at the image's price, else 25 dollars", async () => {
    const { user } = await createTestUser();
    const plain = await createStylizedImage(user.id);
    const priced = await createStylizedImage(user.id, { priceCents: 4200 });
    const list = (stylizedImageId: string) =>
      listStylizedImage(db(), getFileStore(), {
        credentials: contentCredentialsFor(getConfig()),
        userId: user.id,
        input: listingInputSchema.parse({ stylizedImageId, title: "T" }),
        now: new Date(),
      });
    expect((await list(plain.id)).listing.price_cents).toBe(2500);
    expect((await list(priced.id)).listing.price_cents).toBe(4200);
  });

  it("refuses another user's image (404), an unfinished one (400) and a price that is not positive (400)", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const stylized = await createStylizedImage(owner.user.id);
    const pending = await createStylizedImage(owner.user.id, { status: "processing" });
    const ctx = callContext(makeRequest("/listings"), { ties: testTies });
    await expect(
      invoke(listOnMarketplace, other.user, { stylizedImageId: stylized.id, title: "Mine" }, ctx),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      invoke(listOnMarketplace, owner.user, { stylizedImageId: pending.id, title: "Soon" }, ctx),
    ).rejects.toMatchObject({ status: 400 });
    for (const price of [0, -1, "abc", "0.001"]) {
      await expect(
        invoke(
          listOnMarketplace,
          owner.user,
          { stylizedImageId: stylized.id, title: "Free", price },
          ctx,
        ),
      ).rejects.toMatchObject({
        status: 400,
        fieldErrors: { price: ["Enter a price between $0.01 and $10,000.00."] },
      });
    }
    await expect(
      invoke(listOnMarketplace, owner.user, { stylizedImageId: stylized.id, title: "  " }, ctx),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("withdrawing for a deleted stylized image removes the preview but keeps a sold file", async () => {
    const { user } = await createTestUser();
    const sold = await createListing(user.id);
    const unsold = await createListing(user.id);
    const store = getFileStore();
    const now = new Date().toISOString();
    await db()
      .insertInto("orders")
      .values({
        id: "o1",
        checkout_session_hash: "cs_1-hash",
        license_id: "license-o1",
        provider: "test",
        status: "paid",
        customer_name: "B",
        customer_email: "b@example.com",
        customer_company: null,
        total_cents: 2500,
        failure_reason: null,
        created_at: now,
        updated_at: now,
        paid_at: now,
      })
      .execute();
    await db()
      .insertInto("order_items")
      .values({
        id: "i1",
        order_id: "o1",
        listing_id: sold.listing.id,
        creator_id: user.id,
        title: "t",
        style: "anime",
        price_cents: 2500,
        file_key: sold.listing.file_key,
        file_mime_type: "image/jpeg",
        created_at: now,
      })
      .execute();

    expect(await withdrawListingsForStylizedImage(db(), sold.stylized.id, { store })).toBe(1);
    expect(await withdrawListingsForStylizedImage(db(), unsold.stylized.id, { store })).toBe(1);
    expect(await withdrawListingsForStylizedImage(db(), unsold.stylized.id, { store })).toBe(0);
    expect(await store.exists(sold.listing.preview_key)).toBe(false);
    expect(await store.exists(sold.listing.file_key)).toBe(true);
    expect(await store.exists(unsold.listing.file_key)).toBe(false);
    // The studio then deletes the stylized image; the listing row stays for the sold copy.
    await db().deleteFrom("stylized_images").where("id", "=", sold.stylized.id).execute();
    const row = await rowWhere("listings", "*", "id", sold.listing.id);
    expect(row).toMatchObject({ status: "withdrawn", stylized_image_id: null });
  });
});

describe("the creator's listings API and the /listings form", () => {
  it("answers the caller's listings with their per-platform state, by cookie or token", async () => {
    const { user, token, cookie } = await createTestUser();
    const other = await createTestUser();
    const { listing } = await createListing(user.id, { title: "Mine" });
    await createListing(other.user.id, { title: "Theirs" });
    for (const [handler, auth] of [
      [listingsApi, { cookie }],
      [tokenListingsApi, { token }],
    ] as const) {
      const response = await callRoute(handler, makeRequest("/api/marketplace-listings", auth));
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body).toHaveLength(1);
      expect(body[0]).toMatchObject({
        id: listing.id,
        title: "Mine",
        price: "25",
        status: "active",
        platforms: [
          {
            platform: "marketplace",
            status: "live",
            url: `http://localhost:3000/marketplace/${listing.id}`,
          },
        ],
      });
    }
    const signedOut = await callRoute(listingsApi, makeRequest("/api/marketplace-listings"));
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("Content-Type")).toMatch(/application\/json/);
  });

  it("lists through the no-JS form and redirects back with a flash; invalid input comes back as a 400 reply", async () => {
    const { user, cookie } = await createTestUser();
    const stylized = await createStylizedImage(user.id, { style: "professional" });
    const page = await callRoute(
      listingsPage,
      makeRequest(`/listings?stylizedImageId=${stylized.id}`, { cookie }),
    );
    const data = await page.json();
    expect(data.form).toMatchObject({
      title: "Professional Style Selfie",
      price: "75",
      ready: true,
      listed: false,
    });

    const bad = await callRoute(
      listingsAction,
      formRequest(
        "/listings",
        { intent: "list", stylizedImageId: stylized.id, title: "", price: "0" },
        { cookie },
      ),
    );
    expect(bad.status).toBe(400);
    const reply = await bad.json();
    expect(reply.error.price).toEqual(["Enter a price between $0.01 and $10,000.00."]);

    const ok = await callRoute(
      listingsAction,
      formRequest(
        "/listings",
        {
          intent: "list",
          stylizedImageId: stylized.id,
          title: "Boardroom",
          price: "75",
          tags: "work",
          licensingEnabled: "false",
          redirectTo: "/dashboard",
        },
        { cookie },
      ),
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/dashboard");
    const row = await rowWhere("listings", "*", "stylized_image_id", stylized.id);
    expect(row).toMatchObject({ title: "Boardroom", price_cents: 7500, licensing_enabled: 0 });

    // The hidden "false" then the ticked checkbox's "true": the last value wins.
    const body = new URLSearchParams([
      ["intent", "list"],
      ["stylizedImageId", stylized.id],
      ["title", "Boardroom"],
      ["licensingEnabled", "false"],
      ["licensingEnabled", "true"],
      ["enhanced", "1"],
    ]);
    const enhanced = await callRoute(listingsAction, formRequest("/listings", body, { cookie }));
    expect(await enhanced.json()).toMatchObject({ ok: true, created: false });
    const updated = await rowWhere("listings", "*", "id", row.id);
    expect(updated.licensing_enabled).toBe(1);

    // What the withdraw confirmation posts: back to /listings without ?confirmWithdraw=, so the confirmation closes.
    const withdraw = await callRoute(
      listingsAction,
      formRequest(
        "/listings",
        { intent: "withdraw", listingId: row.id, redirectTo: "/listings" },
        { cookie },
      ),
    );
    expect(withdraw.status).toBe(302);
    expect(withdraw.headers.get("Location")).toBe("/listings");
    expect((await rowWhere("listings", "status", "id", row.id)).status).toBe("withdrawn");
  });

  it("sends a signed-out visitor to sign in", async () => {
    const response = await callRoute(listingsPage, makeRequest("/listings"));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
  });
});
