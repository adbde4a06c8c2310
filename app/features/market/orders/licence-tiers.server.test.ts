import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getConfig } from "~/infra/config.server";
import { getFileStore } from "~/infra/file-store.server";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import { listStylizedImage, SOLD_EXCLUSIVELY } from "~/features/market/catalog/listings.server";
import { listingPage } from "~/features/market/catalog/listing-page.server";
import { createPendingOrder } from "~/features/market/orders/orders.server";
import { fulfillOrder } from "~/features/market/orders/fulfillment.server";
import { licenseByLicenseId } from "~/features/market/orders/licenses.server";
import {
  EXCLUSIVE_SOLD_JOB,
  EXCLUSIVE_TAKEN_REFUND_REASON,
  runExclusiveSold,
} from "~/features/market/orders/exclusive-sales.server";
import { REFUND_PAYMENT_JOB } from "~/features/market/orders/suspended-seller-refunds.server";
import { MAIL_JOB } from "~/features/mail/public.server";
import { cartContents } from "~/features/market/checkout/cart-contents.server";
import { rowCount, rowWhere, selectWhere } from "#tests/setup/rows-where";
import { httpFailure } from "#tests/setup/errors";
import { updateWhere } from "#tests/setup/update-where";

const buyer = (email: string) => ({ name: "Tia Buyer", email });

async function order(listingId: string, licenseType: "standard" | "extended" | "exclusive") {
  return createPendingOrder(getDb(), {
    provider: "test",
    customer: buyer(`${licenseType}-${Math.random()}@example.com`),
    listingIds: [listingId],
    licenseTypes: { [listingId]: licenseType },
    now: new Date(),
  });
}

async function jobsOf(kind: string, text: string) {
  const rows = await selectWhere("jobs", "payload", "kind", kind);
  return rows.filter((row) => row.payload.includes(text));
}

