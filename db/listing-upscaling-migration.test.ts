import { describe, expect, it } from "vitest";
import { sqliteBeforeMigration } from "#tests/setup/migration-steps";
import { insertCreatorWithImage, listingRow, stylizedImageRow } from "#tests/setup/table-rows";

const { db, migrateToBefore, migrateRest } = sqliteBeforeMigration(
  "2026-11-29-0057-listing-upscaling",
);

describe("migration 0057 on a database with listings", () => {
  it("copies to each listing what its stylized image recorded of the enlargement of the same file", async () => {
    await migrateToBefore();
    const now = new Date().toISOString();
    await insertCreatorWithImage(db, now, { width: 512, height: 512 });
    const styles: [id: string, upscaledBy: string | null, native: number | null][] = [
      ["s-fal", "fal-ai/esrgan", 768],
      ["s-plain", null, 2048],
    ];
    for (const [id, upscaledBy, native] of styles) {
      await db
        .insertInto("stylized_images")
        .values(
          stylizedImageRow({ id, image_id: "i1", user_id: "u1" }, now, {
            upscaled_by: upscaledBy,
            native_width: native,
            native_height: native,
          }),
        )
        .execute();
    }
    // [listing, stylized image, the styled file it snapshotted] (one active listing per image)
    const listings: [string, string | null, string][] = [
      ["l-fal", "s-fal", "styled/s-fal.jpg"],
      ["l-plain", "s-plain", "styled/s-plain.jpg"],
      ["l-restyled", "s-fal", "styled/an-earlier-file.jpg"],
      ["l-gone", null, "styled/gone.jpg"],
    ];
    for (const [id, stylized, source] of listings) {
      const status = id === "l-restyled" ? "withdrawn" : "active";
      await db
        .insertInto("listings")
        .values(
          listingRow({ id, user_id: "u1", stylized_image_id: stylized }, now, {
            status,
            source_file_key: source,
            width: 2048,
            height: 2048,
          }),
        )
        .execute();
    }

    await migrateRest();

    const rows = await db
      .selectFrom("listings")
      .select(["id", "upscaled_by", "native_width", "native_height"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "l-fal", upscaled_by: "fal-ai/esrgan", native_width: 768, native_height: 768 },
      { id: "l-gone", upscaled_by: null, native_width: null, native_height: null },
      { id: "l-plain", upscaled_by: null, native_width: null, native_height: null },
      { id: "l-restyled", upscaled_by: null, native_width: null, native_height: null },
    ]);
  });
});
