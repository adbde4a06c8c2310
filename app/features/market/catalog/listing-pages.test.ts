import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { flushListingViews } from "~/features/market/analytics/listing-view-counts.server";
import { getFileStore } from "~/infra/file-store.server";
import { socialCardKey } from "~/lib/image-variants";
import { jsonForScript } from "~/lib/html";
import { listStylizedImage, withdrawListing } from "~/features/market/catalog/listings.server";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import {
  socialCardSvg,
  socialCardVersion,
  wrapTitle,
} from "~/features/market/catalog/social-card.server";
import { loader as listingLoader } from "~/routes/_market+/marketplace_.$listingId";
import { loader as storefrontLoader } from "~/routes/_market+/creators.$handle";
import { loader as mediaLoader } from "~/routes/_resources+/media.$";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing, createStylizedImage } from "#tests/setup/market";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";
import { getConfig } from "~/infra/config.server";
import { firstRowWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const HOSTILE_TITLE = `</script><script>alert("x")</script> & 'quotes' 😀 <b>bold</b>`;

async function page(listingId: string) {
  return callRoute(listingLoader, makeRequest(`/marketplace/${encodeURIComponent(listingId)}`), {
    listingId,
  });
}

async function storefront(handle: string, query = "") {
  return callRoute(
    storefrontLoader,
    makeRequest(`/creators/${encodeURIComponent(handle)}${query}`),
    { handle },
  );
}

async function media(path: string) {
  const url = new URL(path, "http://localhost:3000");
  return callRoute(mediaLoader, makeRequest(url.pathname + url.search), {
    "*": url.pathname.slice("/media/".length),
  });
}

async function withHandle(firstName: string, handle: string, bio: string | null = null) {
  const account = await createTestUser({ firstName });
  await updateWhere("users", { handle, bio }, "id", account.user.id);
  return account;
}

describe("GET /marketplace/{listingId}", () => {
  it("answers a live listing's page with its creator, more of theirs and a stored 1200x630 social card", async () => {
    const { user } = await withHandle("Cora", "cora-pages");
    const older = await createListing(user.id, { title: "Older one", price: 12 });
    const { listing } = await createListing(user.id, {
      title: "Neon Dream",
      price: "25.50",
      tags: "neon, city",
      description: "Lights.",
    });
    const response = await page(listing.id);
    expect(response.status).toBe(200);
    const data = await response.json();
    expect(data.listing).toMatchObject({
      id: listing.id,
      title: "Neon Dream",
      price: "25.50",
      priceCents: 2550,
      tags: ["neon", "city"],
      description: "Lights.",
    });
    expect(data.creator).toMatchObject({
      name: "Cora",
      handle: "cora-pages",
      storefrontUrl: "http://localhost:3000/creators/cora-pages",
    });
    expect(data.url).toBe(`http://localhost:3000/marketplace/${listing.id}`);
    expect(data.more.map((item: { id: string }) => item.id)).toEqual([older.listing.id]);
    expect(data.socialCard).toMatchObject({ width: 1200, height: 630 });

    // The card is stored once, served from /media like the preview, cacheable for ten minutes.
    const card = await media(data.socialCard.url);
    expect(card.status).toBe(200);
    expect(card.headers.get("Content-Type")).toBe("image/jpeg");
    expect(card.headers.get("Cache-Control")).toBe("public, max-age=600");
    const meta = await sharp(Buffer.from(await card.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([1200, 630, "jpeg"]);
    expect(await getFileStore().exists(socialCardKey(listing.preview_key))).toBe(true);
  });

  it("answers the pixel size of the file a buyer gets, and how it was upscaled to it", async () => {
    const { user } = await withHandle("Sizer", "sizer-pages");
    // A 1024 px style of a 512 px upload: sold at 2048 px, upscaled ×2 with Lanczos.
    const stylized = await createStylizedImage(user.id);
    const { listing } = await listStylizedImage(getDb(), getFileStore(), {
      credentials: contentCredentialsFor(getConfig()),
      userId: user.id,
      input: listingInputSchema.parse({ stylizedImageId: stylized.id, title: "Sized", price: 35 }),
      now: new Date(),
    });
    const data = await (await page(listing.id)).json();
    expect(data.listing).toMatchObject({
      width: 2048,
      height: 2048,
      upscaling: {
        label: "upscaled with Lanczos ×2",
        from: { width: 1024, height: 1024 },
      },
    });
    // A file made at its size says nothing of upscaling.
    const made = await createListing(user.id, { title: "Made at size" });
    expect((await (await page(made.listing.id)).json()).listing.upscaling).toBeNull();
  });

  it("counts a view of the listing for its creator's analytics, once per visitor and day", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id, { title: "Counted" });
    const views = async () => {
      await flushListingViews(getDb());
      return (await firstRowWhere("listing_days", "views", "listing_id", listing.id))?.views ?? 0;
    };
    expect((await page(listing.id)).status).toBe(200);
    expect(await views()).toBe(1);
    expect((await page(listing.id)).status).toBe(200);
    expect(await views()).toBe(1);
  });

  it("is a 404 for an unknown, malformed, withdrawn or banned creator's listing, never a 500", async () => {
    const { user } = await createTestUser();
    const banned = await createTestUser();
    const { listing: withdrawn } = await createListing(user.id);
    await withdrawListing(getDb(), {
      userId: user.id,
      listingId: withdrawn.id,
      now: new Date(),
      store: getFileStore(),
    });
    const { listing: ofBanned } = await createListing(banned.user.id);
    await updateWhere("users", { banned: 1 }, "id", banned.user.id);
    for (const id of [
      "no-such-listing",
      withdrawn.id,
      ofBanned.id,
      "a b",
      "<script>",
      "x".repeat(500),
      "../../etc/passwd",
      "%00",
    ]) {
      const response = await page(id);
      expect(response.status, id).toBe(404);
    }
    // The withdrawn listing's card went with its preview.
    expect(await getFileStore().exists(socialCardKey(withdrawn.preview_key))).toBe(false);
  });

  it("makes a new card (a new URL) when the title or price changes, and drops the old one", async () => {
    const { user } = await createTestUser();
    const { listing, stylized } = await createListing(user.id, { title: "First title", price: 20 });
    const before = await (await page(listing.id)).json();
    const relist = listingInputSchema.parse({
      stylizedImageId: stylized.id,
      title: "Second title",
      description: "d",
      price: 20,
      tags: "a",
    });
    await listStylizedImage(getDb(), getFileStore(), {
      credentials: contentCredentialsFor(getConfig()),
      userId: user.id,
      input: relist,
      now: new Date(),
    });
    expect(await getFileStore().exists(socialCardKey(listing.preview_key))).toBe(false);
    const after = await (await page(listing.id)).json();
    expect(after.socialCard.url).not.toBe(before.socialCard.url);
    expect(after.socialCard.url).toContain(
      `v=${socialCardVersion({ title: "Second title", priceCents: 2000 })}`,
    );
    expect(await getFileStore().exists(socialCardKey(listing.preview_key))).toBe(true);
  });

  it("keeps a title with markup, quotes and emoji as text: in the data, the card's SVG and the JSON-LD", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id, { title: HOSTILE_TITLE });
    const response = await page(listing.id);
    expect(response.status).toBe(200);
    expect((await response.json()).listing.title).toBe(HOSTILE_TITLE);

    const svg = socialCardSvg({ title: HOSTILE_TITLE, priceCents: 2500 });
    expect(svg).not.toContain("<script");
    expect(svg).not.toContain("<b>");
    expect(svg).toContain("&#60;/script&#62;");
    expect(svg).toContain("😀");
    // The card renders (the SVG parses) with that title.
    const card = await sharp(Buffer.from(svg)).png().toBuffer();
    expect((await sharp(card).metadata()).width).toBe(1200);

    const json = jsonForScript({ name: HOSTILE_TITLE });
    expect(json).not.toMatch(/<\/script/i);
    expect(json).not.toContain("<");
    expect(JSON.parse(json)).toEqual({ name: HOSTILE_TITLE });
  });

  it("wraps a long title at spaces into at most four lines, never splitting an emoji", () => {
    const lines = wrapTitle("word ".repeat(60) + "😀😀😀", 20, 4);
    expect(lines).toHaveLength(4);
    expect(lines.every((line) => Array.from(line).length <= 20)).toBe(true);
    expect(lines[3].endsWith("…")).toBe(true);
    expect(wrapTitle("😀".repeat(30), 10, 4).join("")).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/,
    );
  });
});

