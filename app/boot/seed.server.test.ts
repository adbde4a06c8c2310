import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { verifyPassword } from "~/features/accounts/passwords/passwords.server";
import { findUserByEmail, findUserById } from "~/features/accounts/users.server";
import {
  DEMO_CREATOR,
  DEMO_LONG_EDGE,
  demoDescription,
  ensureSuperAdmin,
  seedDemo,
} from "./seed.server";
import { listingsAwaitingConsent } from "~/features/market/public.server";
import { descriptionIn } from "~/engines/styling/ai-disclosure.server";
import { SALE_MIN_LONG_EDGE } from "~/lib/sale-size";
import { firstRowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

describe("seed", () => {
  it("creates the super admin once, printing a generated password that works", async () => {
    const lines: string[] = [];
    const first = await ensureSuperAdmin(
      getDb(),
      { ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: undefined },
      (l) => lines.push(l),
    );
    expect(first.created).toBe(true);
    const password = /password: (\S+)/.exec(lines.join("\n"))![1];
    const admin = await findUserById(getDb(), "super-admin");
    expect(admin!.email).toBe("boss@example.com");
    expect(await verifyPassword(password, admin!.password_hash)).toBe(true);
    expect(admin!.password_hash).not.toContain(password);
    const again = await ensureSuperAdmin(
      getDb(),
      { ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: undefined },
      (l) => lines.push(l),
    );
    expect(again.created).toBe(false);
  });

  it("seeds the demo creator with four real, listed styles of the sample portrait, once", async () => {
    await seedDemo(getDb(), () => {});
    await seedDemo(getDb(), () => {});
    const creator = await findUserByEmail(getDb(), DEMO_CREATOR.email);
    expect(creator).toBeDefined();
    const styled = await rowsWhere("stylized_images", "user_id", creator!.id);
    expect(styled.map((row) => row.style).sort()).toEqual([
      "anime",
      "cartoon",
      "fantasy",
      "professional",
    ]);
    for (const row of styled) {
      expect(row.status).toBe("completed");
      expect(row.provider).toBe("local");
      expect(await getFileStore().exists(row.file_key!)).toBe(true);
    }
    const listings = await rowsWhere("listings", "user_id", creator!.id);
    expect(listings).toHaveLength(4);
    expect(listings.every((listing) => listing.status === "active")).toBe(true);
    // What a buyer gets for the price: the sold file at least 2048 px on its long edge (a sold
    // file's size, docs/decisions/092), and honest about the enlargement of the 512 px portrait
    // it was made from, in the file and in the listing.
    expect(DEMO_LONG_EDGE).toBeGreaterThanOrEqual(1024);
    for (const listing of listings) {
      const meta = await sharp(await getFileStore().read(listing.file_key)).metadata();
      const where = `${listing.title} ($${listing.price_cents / 100})`;
      expect(Math.max(meta.width!, meta.height!), where).toBeGreaterThanOrEqual(SALE_MIN_LONG_EDGE);
      expect([listing.width, listing.height], where).toEqual([meta.width, meta.height]);
      expect(listing.upscaled_by, where).toBe("lanczos3");
      expect(Math.max(listing.native_width!, listing.native_height!), where).toBeLessThanOrEqual(
        512,
      );
      expect(descriptionIn(meta.xmp!.toString("utf8")), where).toMatch(
        /^upscaled with Lanczos ×\d+(\.\d+)?$/,
      );
    }
    for (const row of styled) {
      expect(Math.max(row.width!, row.height!)).toBeGreaterThanOrEqual(1024);
      expect(row.upscaled_by).toBe("lanczos3");
      expect(Math.max(row.native_width!, row.native_height!)).toBeLessThanOrEqual(512);
    }
    // Only faces that agreed are sold (decision record 085): the demo creator's face is verified
    // from the bundled portrait, so the portrait is theirs and none of its listings awaits consent.
    const face = await firstRowWhere("verified_faces", "user_id", "user_id", creator!.id);
    expect(face).toBeDefined();
    const originals = await selectWhere("images", "likeness", "user_id", creator!.id);
    expect(originals.map((row) => row.likeness)).toEqual(["self"]);
    expect((await listingsAwaitingConsent(getDb())).count).toBe(0);
  }, 120_000);

  it("gives each demo description the right article", () => {
    expect(demoDescription("Anime")).toBe(
      "An anime take on a public-domain NASA portrait (demo listing).",
    );
    expect(demoDescription("Cartoon")).toBe(
      "A cartoon take on a public-domain NASA portrait (demo listing).",
    );
  });
});