describe("licence tiers", () => {
  it("prices Standard always and Extended and Exclusive when the creator prices them; the marketplace answers the tiers", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, {
      price: 20,
      extendedPrice: 60,
      exclusivePrice: 400,
    });
    expect(listing.extended_price_cents).toBe(6000);
    expect(listing.exclusive_price_cents).toBe(40000);
    const page = await listingPage(getDb(), listing.id, "http://localhost:3000");
    expect(page?.listing.licenses).toEqual([
      { type: "standard", price: "20" },
      { type: "extended", price: "60" },
      { type: "exclusive", price: "400" },
    ]);
    const plain = await createListing(creator.user.id, { price: 20 });
    const plainPage = await listingPage(getDb(), plain.listing.id, "http://localhost:3000");
    expect(plainPage?.listing.licenses).toEqual([{ type: "standard", price: "20" }]);
  });

  it("refuses a tier priced below the Standard price, with a sentence, in the schema and the service", async () => {
    const parsed = listingInputSchema.safeParse({
      stylizedImageId: "x",
      title: "T",
      price: 30,
      extendedPrice: 20,
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ["extendedPrice"],
      message: "The Extended license's price must be at least the Standard price",
    });
    // Without a price in the input, the service checks against the price it settles on.
    const creator = await createTestUser();
    const { stylized } = await createListing(creator.user.id, { price: 30 });
    const error = await httpFailure(
      listStylizedImage(getDb(), getFileStore(), {
        userId: creator.user.id,
        input: listingInputSchema.parse({
          stylizedImageId: stylized.id,
          title: "T",
          exclusivePrice: 10,
        }),
        now: new Date(),
        credentials: contentCredentialsFor(getConfig()),
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toBe("The Exclusive license's price must be at least the Standard price");
  });

  it("charges the tier's price and stores the tier; a tier the listing does not offer is a 400 and creates nothing", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 20, extendedPrice: 60 });
    const { order: made, items } = await order(listing.id, "extended");
    expect(made.total_cents).toBe(6000);
    expect(items[0]).toMatchObject({ license_type: "extended", price_cents: 6000 });

    const count = () => rowCount("orders");
    const before = await count();
    const error = await httpFailure(order(listing.id, "exclusive"));
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      '"Test Portrait" is not sold with an Exclusive license. Please choose a license it offers.',
    );
    expect(await count()).toBe(before);
  });

  it("prices the cart's entries by tier and drops an entry whose tier is not offered", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 20, extendedPrice: 60 });
    const cart = await cartContents(getDb(), [`${listing.id}:extended`]);
    expect(cart.items[0]).toMatchObject({ licenseType: "extended", priceCents: 6000 });
    const other = await cartContents(getDb(), [`${listing.id}:exclusive`]);
    expect(other.items).toEqual([]);
    expect(other.unavailable).toEqual([`${listing.id}:exclusive`]);
  });

  it("withdraws the listing once an Exclusive is paid, never lists it again, keeps earlier licences, and refunds a later payment at once, exactly once", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing, stylized } = await createListing(creator.user.id, {
      price: 20,
      exclusivePrice: 400,
    });
    const earlier = await order(listing.id, "standard");
    await fulfillOrder(db, earlier.order.id, {}, new Date());
    // Two buyers in checkout at once: one for the Exclusive, one for the Standard licence.
    const standard = await order(listing.id, "standard");
    const exclusive = await order(listing.id, "exclusive");
    const rival = await order(listing.id, "exclusive");

    expect((await fulfillOrder(db, exclusive.order.id, {}, new Date())).outcome).toBe("fulfilled");
    const after = await rowWhere("listings", "*", "id", listing.id);
    expect(after.status).toBe("withdrawn");
    expect(after.exclusive_sold_at).not.toBeNull();
    expect(await jobsOf(EXCLUSIVE_SOLD_JOB, listing.id)).toHaveLength(1);

    for (const late of [standard, rival]) {
      const outcome = await fulfillOrder(db, late.order.id, {}, new Date());
      expect(outcome.outcome).toBe("refunded-exclusive-taken");
      if (outcome.outcome !== "refunded-exclusive-taken") continue;
      expect(outcome.order).toMatchObject({
        status: "refunded",
        refunded_cents: late.order.total_cents,
        refund_reason: EXCLUSIVE_TAKEN_REFUND_REASON,
      });
      // Paid again (a replayed return): nothing more.
      expect((await fulfillOrder(db, late.order.id, {}, new Date())).outcome).toBe("already-paid");
      expect(await jobsOf(REFUND_PAYMENT_JOB, late.order.id)).toHaveLength(1);
      const grants = await selectWhere("download_grants", "id", "order_id", late.order.id);
      expect(grants).toEqual([]);
    }

    // The earlier Standard licence stands; the Exclusive's licence page says so.
    const earlierLicense = await licenseByLicenseId(db, earlier.order.license_id);
    expect(earlierLicense?.revokedAt).toBeNull();
    const exclusiveLicense = await licenseByLicenseId(db, exclusive.order.license_id);
    expect(exclusiveLicense?.licenseName).toBe("Exclusive Commercial License");
    expect(exclusiveLicense?.items[0].licenseType).toBe("exclusive");

    // Not for sale, not listable again.
    const checkout = await httpFailure(order(listing.id, "standard"));
    expect(checkout.status).toBe(400);
    const relist = await httpFailure(
      listStylizedImage(db, getFileStore(), {
        userId: creator.user.id,
        input: listingInputSchema.parse({ stylizedImageId: stylized.id, title: "Again" }),
        now: new Date(),
        credentials: contentCredentialsFor(getConfig()),
      }),
    );
    expect(relist.status).toBe(409);
    expect(relist.message).toBe(SOLD_EXCLUSIVELY);
  });

  it("takes the preview down, withdraws the publications and tells the creator where it is still up", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 20, exclusivePrice: 90 });
    const sold = await order(listing.id, "exclusive");
    await fulfillOrder(db, sold.order.id, {}, new Date());
    const store = getFileStore();
    expect(await store.exists(listing.preview_key)).toBe(true);
    const asked: string[] = [];
    const leftUp = await runExclusiveSold(
      {
        store,
        withdrawPublications: async (_db, _store, args) => {
          asked.push(args.stylizedImageId);
          return [
            {
              name: "Shopify",
              url: "https://shop.example/products/p",
              what: "remove it in that platform's own dashboard",
            },
          ];
        },
      },
      { listingId: listing.id },
      { db, now: () => new Date() },
    );
    expect(asked).toEqual([listing.stylized_image_id]);
    expect(leftUp).toHaveLength(1);
    expect(await store.exists(listing.preview_key)).toBe(false);
    expect(await store.exists(listing.file_key)).toBe(true);
    const mails = await jobsOf(MAIL_JOB, "sold with an Exclusive license");
    const mine = mails.filter((mail) => mail.payload.includes(creator.user.email));
    if (getConfig().PUBLIC_URL) {
      expect(mine).toHaveLength(1);
      expect(mine[0].payload).toContain("https://shop.example/products/p");
    }
  });

  it("names each item's tier and its terms on the licence page; an item sold before the tiers keeps the original terms, merchandise included", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 20, extendedPrice: 50 });
    const extended = await order(listing.id, "extended");
    await fulfillOrder(db, extended.order.id, {}, new Date());
    const page = await licenseByLicenseId(db, extended.order.license_id);
    expect(page?.licenseName).toBe("Extended Commercial License");
    const text = page!.licenses[0].terms.map((term) => term.text).join(" ");
    expect(text).toContain("no cap on the number of copies");
    expect(text).toContain("Merchandise and templates for resale are allowed");

    const standard = await order(listing.id, "standard");
    await fulfillOrder(db, standard.order.id, {}, new Date());
    const standardText = (await licenseByLicenseId(
      db,
      standard.order.license_id,
    ))!.licenses[0].terms
      .map((term) => term.text)
      .join(" ");
    expect(standardText).toContain("up to 500,000 copies");
    expect(standardText).toContain(
      "Merchandise or templates for resale where the image is the main value",
    );

    // An order item from before the tiers (no licence type stored).
    const old = await order(listing.id, "standard");
    await updateWhere("order_items", { license_type: null }, "order_id", old.order.id);
    await fulfillOrder(db, old.order.id, {}, new Date());
    const oldPage = (await licenseByLicenseId(db, old.order.license_id))!;
    expect(oldPage.items[0].licenseType).toBe("standard");
    expect(oldPage.licenses[0].edition).toBe("original");
    expect(oldPage.licenses[0].terms.map((term) => term.text).join(" ")).toContain(
      "printed products and merchandise",
    );
  });
});