describe("GET /creators/{handle}", () => {
  it("shows the creator's live listings only, with the marketplace's filters and pages", async () => {
    const { user } = await withHandle("Dana", "dana-store", "I draw people.");
    const other = await createTestUser();
    await createListing(other.user.id, { title: "Someone else's" });
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.push(
        (await createListing(user.id, { title: `Dana ${i}`, style: i === 0 ? "cartoon" : "anime" }))
          .listing.id,
      );
    const response = await storefront("dana-store");
    expect(response.status).toBe(200);
    const data = await response.json();
    expect(data.creator).toMatchObject({
      name: "Dana",
      handle: "dana-store",
      bio: "I draw people.",
    });
    expect(data.page.items.map((item: { id: string }) => item.id)).toEqual([...made].reverse());
    const cartoon = await (await storefront("dana-store", "?style=cartoon")).json();
    expect(cartoon.page.items.map((item: { id: string }) => item.id)).toEqual([made[0]]);
  });

  it("is a 404 for an unknown or malformed handle and a banned or erased creator", async () => {
    const banned = await withHandle("Mal", "mal-banned");
    await updateWhere("users", { banned: 1 }, "id", banned.user.id);
    const erased = await withHandle("Eve", "eve-erased");
    await getDb()
      .updateTable("users")
      .set({ erased_at: new Date().toISOString() })
      .where("id", "=", erased.user.id)
      .execute();
    for (const handle of [
      "nobody-here",
      "mal-banned",
      "eve-erased",
      "<b>",
      "a/b",
      "x".repeat(300),
      "",
    ]) {
      expect((await storefront(handle)).status, handle).toBe(404);
    }
  });
});
